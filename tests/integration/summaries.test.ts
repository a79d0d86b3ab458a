import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations/index";
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
import { getAnalytics } from "~/models/analytics.server";
import { listPartnersForAdmin } from "~/models/partner-admin.server";
import { getPartnerCounters } from "~/models/partner-assignment.server";
import { confirmPayment, rejectPayment, submitPaymentProof } from "~/models/payment.server";
import {
  approvePartnerQuote,
  assignPartner,
  buyerRejectQuote,
  recordBuyerApproval,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import { adminStatusCounts, buyerStatusCounts } from "~/models/quote-request.server";
import { db, openDatabase } from "~/services/db.server";
import { makeRequest, makeUser, approveAsBuyer } from "./factories";

/**
 * The summary tables are kept by triggers in the writing transactions. These tests drive the real
 * model functions and compare every figure with what a full recount of the base tables gives
 * (the queries analytics ran before the summaries existed).
 */

async function recountAnalytics(current: Date) {
  const months = lastMonths(current, 12);
  const since = `${months[0]}-01T00:00:00.000Z`;
  const byStatus = await db
    .selectFrom("quote_requests")
    .select(["status", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy("status")
    .execute();
  const volume = await db
    .selectFrom("payments")
    .select([
      sql<number>`coalesce(sum(amount_cents), 0)`.as("cents"),
      (eb) => eb.fn.countAll<number>().as("count"),
    ])
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  const commissions = await db
    .selectFrom("buyer_commissions")
    .select(sql<number>`coalesce(sum(commission_amount_cents), 0)`.as("cents"))
    .executeTakeFirstOrThrow();
  const firstQuotes = await sql<{ hours: number }>`
    SELECT (unixepoch(f.quoted_at) - unixepoch(qr.created_at)) / 3600.0 AS hours
    FROM (SELECT quote_request_id, min(created_at) AS quoted_at FROM partner_quotes GROUP BY quote_request_id) f
    JOIN quote_requests qr ON qr.id = f.quote_request_id`.execute(db);
  const pending = await db
    .selectFrom("payments")
    .select([
      (eb) => eb.fn.countAll<number>().as("count"),
      sql<number>`coalesce(sum(amount_cents), 0)`.as("cents"),
    ])
    .where("status", "=", "pending")
    .where("submitted_at", "is not", null)
    .executeTakeFirstOrThrow();
  const top = await sql<{ id: number; name: string; won: number; cents: number }>`
    SELECT u.id, coalesce(nullif(trim(u.company_name), ''), u.first_name || ' ' || u.last_name) AS name,
      count(*) AS won, sum(pq.quoted_amount_cents) AS cents
    FROM partner_quotes pq JOIN users u ON u.id = pq.partner_id WHERE pq.is_selected = 1
    GROUP BY u.id ORDER BY won DESC, cents DESC, u.id LIMIT 5`.execute(db);
  const monthlyRequests = await sql<{ month: string; value: number }>`
    SELECT substr(created_at, 1, 7) AS month, count(*) AS value FROM quote_requests
    WHERE created_at >= ${since} GROUP BY month`.execute(db);
  const monthlyVolume = await sql<{ month: string; value: number }>`
    SELECT substr(confirmed_at, 1, 7) AS month, sum(amount_cents) AS value FROM payments
    WHERE status = 'confirmed' AND confirmed_at >= ${since} GROUP BY month`.execute(db);
  const counts = statusCounts(byStatus);
  const turnaround = firstQuotes.rows.map((r) => Number(r.hours));
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
    pendingValidations: { count: Number(pending.count), cents: Number(pending.cents) },
    topPartners: top.rows.map((p) => ({ ...p, won: Number(p.won), cents: Number(p.cents) })),
    funnel: funnel(counts),
    monthlyRequests: monthlySeries(months, monthlyRequests.rows),
    monthlyVolume: monthlySeries(months, monthlyVolume.rows),
  };
}

/**
 * A partner's figures recounted from the base tables: "pending" is still invited, without an own
 * quote, on a request still assigned; a selected offer is in play unless the request was rejected
 * or cancelled.
 */
const PARTNER_RECOUNT = `SELECT pa.partner_id, count(*) AS assigned,
      sum(pa.state = 'invited' AND pq.id IS NULL AND qr.status = 'assigned') AS pending,
      count(pq.id) AS submitted,
      sum(coalesce(pq.is_selected = 1, 0)) AS selected,
      sum(CASE WHEN pq.is_selected = 1 AND qr.status NOT IN ('rejected', 'cancelled') THEN pq.quoted_amount_cents
        WHEN pq.is_selected = 0 AND qr.status = 'assigned' THEN pq.quoted_amount_cents ELSE 0 END) AS potential_cents,
      sum(CASE WHEN pq.is_selected = 1 THEN pq.quoted_amount_cents ELSE 0 END) AS selected_cents
      FROM partner_assignments pa JOIN quote_requests qr ON qr.id = pa.quote_request_id
      LEFT JOIN partner_quotes pq ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
      GROUP BY pa.partner_id ORDER BY pa.partner_id`;
const PARTNER_COUNTERS = `SELECT partner_id, assigned, pending, submitted, selected, potential_cents, selected_cents
      FROM partner_counters WHERE assigned <> 0 ORDER BY partner_id`;

/** Every counter table against a fresh COUNT(*) / SUM over the base tables. */
async function expectCountersMatchRecount() {
  const table = async (query: string) => (await sql.raw(query).execute(db)).rows;
  expect(
    await table(
      `SELECT status, requests, with_quotes FROM request_status_counts WHERE requests <> 0 ORDER BY status`,
    ),
  ).toEqual(
    await table(`SELECT qr.status, count(*) AS requests,
      count(*) FILTER (WHERE EXISTS (SELECT 1 FROM partner_quotes pq WHERE pq.quote_request_id = qr.id)) AS with_quotes
      FROM quote_requests qr GROUP BY qr.status ORDER BY qr.status`),
  );
  expect(
    await table(
      `SELECT buyer_id, status, requests FROM buyer_request_counts WHERE requests <> 0 ORDER BY buyer_id, status`,
    ),
  ).toEqual(
    await table(`SELECT buyer_id, status, count(*) AS requests FROM quote_requests
      GROUP BY buyer_id, status ORDER BY buyer_id, status`),
  );
  expect(
    await table(`SELECT status, payments, cents, with_proof, submitted, submitted_cents
      FROM payment_status_totals WHERE payments <> 0 ORDER BY status`),
  ).toEqual(
    await table(`SELECT status, count(*) AS payments, sum(amount_cents) AS cents,
      count(proof_key) AS with_proof, count(submitted_at) AS submitted,
      coalesce(sum(amount_cents) FILTER (WHERE submitted_at IS NOT NULL), 0) AS submitted_cents
      FROM payments GROUP BY status ORDER BY status`),
  );
  expect(
    await table(`SELECT buyer_id, status, payments, cents FROM buyer_payment_totals
      WHERE payments <> 0 ORDER BY buyer_id, status`),
  ).toEqual(
    await table(`SELECT buyer_id, status, count(*) AS payments, sum(amount_cents) AS cents
      FROM payments GROUP BY buyer_id, status ORDER BY buyer_id, status`),
  );
  expect(await table(`SELECT value FROM summary_totals WHERE name = 'commission_cents'`)).toEqual(
    await table(`SELECT coalesce(sum(commission_amount_cents), 0) AS value FROM buyer_commissions`),
  );
  expect(
    await table(`SELECT role, users FROM user_role_counts WHERE users <> 0 ORDER BY role`),
  ).toEqual(await table(`SELECT role, count(*) AS users FROM users GROUP BY role ORDER BY role`));
  expect(
    await table(
      `SELECT partner_id, won, cents FROM partner_wins WHERE won <> 0 ORDER BY partner_id`,
    ),
  ).toEqual(
    await table(`SELECT partner_id, count(*) AS won, sum(quoted_amount_cents) AS cents
      FROM partner_quotes WHERE is_selected = 1 GROUP BY partner_id ORDER BY partner_id`),
  );
  expect(await table(PARTNER_COUNTERS)).toEqual(await table(PARTNER_RECOUNT));
}

async function quoted(admin: number, buyer: number, partners: number[], cents: number[]) {
  const requestId = await makeRequest(buyer, "pending", "Válvulas de compuerta");
  for (const partnerId of partners) {
    expect((await assignPartner(db, { requestId, partnerId, adminId: admin })).ok).toBe(true);
  }
  for (const [i, partnerId] of partners.entries()) {
    const amountCents = cents[i];
    if (amountCents === undefined) continue;
    const result = await submitPartnerQuote(db, {
      requestId,
      partnerId,
      amountCents,
      notes: null,
      file: null,
    });
    expect(result.ok).toBe(true);
  }
  return requestId;
}

async function pendingPaymentOf(requestId: number) {
  return db
    .selectFrom("payments")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
}

describe("resúmenes mantenidos en las transacciones de escritura", () => {
  it("aprobar, pagar y rechazar cambian las analíticas exactamente como un recuento completo", async () => {
    const current = new Date();
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const alfa = await makeUser("partner", { companyName: "Alfa Industrial" });
    const beta = await makeUser("partner", { companyName: "Beta Servicios" });

    // An older request (created 30 h ago) so the turnaround has more than one value.
    const old = await makeRequest(buyer, "pending", "Uniformes de planta");
    await sql`UPDATE quote_requests SET created_at = ${new Date(Date.now() - 30 * 3600_000).toISOString()}
      WHERE id = ${old}`.execute(db);
    await assignPartner(db, { requestId: old, partnerId: beta, adminId: admin });

    const before = await getAnalytics(db, current);
    expect(before).toEqual(await recountAnalytics(current));
    await expectCountersMatchRecount();

    // A: two offers, Alfa's approved, sent to the buyer, proof sent, payment confirmed → paid.
    const a = await quoted(admin, buyer, [alfa, beta], [120_000, 150_000]);
    const alfaQuote = await db
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", a)
      .where("partner_id", "=", alfa)
      .executeTakeFirstOrThrow();
    expect(
      (
        await approvePartnerQuote(db, {
          requestId: a,
          partnerQuoteId: alfaQuote.id,
          adminId: admin,
        })
      ).ok,
    ).toBe(true);
    expect((await getPartnerCounters(db, beta)).pending).toBe(1); // the old request only
    expect(
      (await recordBuyerApproval(db, { requestId: a, adminId: admin, note: "Por teléfono" })).ok,
    ).toBe(true);
    const proof = {
      key: "pruebas/comprobante.pdf",
      name: "comprobante.pdf",
      type: "application/pdf",
    };
    expect(
      (
        await submitPaymentProof(db, {
          requestId: a,
          buyerId: buyer,
          amountCents: 120_000,
          method: "transfer",
          proof,
        })
      ).ok,
    ).toBe(true);
    const middle = await getAnalytics(db, current);
    expect(middle.pendingValidations).toEqual({
      count: before.pendingValidations.count + 1,
      cents: before.pendingValidations.cents + 120_000,
    });
    const paymentA = await pendingPaymentOf(a);
    expect((await confirmPayment(db, { paymentId: paymentA.id, adminId: admin })).ok).toBe(true);

    // B: Beta's offer approved by the buyer, proof rejected, then the buyer rejects the quote.
    const b = await quoted(admin, buyer, [beta], [80_000]);
    const betaQuote = await db
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", b)
      .executeTakeFirstOrThrow();
    expect(
      (
        await approvePartnerQuote(db, {
          requestId: b,
          partnerQuoteId: betaQuote.id,
          adminId: admin,
        })
      ).ok,
    ).toBe(true);
    expect((await approveAsBuyer(b, buyer)).ok).toBe(true);
    await submitPaymentProof(db, {
      requestId: b,
      buyerId: buyer,
      amountCents: 80_000,
      method: "cash",
      proof,
    });
    const paymentB = await pendingPaymentOf(b);
    expect(
      (await rejectPayment(db, { paymentId: paymentB.id, adminId: admin, reason: "Ilegible" })).ok,
    ).toBe(true);
    expect(
      (await buyerRejectQuote(db, { requestId: b, buyerId: buyer, reason: "Precio alto" })).ok,
    ).toBe(true);

    const after = await getAnalytics(db, current);
    expect(after).toEqual(await recountAnalytics(current));
    await expectCountersMatchRecount();

    const month = lastMonths(current, 1)[0]!;
    const inMonth = (series: { month: string; value: number }[]) =>
      series.find((m) => m.month === month)!.value;
    expect(after.total).toBe(before.total + 2);
    expect(after.counts.paid).toBe(before.counts.paid + 1);
    expect(after.counts.rejected).toBe(before.counts.rejected + 1);
    expect(after.counts.assigned).toBe(before.counts.assigned);
    expect(after.paidVolumeCents).toBe(before.paidVolumeCents + 120_000);
    expect(after.confirmedPayments).toBe(before.confirmedPayments + 1);
    expect(after.commissionsCents).toBe(before.commissionsCents + 6_000); // 5 % of 1,200.00
    expect(after.pendingValidations).toEqual(before.pendingValidations);
    expect(after.turnaround.measured).toBe(before.turnaround.measured + 2);
    expect(inMonth(after.monthlyRequests)).toBe(inMonth(before.monthlyRequests) + 2);
    expect(inMonth(after.monthlyVolume)).toBe(inMonth(before.monthlyVolume) + 120_000);
    expect(after.topPartners.map(({ name, won, cents }) => ({ name, won, cents }))).toEqual([
      { name: "Alfa Industrial", won: 1, cents: 120_000 },
      { name: "Beta Servicios", won: 1, cents: 80_000 },
    ]);
    expect(await getPartnerCounters(db, beta)).toEqual({
      total: 3,
      pending: 1,
      submitted: 2,
      selected: 1,
      // Beta's offer on A lost (A is paid), and the selected one on B was rejected.
      potentialRevenueCents: 0,
      selectedRevenueCents: 80_000,
    });
    // The partners list reads the same counters: each as a full recount would give.
    const { partners } = await listPartnersForAdmin(db, { q: "beta servicios", page: 1 });
    const recount = (table: string, extra = "") =>
      sql<{
        n: number;
      }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE partner_id = ${beta} ${sql.raw(extra)}`
        .execute(db)
        .then((r) => r.rows[0]!.n);
    expect(
      partners.map(({ id, assigned, quoted, won }) => ({ id, assigned, quoted, won })),
    ).toEqual([
      {
        id: beta,
        assigned: await recount("partner_assignments"),
        quoted: await recount("partner_quotes"),
        won: await recount("partner_quotes", "AND is_selected = 1"),
      },
    ]);
  });

  it("la mediana y el histograma salen de los cubos por hora y por segundo", async () => {
    const current = new Date();
    const buyer = await makeUser("buyer");
    const partner = await makeUser("partner");
    // First quotes after 1 s, 12 h exactly, 12 h + 1 s, 47 h 59 min 59 s and 200 h.
    const offsets = [1, 12 * 3600, 12 * 3600 + 1, 48 * 3600 - 1, 200 * 3600];
    for (const seconds of offsets) {
      const id = await makeRequest(buyer, "assigned");
      const created = new Date(Date.parse("2026-06-01T00:00:00.000Z") + seconds * 7);
      await sql`UPDATE quote_requests SET created_at = ${created.toISOString()} WHERE id = ${id}`.execute(
        db,
      );
      await db
        .insertInto("partner_quotes")
        .values({
          quote_request_id: id,
          partner_id: partner,
          quoted_amount_cents: 10_000,
          created_at: new Date(created.getTime() + seconds * 1000).toISOString(),
          updated_at: created.toISOString(),
        })
        .execute();
    }
    const a = await getAnalytics(db, current);
    expect(a).toEqual(await recountAnalytics(current));
    await expectCountersMatchRecount();
  });
});

// ---- The sourcing round: assignment states and cancelled requests.

const setState = (requestId: number, partnerId: number, state: AssignmentState) =>
  sql`UPDATE partner_assignments SET state = ${state}, state_changed_at = ${new Date().toISOString()}
    WHERE quote_request_id = ${requestId} AND partner_id = ${partnerId}`.execute(db);
const setStatus = (requestId: number, status: RequestStatus) =>
  sql`UPDATE quote_requests SET status = ${status} WHERE id = ${requestId}`.execute(db);

describe("resúmenes de la ronda de cotización", () => {
  it("declinar, retirar, seleccionar y cancelar cambian los contadores como un recuento completo", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const [alfa, beta, gamma] = [
      await makeUser("partner"),
      await makeUser("partner"),
      await makeUser("partner"),
    ] as [number, number, number];
    const countsBefore = await adminStatusCounts(db);
    const buyerBefore = await buyerStatusCounts(db, buyer);

    const r1 = await quoted(admin, buyer, [alfa, beta, gamma], []);
    for (const partner of [alfa, beta, gamma])
      expect((await getPartnerCounters(db, partner)).pending).toBe(1);

    // Alfa declines and the operator withdraws Gamma: closed for them, no longer pending.
    await setState(r1, alfa, "declined");
    await setState(r1, gamma, "withdrawn");
    expect(await getPartnerCounters(db, alfa)).toMatchObject({ total: 1, pending: 0 });
    expect(await getPartnerCounters(db, gamma)).toMatchObject({ total: 1, pending: 0 });
    await expectCountersMatchRecount();

    // Beta offers (the offer step moves the assignment to `offered`).
    expect(
      (
        await submitPartnerQuote(db, {
          requestId: r1,
          partnerId: beta,
          amountCents: 90_000,
          notes: null,
          file: null,
        })
      ).ok,
    ).toBe(true);
    await setState(r1, beta, "offered");
    expect(await getPartnerCounters(db, beta)).toMatchObject({
      pending: 0,
      submitted: 1,
      potentialRevenueCents: 90_000,
    });

    // R2: Beta's offer becomes the official quote, then the buyer cancels before paying.
    const r2 = await quoted(admin, buyer, [beta, alfa], [70_000]);
    await setState(r2, beta, "offered");
    const betaQuote = await db
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", r2)
      .where("partner_id", "=", beta)
      .executeTakeFirstOrThrow();
    expect(
      (
        await approvePartnerQuote(db, {
          requestId: r2,
          partnerQuoteId: betaQuote.id,
          adminId: admin,
        })
      ).ok,
    ).toBe(true);
    await setState(r2, beta, "selected");
    expect((await getPartnerCounters(db, beta)).potentialRevenueCents).toBe(160_000);
    await expectCountersMatchRecount();
    await setStatus(r2, "cancelled");
    expect(await getPartnerCounters(db, beta)).toEqual({
      total: 2,
      pending: 0,
      submitted: 2,
      selected: 1,
      // R2 was cancelled: only the offer still under evaluation on R1 is in play.
      potentialRevenueCents: 90_000,
      selectedRevenueCents: 70_000,
    });
    await expectCountersMatchRecount();

    // R1 cancelled while partners were still invited or offering.
    await setStatus(r1, "cancelled");
    expect((await getPartnerCounters(db, beta)).potentialRevenueCents).toBe(0);
    // A request cancelled before any partner was assigned.
    const r3 = await makeRequest(buyer, "pending", "Cancelada sin socios");
    await setStatus(r3, "cancelled");
    await expectCountersMatchRecount();
    expect((await adminStatusCounts(db)).cancelled).toBe(countsBefore.cancelled + 3);
    expect(await buyerStatusCounts(db, buyer)).toMatchObject({
      cancelled: buyerBefore.cancelled + 3,
      total: buyerBefore.total + 3,
    });

    // Back from declined to invited (an operator's correction) counts again.
    await setState(r1, alfa, "invited");
    await setStatus(r1, "assigned");
    expect((await getPartnerCounters(db, alfa)).pending).toBe(1);
    await expectCountersMatchRecount();
  });

  it("cuenta un estado cuya fila de totales no existía, al crear y al cambiar de estado", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-status-row-"));
    const database = openDatabase(path.join(dir, "fresh.sqlite"));
    try {
      await migrateToLatest(database as never);
      await sql`DELETE FROM request_status_counts WHERE status = 'cancelled'`.execute(database);
      const buyer = await makeUser("buyer", {}, database);
      await makeRequest(buyer, "cancelled", "Creada cancelada", database);
      const cancelledLater = await makeRequest(buyer, "pending", "Cancelada después", database);
      await sql`UPDATE quote_requests SET status = 'cancelled' WHERE id = ${cancelledLater}`.execute(
        database,
      );
      expect(
        await database
          .selectFrom("request_status_counts")
          .select(["status", "requests"])
          .where("status", "in", ["pending", "cancelled"])
          .orderBy("status")
          .execute(),
      ).toEqual([
        { status: "cancelled", requests: 2 },
        { status: "pending", requests: 0 },
      ]);
    } finally {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("la migración recalcula contadores y ámbitos de búsqueda, y los devuelve al deshacerse", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-round-summaries-"));
    const database = openDatabase(path.join(dir, "before.sqlite"));
    const table = async (query: string) => (await sql.raw(query).execute(database)).rows;
    const scopeOf = async (id: number) =>
      (
        await sql<{
          scope: string;
        }>`SELECT scope FROM quote_request_search WHERE rowid = ${id}`.execute(database)
      ).rows[0]!.scope.split(" ");
    try {
      const migrator = new Migrator({
        db: database,
        provider: { getMigrations: async () => migrations },
      });
      const names = Object.keys(migrations);
      const previous = names[names.indexOf("2026-11-26T06-00_round_summaries") - 1]!;
      expect((await migrator.migrateTo(previous)).error).toBeUndefined();

      // Rows written under the earlier triggers: a declined and an invited partner on an assigned
      // request, and a selected offer on a request cancelled afterwards.
      const buyer = await makeUser("buyer", {}, database);
      const declined = await makeUser("partner", {}, database);
      const invited = await makeUser("partner", {}, database);
      const open = await makeRequest(buyer, "assigned", "Abierta", database);
      const cancelled = await makeRequest(buyer, "assigned", "Cancelada", database);
      for (const [requestId, partnerId, state] of [
        [open, declined, "declined"],
        [open, invited, "invited"],
        [cancelled, invited, "selected"],
      ] as const) {
        await database
          .insertInto("partner_assignments")
          .values({ quote_request_id: requestId, partner_id: partnerId, state })
          .execute();
      }
      await database
        .insertInto("partner_quotes")
        .values({
          quote_request_id: cancelled,
          partner_id: invited,
          quoted_amount_cents: 55_000,
          is_selected: 1,
          updated_at: new Date().toISOString(),
        })
        .execute();
      await sql`UPDATE quote_requests SET status = 'cancelled' WHERE id = ${cancelled}`.execute(
        database,
      );
      const earlier = await table(PARTNER_COUNTERS);
      expect(earlier).toEqual([
        // Earlier rules: the declined partner still "pending", the cancelled win still in play.
        expect.objectContaining({ partner_id: declined, pending: 1 }),
        expect.objectContaining({ partner_id: invited, pending: 1, potential_cents: 55_000 }),
      ]);
      expect(await scopeOf(open)).not.toContain(`c${declined}`);

      // Up to this migration only: later ones (user deactivation) cannot be undone.
      const self = "2026-11-26T06-00_round_summaries";
      expect((await migrator.migrateTo(self)).error).toBeUndefined();
      expect(await table(PARTNER_COUNTERS)).toEqual(await table(PARTNER_RECOUNT));
      expect(await table(PARTNER_COUNTERS)).toEqual([
        expect.objectContaining({ partner_id: declined, pending: 0 }),
        expect.objectContaining({ partner_id: invited, pending: 1, potential_cents: 0 }),
      ]);
      expect(await scopeOf(open)).toContain(`c${declined}`);
      expect(await scopeOf(open)).not.toContain(`c${invited}`);

      expect((await migrator.migrateTo(previous)).error).toBeUndefined();
      expect(await table(PARTNER_COUNTERS)).toEqual(earlier);
      expect(await scopeOf(open)).not.toContain(`c${declined}`);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await table(PARTNER_COUNTERS)).toEqual(await table(PARTNER_RECOUNT));
    } finally {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
