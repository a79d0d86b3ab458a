import { describe, expect, it } from "vitest";
import {
  addDays,
  isExpired,
  lineCents,
  offerDraftFrom,
  offerFormValues,
  officialValidity,
  parseOffer,
  parseQuantity,
  parseTaxRate,
  quantityToInput,
  taxCents,
  type OfferDraft,
} from "~/domain/offer";
import { commissionCents, divideRounded } from "~/domain/money";

const context = { today: "2026-11-26", defaultTaxRate: 0 };

const draft = (over: Partial<OfferDraft> = {}): OfferDraft => ({
  items: [],
  amount: "",
  tax_rate: "",
  lead_time_days: "",
  valid_until: "",
  payment_terms: "",
  ...over,
});

const form = (entries: Record<string, string>) => ({
  get: (name: string) => entries[name] ?? null,
});

describe("rounding half away from zero", () => {
  it("rounds halves up for positives and down for negatives, exactly", () => {
    expect(divideRounded(5n, 10n)).toBe(1n);
    expect(divideRounded(4n, 10n)).toBe(0n);
    expect(divideRounded(15n, 10n)).toBe(2n);
    expect(divideRounded(-5n, 10n)).toBe(-1n);
    expect(divideRounded(-15n, 10n)).toBe(-2n);
    expect(divideRounded(10n ** 20n + 5n, 10n)).toBe(10n ** 19n + 1n);
  });
});

describe("line totals", () => {
  it("multiplies a quantity with 3 decimals by a unit price, rounded once to the cent", () => {
    // 1.125 × 10.01 = 11.26125 → 11.26
    expect(lineCents(1125, 1001)).toBe(1126);
    // 0.5 × 0.01 = 0.005 → 0.01 (half away from zero)
    expect(lineCents(500, 1)).toBe(1);
    // 1.5 × 0.03 = 0.045 → 0.05
    expect(lineCents(1500, 3)).toBe(5);
    // 0.001 × 4.99 = 0.00499 → 0.00
    expect(lineCents(1, 499)).toBe(0);
    expect(lineCents(12_000, 250_000)).toBe(3_000_000);
  });

  it("refuses a line that would not be an exact integer", () => {
    expect(lineCents(999_999_999_999, 999_999_999_999)).toBeNull();
  });
});

describe("tax and commission", () => {
  it("computes tax on the subtotal, rounded half away from zero", () => {
    expect(taxCents(1001, 1600)).toBe(160); // 160.16
    expect(taxCents(3125, 1600)).toBe(500);
    expect(taxCents(1000, 1050)).toBe(105); // 10.5 %
    expect(taxCents(25, 200)).toBe(1); // 0.5 cent
    expect(taxCents(123_456, 0)).toBe(0);
    expect(taxCents(1, 10_000)).toBe(1);
  });

  it("charges the commission on the subtotal, never on the tax", () => {
    const offer = parseOffer(draft({ amount: "10000", tax_rate: "16" }), context);
    expect(offer.ok && offer.offer).toMatchObject({
      subtotalCents: 1_000_000,
      taxCents: 160_000,
      totalCents: 1_160_000,
    });
    expect(commissionCents(1_000_000, 5)).toBe(50_000);
    expect(commissionCents(1_001, 5)).toBe(50); // 50.05
    expect(commissionCents(1_010, 5)).toBe(51); // 50.5 → 51
    expect(commissionCents(9_000, 5.125)).toBe(461); // 461.25, the setting's 4 decimals kept
    expect(commissionCents(2_000, 5.0125)).toBe(100); // 100.25
  });
});

describe("what a person types", () => {
  it("reads quantities with a dot or a comma and up to 3 decimals", () => {
    expect(parseQuantity("12")).toBe(12_000);
    expect(parseQuantity("1,5")).toBe(1_500);
    expect(parseQuantity("0.125")).toBe(125);
    expect(parseQuantity(" 2,250 ")).toBe(2_250);
    for (const bad of ["0", "0,000", "-1", "1.2345", "1e3", "", "abc", "1.234,5"])
      expect(parseQuantity(bad)).toBeNull();
    expect(quantityToInput(2_250)).toBe("2.25");
    expect(quantityToInput(3_000)).toBe("3");
  });

  it("reads tax rates from 0 to 100 % with up to 2 decimals", () => {
    expect(parseTaxRate("16")).toBe(1_600);
    expect(parseTaxRate("10,5")).toBe(1_050);
    expect(parseTaxRate("16 %")).toBe(1_600);
    expect(parseTaxRate("0")).toBe(0);
    expect(parseTaxRate("100")).toBe(10_000);
    for (const bad of ["100.01", "-1", "16.125", "x", "1000"]) expect(parseTaxRate(bad)).toBeNull();
  });
});

describe("parseOffer", () => {
  it("totals three lines typed with commas and 16 % tax", () => {
    const result = parseOffer(
      draft({
        items: [
          { description: 'Válvula de bola 2"', quantity: "12", unit: "pza", unit_price: "1250,50" },
          { description: "Empaque", quantity: "2,5", unit: "m", unit_price: "99.99" },
          { description: "Flete", quantity: "1", unit: "", unit_price: "3000" },
        ],
        amount: "1", // ignored when there are lines
        tax_rate: "16",
        lead_time_days: "15",
        valid_until: "2026-12-20",
        payment_terms: "50 % anticipo",
      }),
      context,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // 12 × 1250.50 = 15006.00; 2.5 × 99.99 = 249.975 → 249.98; 3000.00
    expect(result.offer.lines.map((l) => l.lineCents)).toEqual([1_500_600, 24_998, 300_000]);
    expect(result.offer).toMatchObject({
      subtotalCents: 1_825_598,
      taxRate: 1_600,
      taxCents: 292_096, // 18255.98 × 0.16 = 2920.9568 → 2920.96
      totalCents: 2_117_694,
      leadTimeDays: 15,
      validUntil: "2026-12-20",
      paymentTerms: "50 % anticipo",
    });
  });

  it("takes a single amount when there are no lines, and the default tax when none is typed", () => {
    const result = parseOffer(draft({ amount: "1000,50" }), { ...context, defaultTaxRate: 800 });
    expect(result.ok && result.offer).toMatchObject({
      lines: [],
      subtotalCents: 100_050,
      taxRate: 800,
      taxCents: 8_004,
      totalCents: 108_054,
      leadTimeDays: null,
      validUntil: null,
    });
  });

  it("names every wrong field in Spanish and stores nothing to compute", () => {
    const result = parseOffer(
      draft({
        items: [{ description: "", quantity: "1.2345", unit: "", unit_price: "-3" }],
        tax_rate: "120",
        lead_time_days: "366",
        valid_until: "2026-11-25",
        payment_terms: "x".repeat(201),
      }),
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      "items[0].description",
      "items[0].quantity",
      "items[0].unit_price",
      "lead_time_days",
      "payment_terms",
      "tax_rate",
      "valid_until",
    ]);
    expect(result.errors["valid_until"]).toBe("La vigencia no puede ser anterior a hoy.");
  });

  it("asks for an amount when there are neither lines nor an amount", () => {
    const result = parseOffer(draft(), context);
    expect(result.ok ? null : result.errors["amount"]).toBe("Por favor ingresa un monto válido");
  });

  it("refuses an impossible date and accepts today", () => {
    expect(parseOffer(draft({ amount: "5", valid_until: "2026-02-30" }), context).ok).toBe(false);
    expect(parseOffer(draft({ amount: "5", valid_until: "2026-11-26" }), context).ok).toBe(true);
  });
});

describe("the form's fields", () => {
  it("drops blank rows and never reads a subtotal, tax or total sent by the browser", () => {
    const fields = {
      "items[0].description": "Tubo",
      "items[0].quantity": "3",
      "items[0].unit_price": "10",
      "items[1].description": "",
      "items[2].description": "Codo",
      "items[2].quantity": "1",
      "items[2].unit_price": "5",
      tax_rate: "10",
      subtotal: "1",
      tax: "0",
      total: "1",
    };
    const d = offerDraftFrom(form(fields));
    expect(d.items.map((i) => i.description)).toEqual(["Tubo", "Codo"]);
    const result = parseOffer(d, context);
    expect(result.ok && result.offer.totalCents).toBe(3_850);
  });

  it("gives a stored offer back as the same form values", () => {
    const parsed = parseOffer(
      draft({
        items: [{ description: "Tubo", quantity: "2,125", unit: "m", unit_price: "10.10" }],
        tax_rate: "16",
        lead_time_days: "7",
      }),
      context,
    );
    if (!parsed.ok) throw new Error("expected a valid offer");
    const values = offerFormValues(parsed.offer);
    expect(values).toMatchObject({
      "items[0].quantity": "2.125",
      "items[0].unit_price": "10.10",
      tax_rate: "16",
      lead_time_days: "7",
      amount: "",
    });
    const again = parseOffer(offerDraftFrom(form(values)), context);
    expect(again.ok && again.offer).toEqual(parsed.offer);
  });
});

describe("validity and expiry", () => {
  it("issues an official quote for 30 days, never past the offer's own validity", () => {
    expect(addDays("2026-11-26", 30)).toBe("2026-12-26");
    expect(officialValidity("2026-11-26", null)).toBe("2026-12-26");
    expect(officialValidity("2026-11-26", "2026-12-01")).toBe("2026-12-01");
    expect(officialValidity("2026-11-26", "2027-03-01")).toBe("2026-12-26");
  });

  it("holds through its last day and expires the day after", () => {
    expect(isExpired("2026-11-26", "2026-11-26")).toBe(false);
    expect(isExpired("2026-11-25", "2026-11-26")).toBe(true);
    expect(isExpired(null, "2026-11-26")).toBe(false);
  });
});
