import { formatNumber } from "~/utils/format";
import { centsToInput, divideRounded, parseAmountToCents } from "./money";

/**
 * Structured offers and official quotes (DECISIONS §7): line items or a single amount, tax,
 * lead time, validity and terms. Every figure is integer cents, computed here and only here:
 * line = round(quantity × unit price), subtotal = Σ lines (or the amount), tax = round(subtotal ×
 * rate / 100), total = subtotal + tax; each rounding half away from zero, nowhere else.
 * Pure and dependency-free: the server validates with it and the offer form previews with it.
 */

export const MAX_ITEMS = 50;
export const MAX_LEAD_TIME_DAYS = 365;
export const MAX_PAYMENT_TERMS = 200;
export const MAX_ITEM_DESCRIPTION = 300;
export const MAX_UNIT = 20;

/** Quantities are stored in thousandths ("1,250" → 1250). */
export const QUANTITY_SCALE = 1000;
/** Tax rates are stored in hundredths of a percent ("16" → 1600, "10,5" → 1050). */
export const RATE_SCALE = 100;

export interface OfferLine {
  description: string;
  quantityMilli: number;
  unit: string;
  unitPriceCents: number;
  lineCents: number;
}

export interface OfferTotals {
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

function toSafeNumber(value: bigint): number | null {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** One line's amount: round(quantity × unit price); null when it would not fit. */
export function lineCents(quantityMilli: number, unitPriceCents: number): number | null {
  return toSafeNumber(
    divideRounded(BigInt(quantityMilli) * BigInt(unitPriceCents), BigInt(QUANTITY_SCALE)),
  );
}

/** Tax on a subtotal: round(subtotal × rate / 100). */
export function taxCents(subtotalCents: number, rateHundredths: number): number {
  return Number(
    divideRounded(BigInt(subtotalCents) * BigInt(rateHundredths), BigInt(100 * RATE_SCALE)),
  );
}

export function offerTotals(subtotalCents: number, rateHundredths: number): OfferTotals {
  const tax = taxCents(subtotalCents, rateHundredths);
  return { subtotalCents, taxCents: tax, totalCents: subtotalCents + tax };
}

/** An offer that is one amount, without tax, lead time, validity or terms. */
export function singleAmountOffer(amountCents: number): OfferTerms {
  return {
    lines: [],
    ...offerTotals(amountCents, 0),
    taxRate: 0,
    leadTimeDays: null,
    validUntil: null,
    paymentTerms: null,
  };
}

// ---- What a person types

const QUANTITY_PATTERN = /^(\d{1,9})(?:[.,](\d{1,3}))?$/;
const RATE_PATTERN = /^(\d{1,3})(?:[.,](\d{1,2}))?$/;

/** "12", "1,5", "0.125" → thousandths; null for anything else or for zero. */
export function parseQuantity(input: string): number | null {
  const match = QUANTITY_PATTERN.exec(input.replace(/\s/g, ""));
  if (!match) return null;
  const milli = Number(match[1]) * QUANTITY_SCALE + Number((match[2] ?? "").padEnd(3, "0"));
  return milli > 0 && Number.isSafeInteger(milli) ? milli : null;
}

/** "16", "10,5", "0" → hundredths of a percent (0-100 %); null otherwise. */
export function parseTaxRate(input: string): number | null {
  const match = RATE_PATTERN.exec(input.replace(/[\s%]/g, ""));
  if (!match) return null;
  const rate = Number(match[1]) * RATE_SCALE + Number((match[2] ?? "").padEnd(2, "0"));
  return rate <= 100 * RATE_SCALE ? rate : null;
}

/** 1250 → "1.25", 3000 → "3": the value a quantity input shows back. */
export function quantityToInput(milli: number): string {
  const whole = Math.floor(milli / QUANTITY_SCALE);
  const fraction = String(milli % QUANTITY_SCALE)
    .padStart(3, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** 1600 → "16", 1050 → "10.5". */
export function rateToInput(hundredths: number): string {
  const whole = Math.floor(hundredths / RATE_SCALE);
  const fraction = String(hundredths % RATE_SCALE)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Fields of the offer form as typed (DECISIONS §7 names: `items[0].description`, …). */
export interface OfferDraft {
  items: { description: string; quantity: string; unit: string; unit_price: string }[];
  amount: string;
  tax_rate: string;
  lead_time_days: string;
  valid_until: string;
  payment_terms: string;
}

export interface OfferTerms {
  /** Empty when the offer is a single amount. */
  lines: OfferLine[];
  subtotalCents: number;
  taxRate: number;
  taxCents: number;
  totalCents: number;
  leadTimeDays: number | null;
  /** "2026-12-31", or null when the partner gave none. */
  validUntil: string | null;
  paymentTerms: string | null;
}

export type OfferErrors = Record<string, string>;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/**
 * Reads the offer fields from a form (flat `items[3].unit_price` names). Rows whose four fields are
 * all empty are dropped, so the blank rows a form shows never count; at most MAX_ITEMS rows.
 */
export function offerDraftFrom(form: { get(name: string): unknown }, maxRows = 200): OfferDraft {
  const items: OfferDraft["items"] = [];
  for (let i = 0; i < maxRows; i++) {
    const row = {
      description: text(form.get(`items[${i}].description`)),
      quantity: text(form.get(`items[${i}].quantity`)),
      unit: text(form.get(`items[${i}].unit`)),
      unit_price: text(form.get(`items[${i}].unit_price`)),
    };
    if (row.description || row.quantity || row.unit || row.unit_price) items.push(row);
  }
  return {
    items,
    amount: text(form.get("amount")),
    tax_rate: text(form.get("tax_rate")),
    lead_time_days: text(form.get("lead_time_days")),
    valid_until: text(form.get("valid_until")),
    payment_terms: text(form.get("payment_terms")),
  };
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const AMOUNT_MESSAGE = "Por favor ingresa un monto válido";

/**
 * Validates a draft and computes its figures. `today` is the UTC day ("2026-11-26"); a validity
 * before it is refused. `defaultTaxRate` applies when the rate is left empty. Errors are keyed by
 * the form's field names, in Spanish.
 */
export function parseOffer(
  draft: OfferDraft,
  { today, defaultTaxRate }: { today: string; defaultTaxRate: number },
): { ok: true; offer: OfferTerms } | { ok: false; errors: OfferErrors } {
  const errors: OfferErrors = {};
  const lines: OfferLine[] = [];
  if (draft.items.length > MAX_ITEMS)
    errors["items"] = `Una oferta puede tener hasta ${MAX_ITEMS} renglones.`;
  draft.items.slice(0, MAX_ITEMS).forEach((item, i) => {
    const at = (field: string) => `items[${i}].${field}`;
    if (!item.description) errors[at("description")] = "Describe el artículo o servicio.";
    else if (item.description.length > MAX_ITEM_DESCRIPTION)
      errors[at("description")] = `La descripción admite hasta ${MAX_ITEM_DESCRIPTION} caracteres.`;
    if (item.unit.length > MAX_UNIT)
      errors[at("unit")] = `La unidad admite hasta ${MAX_UNIT} caracteres.`;
    const quantity = parseQuantity(item.quantity);
    if (quantity === null)
      errors[at("quantity")] = "Ingresa una cantidad mayor que 0 (hasta 3 decimales).";
    const price = parseAmountToCents(item.unit_price);
    if (price === null || price <= 0) errors[at("unit_price")] = AMOUNT_MESSAGE;
    if (quantity === null || price === null || price <= 0) return;
    const cents = lineCents(quantity, price);
    if (cents === null) {
      errors[at("quantity")] = "El importe de este renglón es demasiado grande.";
      return;
    }
    lines.push({
      description: item.description,
      quantityMilli: quantity,
      unit: item.unit,
      unitPriceCents: price,
      lineCents: cents,
    });
  });

  let subtotalCents = 0;
  if (draft.items.length > 0) {
    subtotalCents = lines.reduce((sum, line) => sum + line.lineCents, 0);
  } else {
    const amount = parseAmountToCents(draft.amount);
    if (amount === null || amount <= 0) errors["amount"] = AMOUNT_MESSAGE;
    else subtotalCents = amount;
  }
  if (!Number.isSafeInteger(subtotalCents * 2))
    errors["amount"] = "El total de la oferta es demasiado grande.";

  const taxRate = draft.tax_rate === "" ? defaultTaxRate : parseTaxRate(draft.tax_rate);
  if (taxRate === null)
    errors["tax_rate"] = "Ingresa un impuesto entre 0 y 100 % (hasta 2 decimales).";

  let leadTimeDays: number | null = null;
  if (draft.lead_time_days !== "") {
    const days = /^\d{1,3}$/.test(draft.lead_time_days) ? Number(draft.lead_time_days) : -1;
    if (days < 0 || days > MAX_LEAD_TIME_DAYS)
      errors["lead_time_days"] =
        `Ingresa el plazo de entrega en días enteros, de 0 a ${MAX_LEAD_TIME_DAYS}.`;
    else leadTimeDays = days;
  }

  let validUntil: string | null = null;
  if (draft.valid_until !== "") {
    if (!isRealDate(draft.valid_until))
      errors["valid_until"] = "Ingresa una fecha válida (aaaa-mm-dd).";
    else if (draft.valid_until < today)
      errors["valid_until"] = "La vigencia no puede ser anterior a hoy.";
    else validUntil = draft.valid_until;
  }

  if (draft.payment_terms.length > MAX_PAYMENT_TERMS)
    errors["payment_terms"] =
      `Las condiciones de pago admiten hasta ${MAX_PAYMENT_TERMS} caracteres.`;

  if (Object.keys(errors).length > 0 || taxRate === null) return { ok: false, errors };
  return {
    ok: true,
    offer: {
      lines,
      ...offerTotals(subtotalCents, taxRate),
      taxRate,
      leadTimeDays,
      validUntil,
      paymentTerms: draft.payment_terms || null,
    },
  };
}

/** The UTC day of an instant ("2026-11-26"). */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC day `days` after `from` ("2026-11-26" + 30 → "2026-12-26"). */
export function addDays(from: string, days: number): string {
  const date = new Date(`${from}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

/** An offer or official quote valid until `validUntil` (inclusive) has expired after that day. */
export function isExpired(validUntil: string | null, today: string): boolean {
  return validUntil !== null && validUntil < today;
}

export const OFFICIAL_VALIDITY_DAYS = 30;

/** An official quote's validity: today + 30 days, never later than the offer's own. */
export function officialValidity(today: string, offerValidUntil: string | null): string {
  const standard = addDays(today, OFFICIAL_VALIDITY_DAYS);
  return offerValidUntil !== null && offerValidUntil < standard ? offerValidUntil : standard;
}

/** 1250 → "1.25", 12000 → "12,000" (es-MX, like amounts). */
export function formatQuantity(milli: number): string {
  return formatNumber(milli / QUANTITY_SCALE, 3);
}

/** 1600 → "16 %", 1050 → "10.5 %". */
export function formatRate(hundredths: number): string {
  // A no-break space: «16 %» never wraps between the number and its sign.
  return `${formatNumber(hundredths / RATE_SCALE, 2)}\u00a0%`;
}

/** A stored offer or official quote as the offer form's starting values (field name → text). */
export function offerFormValues(terms: {
  lines: OfferLine[];
  subtotalCents: number;
  taxRate: number;
  leadTimeDays: number | null;
  validUntil: string | null;
  paymentTerms: string | null;
}): Record<string, string> {
  const values: Record<string, string> = {
    amount: terms.lines.length ? "" : centsToInput(terms.subtotalCents),
    tax_rate: rateToInput(terms.taxRate),
    lead_time_days: terms.leadTimeDays === null ? "" : String(terms.leadTimeDays),
    valid_until: terms.validUntil ?? "",
    payment_terms: terms.paymentTerms ?? "",
  };
  terms.lines.forEach((line, i) => {
    values[`items[${i}].description`] = line.description;
    values[`items[${i}].quantity`] = quantityToInput(line.quantityMilli);
    values[`items[${i}].unit`] = line.unit;
    values[`items[${i}].unit_price`] = centsToInput(line.unitPriceCents);
  });
  return values;
}

/**
 * The marks of an offer comparison: the lowest total (every offer that has it), the shortest lead
 * time among offers that state one, and the offers past their validity on `today`.
 */
export function comparisonMarks(
  offers: readonly {
    id: number;
    quoted_amount_cents: number;
    lead_time_days: number | null;
    valid_until: string | null;
  }[],
  today: string,
) {
  const lowest = Math.min(...offers.map((o) => o.quoted_amount_cents));
  const timed = offers.filter((o) => o.lead_time_days !== null);
  const fastest = Math.min(...timed.map((o) => o.lead_time_days!));
  // A mark needs something to compare with: one offer alone is neither lowest nor fastest.
  const several = offers.length > 1;
  return {
    lowestTotal: new Set(
      several ? offers.filter((o) => o.quoted_amount_cents === lowest).map((o) => o.id) : [],
    ),
    fastest: new Set(
      timed.length > 1 ? timed.filter((o) => o.lead_time_days === fastest).map((o) => o.id) : [],
    ),
    expired: new Set(offers.filter((o) => isExpired(o.valid_until, today)).map((o) => o.id)),
  };
}

/** "15 días", "1 día", "No indicado". */
export const leadTimeLabel = (days: number | null) =>
  days === null ? "No indicado" : days === 1 ? "1 día" : `${days} días`;
