// Written out rather than through Intl.DateTimeFormat: in the browser, building that formatter
// loads the locale's data (30 ms on a desktop, four times that on a phone, in the middle of
// hydration), and these two shapes are fixed. tests/unit/format.test.ts checks them against Intl.
export const MONTH_ABBREVIATIONS = [
  "ene",
  "feb",
  "mar",
  "abr",
  "may",
  "jun",
  "jul",
  "ago",
  "sept",
  "oct",
  "nov",
  "dic",
];
const twoDigits = (n: number) => String(n).padStart(2, "0");

function utcDate(value: string | Date): Date {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  return date;
}

/** Dates are shown es-ES (DECISIONS §3); times in UTC so server and browser render the same text. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const date = utcDate(value);
  return `${date.getUTCDate()} ${MONTH_ABBREVIATIONS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "07:04 UTC". */
export function formatTime(value: string | Date): string {
  const date = utcDate(value);
  return `${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/** "5 sept 2026, 07:04 UTC". */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return `${formatDate(value)}, ${formatTime(value)}`;
}

const numberFormatters = new Map<number, Intl.NumberFormat>();

/**
 * Counts, points and percentages as every page, e-mail and PDF writes them ("11,800", "5.5"): one
 * formatter, so a notification never says "11800" where the dashboard says "11,800".
 */
export function formatNumber(value: number, maximumFractionDigits = 0): string {
  let formatter = numberFormatters.get(maximumFractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat("es-MX", { maximumFractionDigits });
    numberFormatters.set(maximumFractionDigits, formatter);
  }
  return formatter.format(value);
}

/** A count with its noun in the right number: "1 producto", "3 productos". */
export function countOf(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** A search's count, which stops counting past a cap (`capped`: "Más de 1,000 solicitudes"). */
export function matchCountOf(count: number, capped: boolean, one: string, many: string): string {
  return capped ? `Más de ${countOf(count - 1, one, many)}` : countOf(count, one, many);
}

/**
 * A reason someone typed, to be followed by a full stop in a sentence of ours: its own final stop
 * is dropped, so «…falta el IVA.» does not become «…falta el IVA..».
 */
export function withoutFinalStop(text: string): string {
  return text.trimEnd().replace(/\.+$/, "");
}
