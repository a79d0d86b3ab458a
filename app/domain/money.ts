/** Money is integer cents everywhere; these are the only conversions to and from text. */
import { SUPPORTED_CURRENCIES } from "./currencies";

const AMOUNT_PATTERN = /^(\d{1,13})(?:[.,](\d{1,2}))?$/;
/** The app's own display format (es-MX, formatMoney): comma thousands, dot decimals. */
const GROUPED_AMOUNT_PATTERN = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d{1,2}))?$/;
/** As Spain and much of South America write it: dot thousands, and decimals to tell it apart. */
const DOT_GROUPED_AMOUNT_PATTERN = /^(\d{1,3}(?:\.\d{3})+),(\d{1,2})$/;
const CURRENCY_PREFIX = new RegExp(`^(?:${SUPPORTED_CURRENCIES.join("|")})`, "i");

/**
 * Parses what a person types ("1234.50", "1234,50", "1234", "$ 1 234,5") or copies from a page
 * ("USD 207,000.00", "1,234") into cents, or writes with dot thousands and decimal comma
 * ("70.000,00"). A comma is a decimal comma unless it groups thousands as the app prints them; a
 * dot groups thousands only before a decimal comma. Returns null for anything ambiguous or not a
 * plain positive amount (e.g. "12.345", "1.234", "-5", "1e3").
 */
export function parseAmountToCents(input: unknown): number | null {
  if (typeof input !== "string" && typeof input !== "number") return null;
  const text = String(input).replace(/[\s$]/g, "").replace(CURRENCY_PREFIX, "");
  const match =
    AMOUNT_PATTERN.exec(text) ??
    GROUPED_AMOUNT_PATTERN.exec(text) ??
    DOT_GROUPED_AMOUNT_PATTERN.exec(text);
  if (!match) return null;
  const whole = Number(match[1]!.replace(/[.,]/g, ""));
  const fraction = Number((match[2] ?? "0").padEnd(2, "0"));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Cents → "1234.50", the value an amount input shows back to the user. */
export function centsToInput(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * An amount as Intl's es-MX currency format prints it ("USD 1,234.50", "-$5.00": the peso takes
 * "$", other currencies their code and a no-break space), written out: building an
 * Intl.NumberFormat in the browser loads locale data (16 ms on a desktop, four times that on a
 * phone, in the middle of hydration). Rounding as Intl: half away from zero on the number's exact
 * value (toFixed). tests/unit/money.test.ts checks it against Intl for every supported currency.
 */
function currencyText(value: number, currency: string, minDecimals: number, maxDecimals: number) {
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  let digits = Math.abs(value).toFixed(maxDecimals);
  if (minDecimals === 0 && digits.includes(".")) digits = digits.replace(/\.?0+$/, "");
  const [whole = "", fraction] = digits.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const symbol = currency === "MXN" ? "$" : `${currency}\u00a0`;
  return `${sign}${symbol}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** DECISIONS §3: one platform currency, shown the same way to every role, formatted es-MX. */
export function formatMoney(cents: number | null | undefined, currency = "USD"): string {
  if (cents === null || cents === undefined) return "—";
  return currencyText(cents / 100, currency, 2, 2);
}

const COMPACT_STEPS = [
  { from: 1e9, suffix: " mil M" },
  { from: 1e6, suffix: " M" },
  { from: 1e3, suffix: " mil" },
] as const;

/**
 * A short amount for charts and counters: "USD 1.2 M", "USD 350 mil", "USD 0". Built here rather
 * than with Intl's compact notation, which the server's and the browser's ICU print differently
 * ("USD 0.0" against "USD 0"), so the page would not hydrate.
 */
export function formatCompactMoney(cents: number, currency = "USD"): string {
  const value = cents / 100;
  const step = COMPACT_STEPS.find((s) => Math.abs(value) >= s.from);
  const number = currencyText(step ? value / step.from : value, currency, 0, step ? 1 : 0);
  return step ? `${number}${step.suffix}` : number;
}

/** n / d rounded half away from zero, exact for any size (BigInt). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

/**
 * Commission in cents on an amount (the subtotal, DECISIONS §7) for a percentage (5 → 5 %),
 * rounded half away from zero. The settings take up to 4 decimals (5.125 %), kept exact here.
 */
export function commissionCents(amountCents: number, percentage: number): number {
  const tenThousandths = Math.round(percentage * 10_000);
  return Number(divideRounded(BigInt(amountCents) * BigInt(tenThousandths), 1_000_000n));
}
