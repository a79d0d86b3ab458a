import { sql } from "kysely";
import { isExpired, utcDay } from "~/domain/offer";
import { expiredMessage } from "./official-quote.server";
import type { PaymentMethod, PaymentStatus } from "../../db/schema";
import { formatMoney } from "~/domain/money";
import { PAYMENTS_PAGE_SIZE } from "~/domain/pagination";
import { canPay, nextStatus, STATUS_LABELS } from "~/domain/quote-status";
import { now, type DB } from "~/services/db.server";
import { notify } from "~/services/notify.server";
import { getSettings } from "~/services/settings.server";
import { fail, ok, type Result } from "~/domain/result";
import { paths } from "~/utils/paths";
import { matchExpression, needsLiteralMatch } from "~/utils/search";
import { finishPage, pageWindow, type PageRequest } from "~/utils/keyset";
import { lifecycleStep, recordStatus } from "./request-step.server";
import { likePattern, matchingRequestIds } from "./quote-request.server";
import { inBatches, keysetDirection, readKeysetPage } from "./keyset.server";
import { countOf } from "~/utils/format";
import { PAYMENT_STATUS_LABELS } from "~/domain/payments";

/**
 * Payments (DECISIONS §3): one pending payment per approved official quote; the buyer's proof
 * attaches to it; an admin confirms (request → paid, points and commission written in the same
 * transaction) or rejects (request stays approved; a new proof opens a new pending payment).
 */

export { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/payments";

/** Loyalty points for a confirmed payment: whole currency units × the points-per-unit setting. */
function pointsForPayment(amountCents: number, pointsPerUnit: number): number {
  return Math.floor(Math.floor(amountCents / 100) * pointsPerUnit);
}

interface ProofInput {
  requestId: number;
  buyerId: number;
  amountCents: number;
  method: PaymentMethod;
  proof: { key: string; name: string; type: string };
}

const paymentNotFound = () => fail("not_found", "Pago no encontrado.");
const alreadyReviewed = () => fail("conflict", "Este pago ya fue revisado.");

/** The official quote a buyer may pay now (own request, status approved), or why not. */
export async function getPayableQuote(
  database: DB,
  { requestId, buyerId }: { requestId: number; buyerId: number },
) {
  return database
    .selectFrom("quote_requests as qr")
    .innerJoin("official_quotes as oq", (join) =>
      join.onRef("oq.quote_request_id", "=", "qr.id").on("oq.superseded_at", "is", null),
    )
    .select([
      "qr.id",
      "qr.title",
      "qr.status",
      "oq.id as official_quote_id",
      "oq.final_amount_cents",
      "oq.currency",
      "oq.valid_until",
    ])
    .where("qr.id", "=", requestId)
    .where("qr.buyer_id", "=", buyerId)
    .executeTakeFirst();
}

export async function submitPaymentProof(
  database: DB,
  input: ProofInput,
): Promise<Result<{ paymentId: number; replacedProofKey: string | null }>> {
  return lifecycleStep(database, async (tx) => {
    const quote = await getPayableQuote(tx, input);
    if (!quote) return fail("not_found", "Cotización no encontrada");
    if (!canPay(quote.status)) {
      return fail(
        "conflict",
        `Solo puedes pagar una cotización aprobada (estado actual: «${STATUS_LABELS[quote.status]}»).`,
      );
    }
    if (isExpired(quote.valid_until, utcDay()))
      return fail("locked", expiredMessage(quote.valid_until));
    if (input.amountCents !== quote.final_amount_cents) {
      return fail(
        "invalid",
        `El monto debe ser igual al total de la cotización oficial: ${formatMoney(quote.final_amount_cents, quote.currency)}.`,
        "amount",
      );
    }
    const confirmed = await tx
      .selectFrom("payments")
      .select("id")
      .where("official_quote_id", "=", quote.official_quote_id)
      .where("status", "=", "confirmed")
      .executeTakeFirst();
    if (confirmed) return fail("conflict", "Esta cotización ya fue pagada.");
    const timestamp = now();
    const proofColumns = {
      amount_cents: input.amountCents,
      method: input.method,
      proof_key: input.proof.key,
      proof_name: input.proof.name,
      proof_type: input.proof.type,
      submitted_at: timestamp,
      updated_at: timestamp,
    };
    const pending = await tx
      .selectFrom("payments")
      .select(["id", "proof_key"])
      .where("official_quote_id", "=", quote.official_quote_id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    let paymentId: number;
    if (pending) {
      await tx.updateTable("payments").set(proofColumns).where("id", "=", pending.id).execute();
      paymentId = pending.id;
    } else {
      const row = await tx
        .insertInto("payments")
        .values({
          quote_request_id: quote.id,
          official_quote_id: quote.official_quote_id,
          buyer_id: input.buyerId,
          status: "pending",
          created_at: timestamp,
          ...proofColumns,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      paymentId = row.id;
    }
    await notify(tx, {
      to: { role: "admin" },
      type: "info",
      title: "Comprobante de pago recibido",
      message: `El comprador envió un comprobante de ${formatMoney(input.amountCents, quote.currency)} para «${quote.title}». Valídalo en el panel de pagos.`,
      link: paths.admin.payments(),
      relatedType: "payment",
      relatedId: paymentId,
    });
    return ok({ paymentId, replacedProofKey: pending?.proof_key ?? null });
  });
}

export async function confirmPayment(
  database: DB,
  { paymentId, adminId }: { paymentId: number; adminId: number },
): Promise<Result<{ points: number }>> {
  const settings = await getSettings(database);
  return lifecycleStep(database, async (tx) => {
    const payment = await tx
      .selectFrom("payments as p")
      .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
      .innerJoin("official_quotes as oq", "oq.id", "p.official_quote_id")
      .select([
        "p.id",
        "p.status",
        "p.amount_cents",
        "p.buyer_id",
        "p.proof_key",
        "qr.id as request_id",
        "qr.title",
        "qr.status as request_status",
        "oq.commission_amount_cents",
        "oq.currency",
      ])
      .where("p.id", "=", paymentId)
      .executeTakeFirst();
    if (!payment) return paymentNotFound();
    if (payment.status !== "pending") return alreadyReviewed();
    if (!payment.proof_key) {
      return fail("conflict", "El comprador aún no envió el comprobante de este pago.");
    }
    const next = nextStatus(payment.request_status, "confirm_payment");
    if (next === null) {
      return fail(
        "conflict",
        `La solicitud está en estado «${STATUS_LABELS[payment.request_status]}»; no se puede confirmar el pago.`,
      );
    }
    const timestamp = now();
    await tx
      .updateTable("payments")
      .set({
        status: "confirmed",
        confirmed_at: timestamp,
        reviewed_by: adminId,
        rejection_reason: null,
        updated_at: timestamp,
      })
      .where("id", "=", paymentId)
      .execute();
    if (next !== payment.request_status) {
      await recordStatus(
        tx,
        payment.request_id,
        payment.request_status,
        next,
        adminId,
        "Pago confirmado",
      );
    }
    const points = pointsForPayment(payment.amount_cents, settings.loyaltyPointsPerUnit);
    await tx
      .insertInto("buyer_commissions")
      .values({
        buyer_id: payment.buyer_id,
        payment_id: paymentId,
        commission_amount_cents: payment.commission_amount_cents,
        loyalty_points: points,
      })
      .execute();
    if (points > 0) {
      await tx
        .insertInto("loyalty_ledger")
        .values({
          buyer_id: payment.buyer_id,
          points,
          reason: "payment",
          payment_id: paymentId,
          description: `Pago confirmado: ${payment.title}`,
        })
        .execute();
    }
    await notify(tx, {
      to: { userIds: [payment.buyer_id] },
      type: "success",
      title: "Pago confirmado",
      message: `Confirmamos tu pago de ${formatMoney(payment.amount_cents, payment.currency)} para «${payment.title}». Ganaste ${countOf(points, "punto", "puntos")} de lealtad. Puedes descargar tu recibo de pago desde Pagos.`,
      link: paths.buyer.payments(),
      relatedType: "payment",
      relatedId: paymentId,
    });
    return ok({ points });
  });
}

export async function rejectPayment(
  database: DB,
  { paymentId, adminId, reason }: { paymentId: number; adminId: number; reason: string },
): Promise<Result> {
  return lifecycleStep(database, async (tx) => {
    const payment = await tx
      .selectFrom("payments as p")
      .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
      .select(["p.id", "p.status", "p.buyer_id", "qr.id as request_id", "qr.title"])
      .where("p.id", "=", paymentId)
      .executeTakeFirst();
    if (!payment) return paymentNotFound();
    if (payment.status !== "pending") return alreadyReviewed();
    await tx
      .updateTable("payments")
      .set({
        status: "rejected",
        rejection_reason: reason,
        reviewed_by: adminId,
        updated_at: now(),
      })
      .where("id", "=", paymentId)
      .execute();
    await notify(tx, {
      to: { userIds: [payment.buyer_id] },
      type: "error",
      title: "Pago rechazado",
      message: `Rechazamos el comprobante de pago de «${payment.title}». Motivo: ${reason}. Envía un nuevo comprobante o contacta al administrador.`,
      link: paths.buyer.payments(),
      relatedType: "payment",
      relatedId: paymentId,
    });
    return ok();
  });
}

// ---- Lists

const listColumns = [
  "p.id",
  "p.quote_request_id",
  "p.amount_cents",
  "p.method",
  "p.status",
  "p.proof_key",
  "p.proof_name",
  "p.rejection_reason",
  "p.submitted_at",
  "p.confirmed_at",
  "p.created_at",
  "qr.title",
  "qr.status as request_status",
] as const;

export async function buyerPaymentCounts(database: DB, buyerId: number) {
  const rows = await database
    .selectFrom("buyer_payment_totals")
    .select(["status", "payments", "cents"])
    .where("buyer_id", "=", buyerId)
    .execute();
  const counts = { total: 0, pending: 0, confirmed: 0, rejected: 0, paidCents: 0 };
  for (const row of rows) {
    counts[row.status] = Number(row.payments);
    counts.total += Number(row.payments);
    if (row.status === "confirmed") counts.paidCents = Number(row.cents);
  }
  return counts;
}

/** A buyer's payments, newest first, searched by the request title. */
export async function listBuyerPayments(
  database: DB,
  { buyerId, q, page }: { buyerId: number; q: string; page: PageRequest },
) {
  let base = database
    .selectFrom("payments as p")
    .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
    .where("p.buyer_id", "=", buyerId);
  if (q) base = base.where(sql<boolean>`qr.title LIKE ${likePattern(q)} ESCAPE '\\'`);
  const columns = { key: "p.created_at", id: "p.id" };
  const [read, total] = await Promise.all([
    readKeysetPage(base.select(listColumns), page, columns, PAYMENTS_PAGE_SIZE),
    q
      ? base
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.count))
      : buyerPaymentCounts(database, buyerId).then((c) => c.total),
  ]);
  const { rows, pageInfo } = finishPage(read, page, PAYMENTS_PAGE_SIZE, (p) => ({
    key: p.created_at,
    id: p.id,
  }));
  return { rows, pageInfo, total };
}

export async function adminPaymentCounts(database: DB) {
  const rows = await database
    .selectFrom("payment_status_totals")
    .select(["status", "payments", "with_proof"])
    .execute();
  const counts = { pending: 0, awaitingReview: 0, confirmed: 0, rejected: 0 };
  for (const row of rows) {
    counts[row.status] = Number(row.payments);
    if (row.status === "pending") counts.awaitingReview = Number(row.with_proof);
  }
  return counts;
}

/**
 * Where a payment sits in the admin Pagos list: pending ones first (a proof sent before those
 * still waiting for one, oldest first so nobody waits longest; index payments_review_queue), then
 * the reviewed ones, newest first. The cursor key names the part: "p|<no proof>|<time>" or
 * "r|<created_at>".
 */
function paymentListKey(p: {
  id: number;
  status: PaymentStatus;
  proof_key: string | null;
  submitted_at: string | null;
  created_at: string;
}) {
  return {
    key:
      p.status === "pending"
        ? `p|${p.proof_key === null ? 1 : 0}|${p.submitted_at ?? p.created_at}`
        : `r|${p.created_at}`,
    id: p.id,
  };
}

const PAYMENT_STATUSES = Object.keys(PAYMENT_STATUS_LABELS) as PaymentStatus[];

/** The Pagos list's status filter from ?status= (anything else means every status). */
export function paymentStatusFromUrl(url: URL): PaymentStatus | null {
  const status = url.searchParams.get("status");
  return PAYMENT_STATUSES.find((s) => s === status) ?? null;
}

/** The Pagos list's search: the request's title and the buyer's name, company or e-mail. */
function searchedAdminPayments(database: DB, q: string) {
  let base = database
    .selectFrom("payments as p")
    .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
    .innerJoin("users as b", "b.id", "p.buyer_id");
  if (!q) return base;
  const expression = matchExpression(q, ["title", "buyer"]);
  if (expression)
    base = base.where("p.quote_request_id", "in", matchingRequestIds(database, expression));
  if (!expression || needsLiteralMatch(q)) {
    const pattern = likePattern(q);
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`qr.title LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`coalesce(b.company_name, '') LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`b.email LIKE ${pattern} ESCAPE '\\'`,
      ]),
    );
  }
  return base;
}

const adminListColumns = [
  ...listColumns,
  "b.first_name as buyer_first_name",
  "b.last_name as buyer_last_name",
  "b.company_name as buyer_company",
] as const;

const QUEUE_KEY = sql`(p.proof_key IS NULL), coalesce(p.submitted_at, p.created_at), p.id`;

/**
 * Payments for the admin Pagos tab, keyset-paginated across its two parts (pending, then
 * reviewed): a page that crosses the boundary reads the end of one part and the start of the next.
 */
export async function listPaymentsForAdmin(
  database: DB,
  { q, status, page }: { q: string; status: PaymentStatus | null; page: PageRequest },
) {
  const base = searchedAdminPayments(database, q);
  const reviewedStatuses: PaymentStatus[] =
    status && status !== "pending" ? [status] : ["confirmed", "rejected"];
  const showPending = status === null || status === "pending";
  const showReviewed = status !== "pending";
  const window = pageWindow(page, PAYMENTS_PAGE_SIZE);
  const backwards = keysetDirection(page) === "asc";

  /** Pending payments in queue order (or reversed), from just past `from` when given. */
  const pendingPart = (from: { flag: number; at: string; id: number } | null, limit: number) =>
    base
      .select(adminListColumns)
      .where("p.status", "=", "pending")
      .$if(from !== null, (qb) =>
        qb.where(
          sql<boolean>`(${QUEUE_KEY}) ${sql.raw(backwards ? "<" : ">")} (${from!.flag}, ${from!.at}, ${from!.id})`,
        ),
      )
      .orderBy(sql`p.proof_key IS NULL`, backwards ? "desc" : "asc")
      .orderBy(sql`coalesce(p.submitted_at, p.created_at)`, backwards ? "desc" : "asc")
      .orderBy("p.id", backwards ? "desc" : "asc")
      .limit(limit);
  /** Reviewed payments newest first (or reversed), from just past `from` when given. */
  const reviewedPart = (from: { at: string; id: number } | null, limit: number) =>
    base
      .select(adminListColumns)
      .where("p.status", "in", reviewedStatuses)
      .$if(from !== null, (qb) =>
        qb.where(
          sql<boolean>`(p.created_at, p.id) ${sql.raw(backwards ? ">" : "<")} (${from!.at}, ${from!.id})`,
        ),
      )
      .orderBy("p.created_at", backwards ? "asc" : "desc")
      .orderBy("p.id", backwards ? "asc" : "desc")
      .limit(limit);

  const countOf = async (statuses: PaymentStatus[]) => {
    if (!q) {
      const counts = await adminPaymentCounts(database);
      return statuses.reduce((sum, s) => sum + counts[s], 0);
    }
    const row = await base
      .where("p.status", "in", statuses)
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };
  const total = await countOf([
    ...(showPending ? ["pending" as const] : []),
    ...(showReviewed ? reviewedStatuses : []),
  ]);

  let read: Awaited<ReturnType<ReturnType<typeof pendingPart>["execute"]>> = [];
  if (page.kind === "numbered") {
    const pendingTotal = showPending ? await countOf(["pending"]) : 0;
    if (showPending && window.offset < pendingTotal)
      read = await pendingPart(null, window.limit).offset(window.offset).execute();
    if (showReviewed && read.length < window.limit)
      read = [
        ...read,
        ...(await reviewedPart(null, window.limit - read.length)
          .offset(Math.max(0, window.offset - pendingTotal))
          .execute()),
      ];
  } else {
    const [part, ...rest] = page.cursor.key.split("|");
    const id = page.cursor.id;
    if (part === "p") {
      const from = { flag: Number(rest[0]), at: rest[1] ?? "", id };
      read = showPending ? await pendingPart(from, window.limit).execute() : [];
      if (!backwards && showReviewed && read.length < window.limit)
        read = [...read, ...(await reviewedPart(null, window.limit - read.length).execute())];
    } else {
      const from = { at: rest[0] ?? "", id };
      read = showReviewed ? await reviewedPart(from, window.limit).execute() : [];
      if (backwards && showPending && read.length < window.limit)
        read = [...read, ...(await pendingPart(null, window.limit - read.length).execute())];
    }
  }
  const { rows, pageInfo } = finishPage(read, page, PAYMENTS_PAGE_SIZE, paymentListKey);
  return { rows, pageInfo, total };
}

/**
 * Every payment the Pagos list shows with these filters, for the CSV export: newest first (not the
 * list's review-queue order, which has no single key to read batches by), in batches.
 */
export async function* exportAdminPayments(
  database: DB,
  { q, status }: { q: string; status: PaymentStatus | null },
) {
  // `+p.status` keeps SQLite reading the batches down the primary key (one pass over the table in
  // all): through a status index, on a database without statistics, it sorted the status's whole
  // set again for every batch (100,000 rejected payments: 16 s instead of under 2 s).
  const query = searchedAdminPayments(database, q)
    .$if(status !== null, (qb) => qb.where(sql<boolean>`+p.status = ${status}`))
    .select([...adminListColumns, "b.email as buyer_email"]);
  yield* inBatches(query, "p.id");
}
