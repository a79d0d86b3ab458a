import { sql } from "kysely";
import {
  conversionRate,
  funnel,
  histogram,
  lastMonths,
  median,
  monthlySeries,
  PROMISE_HOURS,
  shareWithin,
  statusCounts,
  totalOf,
} from "~/domain/analytics";
import type { DB } from "~/services/db.server";

/** The queries behind /admin/analytics; the arithmetic is in ~/domain/analytics. */

export async function getAnalytics(database: DB, current = new Date()) {
  const months = lastMonths(current, 12);
  const since = `${months[0]}-01T00:00:00.000Z`;

  const [
    byStatus,
    volume,
    commissions,
    firstQuotes,
    pendingValidations,
    topPartners,
    monthlyRequests,
    monthlyVolume,
  ] = await Promise.all([
    database
      .selectFrom("quote_requests")
      .select(["status", (eb) => eb.fn.countAll<number>().as("count")])
      .groupBy("status")
      .execute(),
    database
      .selectFrom("payments")
      .select([
        sql<number>`coalesce(sum(amount_cents), 0)`.as("cents"),
        (eb) => eb.fn.countAll<number>().as("count"),
      ])
      .where("status", "=", "confirmed")
      .executeTakeFirstOrThrow(),
    // One commission row is written with each confirmed payment.
    database
      .selectFrom("buyer_commissions")
      .select(sql<number>`coalesce(sum(commission_amount_cents), 0)`.as("cents"))
      .executeTakeFirstOrThrow(),
    // Hours from each request to its first partner quote, computed by SQLite (one number a row).
    database
      .selectFrom(
        database
          .selectFrom("partner_quotes")
          .select(["quote_request_id", sql<string>`min(created_at)`.as("quoted_at")])
          .groupBy("quote_request_id")
          .as("f"),
      )
      .innerJoin("quote_requests as qr", "qr.id", "f.quote_request_id")
      .select(sql<number>`(unixepoch(f.quoted_at) - unixepoch(qr.created_at)) / 3600.0`.as("hours"))
      .execute(),
    // A proof was sent and nobody has confirmed or rejected it yet.
    database
      .selectFrom("payments")
      .select([
        (eb) => eb.fn.countAll<number>().as("count"),
        sql<number>`coalesce(sum(amount_cents), 0)`.as("cents"),
      ])
      .where("status", "=", "pending")
      .where("submitted_at", "is not", null)
      .executeTakeFirstOrThrow(),
    database
      .selectFrom("partner_quotes as pq")
      .innerJoin("users as u", "u.id", "pq.partner_id")
      .select([
        "u.id",
        sql<string>`coalesce(nullif(trim(u.company_name), ''), u.first_name || ' ' || u.last_name)`.as(
          "name",
        ),
        (eb) => eb.fn.countAll<number>().as("won"),
        sql<number>`sum(pq.quoted_amount_cents)`.as("cents"),
      ])
      .where("pq.is_selected", "=", 1)
      .groupBy("u.id")
      .orderBy("won", "desc")
      .orderBy("cents", "desc")
      .orderBy("u.id")
      .limit(5)
      .execute(),
    database
      .selectFrom("quote_requests")
      .select([
        sql<string>`substr(created_at, 1, 7)`.as("month"),
        (eb) => eb.fn.countAll<number>().as("value"),
      ])
      .where("created_at", ">=", since)
      .groupBy("month")
      .execute(),
    database
      .selectFrom("payments")
      .select([
        sql<string>`substr(confirmed_at, 1, 7)`.as("month"),
        sql<number>`sum(amount_cents)`.as("value"),
      ])
      .where("status", "=", "confirmed")
      .where("confirmed_at", ">=", since)
      .groupBy("month")
      .execute(),
  ]);

  const counts = statusCounts(byStatus);
  const turnaround = firstQuotes.map((r) => Number(r.hours));
  return {
    counts,
    total: totalOf(counts),
    conversion: conversionRate(counts),
    paidVolumeCents: Number(volume.cents),
    confirmedPayments: Number(volume.count),
    commissionsCents: Number(commissions.cents),
    turnaround: {
      measured: turnaround.length,
      medianHours: median(turnaround),
      within24: shareWithin(turnaround, 24),
      within48: shareWithin(turnaround, PROMISE_HOURS),
      histogram: histogram(turnaround),
    },
    pendingValidations: {
      count: Number(pendingValidations.count),
      cents: Number(pendingValidations.cents),
    },
    topPartners: topPartners.map((p) => ({
      id: p.id,
      name: p.name,
      won: Number(p.won),
      cents: Number(p.cents),
    })),
    funnel: funnel(counts),
    monthlyRequests: monthlySeries(months, monthlyRequests),
    monthlyVolume: monthlySeries(months, monthlyVolume),
  };
}
