import type { RequestStatus } from "../../db/schema";
import { REQUEST_STATUSES } from "./quote-status";
import { MONTH_ABBREVIATIONS } from "~/utils/format";

/** Pure arithmetic behind /admin/analytics: the model fetches rows, these turn them into figures. */

/** The landing promises partner quotes within 24-48 hours. */
export const PROMISE_HOURS = 48;

type StatusCounts = Record<RequestStatus, number>;

export function statusCounts(rows: { status: string; count: number | bigint }[]): StatusCounts {
  const counts = Object.fromEntries(REQUEST_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const row of rows) {
    if ((REQUEST_STATUSES as readonly string[]).includes(row.status)) {
      counts[row.status as RequestStatus] += Number(row.count);
    }
  }
  return counts;
}

export function totalOf(counts: StatusCounts): number {
  return REQUEST_STATUSES.reduce((sum, s) => sum + counts[s], 0);
}

/** A share between 0 and 1, or null when there is nothing to divide by. */
function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** Conversion: paid requests over all requests. */
export function conversionRate(counts: StatusCounts): number | null {
  return ratio(counts.paid, totalOf(counts));
}

const percentFormatter = new Intl.NumberFormat("es-MX", {
  style: "percent",
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

export function formatPercent(value: number | null): string {
  return value === null ? "—" : percentFormatter.format(value);
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Share of values at or under `limit` (e.g. quotes that arrived within the 48 h promise). */
export function shareWithin(values: number[], limit: number): number | null {
  return ratio(values.filter((v) => v <= limit).length, values.length);
}

const hoursFormatter = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });

export function formatHours(hours: number | null): string {
  if (hours === null) return "—";
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  return `${hoursFormatter.format(hours)} h`;
}

export interface Bucket {
  label: string;
  /** Upper bound in hours, inclusive; the last bucket has none. */
  max: number | null;
}

/** The 24-48 h promise splits the histogram: on time up to 48 h, late after. */
export const TURNAROUND_BUCKETS: Bucket[] = [
  { label: "0–12 h", max: 12 },
  { label: "12–24 h", max: 24 },
  { label: "24–48 h", max: 48 },
  { label: "48–72 h", max: 72 },
  { label: "Más de 72 h", max: null },
];

export function histogram(
  values: number[],
  buckets: Bucket[] = TURNAROUND_BUCKETS,
): { label: string; count: number }[] {
  const counts = buckets.map((b) => ({ label: b.label, count: 0 }));
  for (const value of values) {
    const index = buckets.findIndex((b) => b.max === null || value <= b.max);
    counts[index === -1 ? counts.length - 1 : index]!.count += 1;
  }
  return counts;
}

/** "YYYY-MM" keys of the `count` months ending with the month of `now` (UTC), oldest first. */
export function lastMonths(now: Date, count = 12): string[] {
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return months;
}

/** Fills the months with the rows' values (0 where a month has no row). */
export function monthlySeries(
  months: string[],
  rows: { month: string; value: number | bigint | null }[],
): { month: string; value: number }[] {
  const byMonth = new Map(rows.map((r) => [r.month, Number(r.value ?? 0)]));
  return months.map((month) => ({ month, value: byMonth.get(month) ?? 0 }));
}

/** "2026-11" → "nov 26": the month names dates use ("sept", as Intl's es-ES). */
export function monthLabel(month: string): string {
  const [year, m] = month.split("-");
  return `${MONTH_ABBREVIATIONS[Number(m) - 1] ?? m} ${year?.slice(2)}`;
}

interface FunnelStage {
  label: string;
  count: number;
}

/**
 * How many requests reached each step, read from their current status (a paid request went through
 * every step). Rejected requests count only as created: where they stopped is in their history.
 */
export function funnel(counts: StatusCounts): FunnelStage[] {
  const paid = counts.paid;
  const approved = paid + counts.approved;
  const quoted = approved + counts.quoted;
  const assigned = quoted + counts.assigned;
  return [
    { label: "Creadas", count: totalOf(counts) },
    { label: "Asignadas", count: assigned },
    { label: "Cotizadas", count: quoted },
    { label: "Aprobadas", count: approved },
    { label: "Pagadas", count: paid },
  ];
}

/** Start of the UTC day and of the UTC week (Monday) containing `now`, as ISO strings. */
export function periodStarts(now: Date): { today: string; week: string } {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  return {
    today: new Date(day).toISOString(),
    week: new Date(day - sinceMonday * 86_400_000).toISOString(),
  };
}
