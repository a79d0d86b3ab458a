const dateFormatter = new Intl.DateTimeFormat("es-ES", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const dateTimeFormatter = new Intl.DateTimeFormat("es-ES", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** Dates are shown es-ES (DECISIONS §3); times in UTC so server and browser render the same text. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return dateFormatter.format(typeof value === "string" ? new Date(value) : value);
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return `${dateTimeFormatter.format(typeof value === "string" ? new Date(value) : value)} UTC`;
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
