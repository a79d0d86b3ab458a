/**
 * The date range and sort of the admin and buyer lists (issue 14): plain GET fields `desde` and
 * `hasta` (HTML date inputs, whole days read in UTC like every date of the product, see
 * request-dates.ts) and `orden`. They travel in the list's URL, so pagination links, the CSV export
 * and a page reload keep them, with or without JavaScript.
 */
import { parseDayInput } from "./request-dates";

const DAY_MS = 86_400_000;

export const RANGE_FORMAT_MESSAGE = "Indica una fecha válida (por ejemplo 2026-11-01).";
export const RANGE_ORDER_MESSAGE =
  "La fecha «Hasta» no puede ser anterior a «Desde»: la lista se muestra sin el rango de fechas.";

/** Inclusive UTC days; either end may be open. */
export interface DayRange {
  from: string | null;
  to: string | null;
}

export interface DateRangeInput {
  /** What the person typed, shown back in the fields. */
  values: { desde: string; hasta: string };
  /** The range the list applies: only the valid parts of what was typed. */
  range: DayRange;
  /** A Spanish message per field that was refused. */
  errors: { desde?: string[]; hasta?: string[] };
}

/**
 * `?desde=&hasta=` read leniently: a field that is not a real day is ignored with a message next
 * to it, and a range that ends before it starts is ignored as a whole (with a message on «Hasta»),
 * so the list stays usable whatever is in the address.
 */
export function dateRangeFrom(params: URLSearchParams): DateRangeInput {
  const desde = (params.get("desde") ?? "").trim().slice(0, 20);
  const hasta = (params.get("hasta") ?? "").trim().slice(0, 20);
  const errors: DateRangeInput["errors"] = {};
  const from = desde ? parseDayInput(desde) : null;
  const to = hasta ? parseDayInput(hasta) : null;
  if (desde && !from) errors.desde = [RANGE_FORMAT_MESSAGE];
  if (hasta && !to) errors.hasta = [RANGE_FORMAT_MESSAGE];
  if (from && to && to < from) {
    errors.hasta = [RANGE_ORDER_MESSAGE];
    return { values: { desde, hasta }, range: { from: null, to: null }, errors };
  }
  return { values: { desde, hasta }, range: { from, to }, errors };
}

export function hasRange(range: DayRange): boolean {
  return range.from !== null || range.to !== null;
}

/**
 * The range as instants for a timestamp column (ISO text, "2026-11-01T09:30:00.000Z"):
 * `at >= start` and `at < end`, the end being the start of the day after `to`.
 */
export function rangeInstants(range: DayRange): { start: string | null; end: string | null } {
  return {
    start: range.from ? `${range.from}T00:00:00.000Z` : null,
    // Through the last day there is (9999-12-31) is no end: the day after has no ISO text.
    end:
      range.to && range.to < "9999-12-31"
        ? new Date(Date.parse(`${range.to}T00:00:00.000Z`) + DAY_MS).toISOString()
        : null,
  };
}

/**
 * The sorts a list may offer (`orden`): newest first (every list's default but the payments
 * desk's review queue), oldest first, largest amount first, soonest deadline first.
 */
export type ListSort = "recientes" | "antiguos" | "monto" | "plazo" | "cola";

/** `?orden=` when it is one of `allowed`, else the list's default (the first of `allowed`). */
export function sortFrom<T extends ListSort>(value: string | null, allowed: readonly T[]): T {
  return allowed.find((s) => s === value) ?? allowed[0]!;
}

/** The sorts each list offers, its default first. */
export const ADMIN_REQUEST_SORTS = ["recientes", "antiguos", "plazo", "monto"] as const;
export const BUYER_REQUEST_SORTS = ["recientes", "antiguos", "monto"] as const;
export const ADMIN_PAYMENT_SORTS = ["cola", "recientes", "antiguos", "monto"] as const;
export const BUYER_PAYMENT_SORTS = ["recientes", "antiguos", "monto"] as const;
export const USER_SORTS = ["recientes", "antiguos"] as const;

/** The desk's `?orden=`; its older `?sort=deadline` links still sort by deadline. */
export function adminRequestSortFrom(params: URLSearchParams) {
  const legacy = params.get("sort") === "deadline" ? "plazo" : null;
  return sortFrom(params.get("orden") ?? legacy, ADMIN_REQUEST_SORTS);
}

export const SORT_LABELS: Record<ListSort, string> = {
  recientes: "Más recientes primero",
  antiguos: "Más antiguos primero",
  monto: "Monto: mayor primero",
  plazo: "Plazo más próximo",
  cola: "Cola de revisión",
};

/** What the date range filters on, per list, for its label and its chip. */
export const RANGE_SUBJECTS = {
  requests: "Fecha de creación",
  payments: "Fecha de envío del comprobante (o de creación, si no hay)",
  users: "Fecha de alta",
} as const;

/** «Creación: del 1 nov. 2026 al 30 nov. 2026» style wording for the active-range chip. */
export function rangeChipLabel(range: DayRange, formatDay: (day: string) => string): string | null {
  if (range.from && range.to)
    return range.from === range.to
      ? `El ${formatDay(range.from)}`
      : `Del ${formatDay(range.from)} al ${formatDay(range.to)}`;
  if (range.from) return `Desde el ${formatDay(range.from)}`;
  if (range.to) return `Hasta el ${formatDay(range.to)}`;
  return null;
}

/**
 * The list's URL without some of its parameters (a chip's «quitar» link), and never on a page
 * other than the first: a cursor belongs to the filters it was read with.
 */
export function searchWithout(search: string, names: readonly string[]): string {
  const params = new URLSearchParams(search);
  for (const name of [...names, "after", "before", "page"]) params.delete(name);
  const query = params.toString();
  return query ? `?${query}` : "";
}
