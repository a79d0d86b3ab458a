import { sql } from "kysely";
import {
  conversionRate,
  funnel,
  lastMonths,
  monthlySeries,
  PROMISE_HOURS,
  statusCounts,
  totalOf,
  TURNAROUND_BUCKETS,
} from "~/domain/analytics";
import type { DB } from "~/services/db.server";

/**
 * The queries behind /admin/analytics, read from the summary tables the writing transactions keep
 * current (migration 2026-11-25T00-00_desk_summaries): a view reads a few dozen rows whatever the
 * size of the data. The arithmetic that is left is in ~/domain/analytics.
 */

const HOUR = 3600;

/**
 * Requests whose first quote took at most `hours` hours (`seconds <= hours × 3600`): every whole
 * hour bucket below it, plus the requests that took exactly the limit.
 */
function turnaroundAtMost(hours: number) {
  return sql<number>`coalesce((SELECT sum(requests) FROM turnaround_hours WHERE hour < ${hours}), 0)
    + coalesce((SELECT requests FROM turnaround_seconds WHERE seconds = ${hours * HOUR}), 0)`;
}

/** The three bucket levels the median walks down, each with the width of one bucket in seconds. */
const LEVELS = [
  { table: "turnaround_hours", key: "hour", width: HOUR },
  { table: "turnaround_minutes", key: "minute", width: 60 },
  { table: "turnaround_seconds", key: "seconds", width: 1 },
] as const;

/**
 * The `rank`-th smallest turnaround (1-based), in seconds: the hour where the running count
 * reaches `rank`, then the minute inside that hour, then the second inside that minute. SQLite
 * walks at most about a hundred hours and 60 rows at each lower level, whatever the data size.
 */
async function turnaroundAtRank(database: DB, rank: number): Promise<number | null> {
  let from: number | null = null;
  let remaining = rank;
  let parentWidth = 0;
  let start = 0;
  for (const { table, key, width } of LEVELS) {
    const within =
      from === null
        ? sql``
        : sql`WHERE ${sql.ref(key)} BETWEEN ${from / width} AND ${(from + parentWidth) / width - 1}`;
    const found = await sql<{ bucket: number; before: number }>`
      SELECT bucket, running - requests AS before FROM (
        SELECT ${sql.ref(key)} AS bucket, requests,
          sum(requests) OVER (ORDER BY ${sql.ref(key)}) AS running
        FROM ${sql.table(table)} ${within}
      ) WHERE running >= ${remaining} ORDER BY bucket LIMIT 1`.execute(database);
    const row = found.rows[0];
    if (!row) return null;
    remaining -= Number(row.before);
    start = Number(row.bucket) * width;
    from = start;
    parentWidth = width;
  }
  return start;
}

/** The median of the turnarounds in hours, as ~/domain/analytics `median` computes it. */
async function medianTurnaroundHours(database: DB, measured: number): Promise<number | null> {
  if (measured === 0) return null;
  const middle = Math.floor(measured / 2);
  if (measured % 2 === 1) {
    const seconds = await turnaroundAtRank(database, middle + 1);
    return seconds === null ? null : seconds / HOUR;
  }
  const [low, high] = await Promise.all([
    turnaroundAtRank(database, middle),
    turnaroundAtRank(database, middle + 1),
  ]);
  return low === null || high === null ? null : (low / HOUR + high / HOUR) / 2;
}

export async function getAnalytics(database: DB, current = new Date()) {
  const months = lastMonths(current, 12);
  const limits = TURNAROUND_BUCKETS.flatMap((b) => (b.max === null ? [] : [b.max]));

  const [byStatus, payments, commissions, turnaround, topPartners, monthly] = await Promise.all([
    database.selectFrom("request_status_counts").select(["status", "requests as count"]).execute(),
    database
      .selectFrom("payment_status_totals")
      .select(["status", "payments", "cents", "submitted", "submitted_cents"])
      .execute(),
    database
      .selectFrom("summary_totals")
      .select("value")
      .where("name", "=", "commission_cents")
      .executeTakeFirst(),
    // How many requests were measured and how many took at most each limit (24 h, 48 h, buckets).
    database
      .selectNoFrom([
        sql<number>`coalesce((SELECT sum(requests) FROM turnaround_hours), 0)`.as("measured"),
        ...[...new Set([...limits, 24, PROMISE_HOURS])].map((hours) =>
          turnaroundAtMost(hours).as(`within_${hours}`),
        ),
      ])
      .executeTakeFirstOrThrow(),
    database
      .selectFrom("partner_wins as w")
      .innerJoin("users as u", "u.id", "w.partner_id")
      .select([
        "u.id",
        sql<string>`coalesce(nullif(trim(u.company_name), ''), u.first_name || ' ' || u.last_name)`.as(
          "name",
        ),
        "w.won",
        "w.cents",
      ])
      .where("w.won", ">", 0)
      .orderBy("w.won", "desc")
      .orderBy("w.cents", "desc")
      .orderBy("w.partner_id")
      .limit(5)
      .execute(),
    database
      .selectFrom("monthly_totals")
      .select(["month", "requests", "paid_cents"])
      .where("month", ">=", months[0]!)
      .where("month", "<=", months.at(-1)!)
      .execute(),
  ]);

  const counts = statusCounts(byStatus);
  const confirmed = payments.find((p) => p.status === "confirmed");
  const pending = payments.find((p) => p.status === "pending");
  const within = turnaround as unknown as Record<string, number>;
  const measured = Number(turnaround.measured);
  const atMost = (hours: number) => Number(within[`within_${hours}`] ?? 0);
  const share = (hours: number) => (measured > 0 ? atMost(hours) / measured : null);
  // Bucket i holds what is at most its limit and above the previous one; the last holds the rest.
  let previous = 0;
  const histogram = TURNAROUND_BUCKETS.map((bucket) => {
    const upTo = bucket.max === null ? measured : atMost(bucket.max);
    const count = upTo - previous;
    previous = upTo;
    return { label: bucket.label, count };
  });
  return {
    counts,
    total: totalOf(counts),
    conversion: conversionRate(counts),
    paidVolumeCents: Number(confirmed?.cents ?? 0),
    confirmedPayments: Number(confirmed?.payments ?? 0),
    commissionsCents: Number(commissions?.value ?? 0),
    turnaround: {
      measured,
      medianHours: await medianTurnaroundHours(database, measured),
      within24: share(24),
      within48: share(PROMISE_HOURS),
      histogram,
    },
    pendingValidations: {
      count: Number(pending?.submitted ?? 0),
      cents: Number(pending?.submitted_cents ?? 0),
    },
    topPartners: topPartners.map((p) => ({
      id: p.id,
      name: p.name,
      won: Number(p.won),
      cents: Number(p.cents),
    })),
    funnel: funnel(counts),
    monthlyRequests: monthlySeries(
      months,
      monthly.map((m) => ({ month: m.month, value: m.requests })),
    ),
    monthlyVolume: monthlySeries(
      months,
      monthly.map((m) => ({ month: m.month, value: m.paid_cents })),
    ),
  };
}
