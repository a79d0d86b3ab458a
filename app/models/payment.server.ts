import { sql } from "kysely";
import { isExpired, utcDay } from "~/domain/offer";
import { expiredMessage } from "./official-quote.server";
import type { Database } from "../../db/schema";
import type { PaymentMethod, PaymentStatus } from "../../db/schema";
import { formatMoney } from "~/domain/money";
import { PAYMENTS_PAGE_SIZE } from "~/domain/pagination";
import { canPay, nextStatus, STATUS_LABELS } from "~/domain/quote-status";
import { buyerLabel } from "./user.server";
import { now, type DB } from "~/services/db.server";
import { notify } from "~/services/notify.server";
import { getSettings } from "~/services/settings.server";
import { fail, ok, type Result } from "~/domain/result";
import { paths } from "~/utils/paths";
import { matchExpression, needsLiteralMatch, requestReferenceIn } from "~/utils/search";
import { finishPage, pageWindow, type PageRequest } from "~/utils/keyset";
import { proofInReviewSince } from "./quote-request.server";
import { lifecycleStep, notifyAbout, recordEvent, recordStatus } from "./request-step.server";
import {
  cappedCount,
  likePattern,
  matchingRequestIds,
  RANGE_SORT_CAP,
  SEARCH_COUNT_CAP,
} from "./quote-request.server";
import {
  batchesFrom,
  EXPORT_BATCH_SIZE,
  inKeysetBatches,
  keysetDirection,
  readKeysetPage,
} from "./keyset.server";
import { hasRange, rangeInstants, type DayRange, type ListSort } from "~/domain/list-filters";
import { countOf, withoutFinalStop } from "~/utils/format";
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from "~/domain/payments";

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
      proofInReviewSince,
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
      .select(["id", "proof_key", "proof_name"])
      .where("official_quote_id", "=", quote.official_quote_id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    const replaced = pending?.proof_key ? pending : null;
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
    // A replaced proof is on the request's history (the file itself gives way to the new one).
    if (replaced)
      await recordEvent(
        tx,
        { id: quote.id, status: quote.status },
        input.buyerId,
        "proof_replaced",
        `«${replaced.proof_name ?? "comprobante"}» reemplazado por «${input.proof.name}»`,
      );
    const buyer = await buyerLabel(tx, input.buyerId);
    await notify(tx, {
      to: { role: "admin" },
      type: "info",
      title: replaced ? "Comprobante de pago reemplazado" : "Comprobante de pago recibido",
      message: `${buyer} ${replaced ? "reemplazó su comprobante por uno nuevo" : "envió un comprobante"} de ${formatMoney(input.amountCents, quote.currency)} para «${quote.title}». Valídalo en el panel de pagos.`,
      link: paths.admin.payments(),
      relatedType: "payment",
      relatedId: paymentId,
    });
    return ok({ paymentId, replacedProofKey: pending?.proof_key ?? null });
  });
}

export async function confirmPayment(
  database: DB,
  {
    paymentId,
    adminId,
    proofSeen,
    received,
  }: {
    paymentId: number;
    adminId: number;
    /**
     * The proof the operator's page showed (its key, or "" when it showed none; the forms always
     * send it): a proof the buyer sent or replaced since is refused, not confirmed unseen.
     * Without it, the current proof.
     */
    proofSeen?: string;
    /**
     * A payment received without a proof (cash at the office, a transfer whose proof came by
     * another way): how it was paid and the operator's note, kept on the request's history.
     */
    received?: { method: PaymentMethod; note: string };
  },
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
    if (proofSeen !== undefined && proofSeen !== (payment.proof_key ?? ""))
      return fail(
        "conflict",
        proofSeen === ""
          ? "El comprador envió su comprobante después de que abriste la página: revísalo antes de confirmar el pago."
          : "El comprador envió otro comprobante después de que abriste la página: revísalo antes de confirmar el pago.",
      );
    // Without a proof, only the operator's record of a payment received another way confirms it.
    const recorded = payment.proof_key ? null : received;
    if (!payment.proof_key && !recorded) {
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
        ...(recorded ? { method: recorded.method } : {}),
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
        recorded
          ? `Pago registrado sin comprobante (${PAYMENT_METHOD_LABELS[recorded.method]}): ${recorded.note}`
          : "Pago confirmado",
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
    // The partner whose offer the buyer paid for learns it is time to deliver.
    const winners = await tx
      .selectFrom("partner_assignments")
      .select("partner_id")
      .where("quote_request_id", "=", payment.request_id)
      .where("state", "=", "selected")
      .execute();
    for (const { partner_id } of winners) {
      await notifyAbout(
        tx,
        payment.request_id,
        { partner: partner_id },
        {
          type: "success",
          title: "Pago confirmado: prepara la entrega",
          message: `El comprador pagó la cotización oficial de «${payment.title}», basada en tu oferta. El equipo de CotizaHub te contactará para coordinar la entrega.`,
        },
      );
    }
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
      message: `Rechazamos el comprobante de pago de «${payment.title}». Motivo: ${withoutFinalStop(reason)}. Envía un nuevo comprobante o contacta al administrador.`,
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

/**
 * The date the payments lists show, sort and filter by: when the proof was sent, or when the
 * payment was opened while none has been (indexes payments_*sent, migration list_sorting).
 */
const SENT_AT = sql`coalesce(p.submitted_at, p.created_at)`;

/** A date range on SENT_AT (app/domain/list-filters): one range of its index. */
function sentIn(range: DayRange) {
  const { start, end } = rangeInstants(range);
  return sql<boolean>`(${start === null ? sql`1` : sql`${SENT_AT} >= ${start}`}
    AND ${end === null ? sql`1` : sql`${SENT_AT} < ${end}`})`;
}

/**
 * An index a payments list names instead of leaving the choice to the planner (which, without
 * statistics, may read a buyer's or a status's payments and sort them all; see ADR 0009).
 */
type PaymentIndex =
  | "payments_review_queue"
  | "payments_sent"
  | "payments_buyer_sent"
  | "payments_status_sent"
  | "payments_amount"
  | "payments_buyer_amount"
  | "payments_status_amount";

/** payments as `p`, read through `index` when one is named. */
function paymentsFrom(database: DB, index: PaymentIndex | null) {
  const plain = database.selectFrom("payments as p");
  if (index === null) return plain;
  // The same table and columns: SQLite flattens the subquery and keeps only its index clause.
  return database.selectFrom(
    sql<Database["payments"]>`(SELECT * FROM payments INDEXED BY ${sql.raw(index)})`.as("p"),
  ) as unknown as typeof plain;
}

/** Whether at most RANGE_SORT_CAP payments (of one buyer when given) were sent in `range`. */
async function fewSentIn(database: DB, range: DayRange, buyerId: number | null = null) {
  if (!hasRange(range)) return false;
  const inRange = paymentsFrom(database, buyerId === null ? "payments_sent" : "payments_buyer_sent")
    .select("p.id")
    .$if(buyerId !== null, (qb) => qb.where("p.buyer_id", "=", buyerId!))
    .where(sentIn(range))
    .limit(RANGE_SORT_CAP + 1);
  const result = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (${inRange})`.execute(database);
  return Number(result.rows[0]?.n ?? 0) <= RANGE_SORT_CAP;
}

type PaymentSort = Extract<ListSort, "recientes" | "antiguos" | "monto">;

/** The keyset columns of a payments list sorted by date (SENT_AT) or amount. */
function paymentSortColumns(sort: PaymentSort) {
  if (sort === "monto") return { key: "p.amount_cents", id: "p.id", numeric: true } as const;
  return { key: SENT_AT, id: "p.id", order: sort === "antiguos" ? "asc" : "desc" } as const;
}

const paymentSortKey =
  (sort: PaymentSort) =>
  (p: { id: number; amount_cents: number; submitted_at: string | null; created_at: string }) => ({
    key: sort === "monto" ? String(p.amount_cents) : (p.submitted_at ?? p.created_at),
    id: p.id,
  });

/**
 * A buyer's payments, searched by the request title, newest sent first unless `sort` says
 * otherwise, within a range of days when given.
 */
export async function listBuyerPayments(
  database: DB,
  {
    buyerId,
    q,
    page,
    range = { from: null, to: null },
    sort = "recientes",
  }: { buyerId: number; q: string; page: PageRequest; range?: DayRange; sort?: PaymentSort },
) {
  const through: PaymentIndex = (await fewSentIn(database, range, buyerId))
    ? "payments_buyer_sent"
    : sort === "monto"
      ? "payments_buyer_amount"
      : "payments_buyer_sent";
  let base = paymentsFrom(database, through)
    .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
    .where("p.buyer_id", "=", buyerId);
  if (q) base = base.where(sql<boolean>`qr.title LIKE ${likePattern(q)} ESCAPE '\\'`);
  if (hasRange(range)) base = base.where(sentIn(range));
  const [read, total] = await Promise.all([
    readKeysetPage(base.select(listColumns), page, paymentSortColumns(sort), PAYMENTS_PAGE_SIZE),
    q || hasRange(range)
      ? base
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.count))
      : buyerPaymentCounts(database, buyerId).then((c) => c.total),
  ]);
  const { rows, pageInfo } = finishPage(read, page, PAYMENTS_PAGE_SIZE, paymentSortKey(sort));
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
 * Where a payment sits in the admin Pagos list's review queue: pending ones first (a proof sent
 * before those still waiting for one, oldest first so nobody waits longest; index
 * payments_review_queue), then the reviewed ones, newest sent first. The cursor key names the
 * part: "p|<no proof>|<time>" or "r|<sent>".
 */
function paymentListKey(p: QueuedPayment & { status: PaymentStatus }) {
  const { flag, at, id } = queuePlace(p);
  return { key: p.status === "pending" ? `p|${flag}|${at}` : `r|${at}`, id };
}

type QueuedPayment = {
  id: number;
  proof_key: string | null;
  submitted_at: string | null;
  created_at: string;
};

/** A payment's place in its part of the review queue (QUEUE_KEY; the reviewed part reads `at`, `id`). */
function queuePlace(p: QueuedPayment): QueueFrom {
  return { flag: p.proof_key === null ? 1 : 0, at: p.submitted_at ?? p.created_at, id: p.id };
}

const PAYMENT_STATUSES = Object.keys(PAYMENT_STATUS_LABELS) as PaymentStatus[];

/** The Pagos list's status filter from ?status= (anything else means every status). */
export function paymentStatusFromUrl(url: URL): PaymentStatus | null {
  const status = url.searchParams.get("status");
  return PAYMENT_STATUSES.find((s) => s === status) ?? null;
}

/**
 * A search matching more requests than this reads the Pagos list down the list's own index and
 * stops at the page's end; a narrower one reads the payments of the requests it matches and sorts
 * them (a few hundred rows), which a broad one would do for tens of thousands.
 */
export const BROAD_SEARCH_REQUESTS = 1000;

/** Whether `q` matches more than BROAD_SEARCH_REQUESTS requests (counted from the index alone). */
async function isBroadSearch(database: DB, q: string): Promise<boolean> {
  const expression =
    q && requestReferenceIn(q) === null ? matchExpression(q, ["title", "buyer"]) : null;
  if (!expression) return false;
  const matches = matchingRequestIds(database, expression);
  return (await cappedCount(database, matches, BROAD_SEARCH_REQUESTS)) > BROAD_SEARCH_REQUESTS;
}

/**
 * The Pagos list's search: the request's title and the buyer's name, company or e-mail. Read
 * through `through` when given, unless a narrow search reads its own matches (isBroadSearch).
 */
function searchedAdminPayments(
  database: DB,
  q: string,
  through: PaymentIndex | null = null,
  broad = false,
) {
  let base = paymentsFrom(database, q && !broad ? null : through)
    .innerJoin("quote_requests as qr", "qr.id", "p.quote_request_id")
    .innerJoin("users as b", "b.id", "p.buyer_id");
  if (!q) return base;
  // A request's number («12», «Solicitud N.º 12»: the transfer's reference) lists its payments.
  const reference = requestReferenceIn(q);
  if (reference !== null) return base.where("p.quote_request_id", "=", reference);
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

interface AdminPaymentFilters {
  q: string;
  /** Whether `q` matches many requests (isBroadSearch), set by the list and the export. */
  broad?: boolean;
  status: PaymentStatus | null;
  /** Days the proof was sent (or the payment opened), app/domain/list-filters. */
  range?: DayRange;
  /** The review queue (the default), or one order over every payment shown. */
  sort?: PaymentSort | "cola";
}

/**
 * Where a sorted Pagos list reads (PaymentIndex): a narrow date range through the date index,
 * sorted; otherwise the sort's own index (per status when one is chosen).
 */
async function adminPaymentIndex(
  database: DB,
  { status, range, sort }: { status: PaymentStatus | null; range: DayRange; sort: PaymentSort },
): Promise<PaymentIndex> {
  if (await fewSentIn(database, range)) return "payments_sent";
  if (sort === "monto") return status ? "payments_status_amount" : "payments_amount";
  return status ? "payments_status_sent" : "payments_sent";
}

/** The Pagos list's rows for a sort other than the review queue, with its filters. */
async function sortedAdminPayments(
  database: DB,
  filters: AdminPaymentFilters & { sort: PaymentSort },
) {
  const { status, range = { from: null, to: null }, sort } = filters;
  const through = await adminPaymentIndex(database, { status, range, sort });
  return filteredAdminPayments(database, filters, through);
}

/** The Pagos list's search, status and date range, read through `through` when given. */
function filteredAdminPayments(
  database: DB,
  { q, broad, status, range = { from: null, to: null } }: AdminPaymentFilters,
  through: PaymentIndex | null,
) {
  return searchedAdminPayments(database, q, through, broad)
    .$if(status !== null, (qb) => qb.where("p.status", "=", status!))
    .$if(hasRange(range), (qb) => qb.where(sentIn(range)));
}

/** Where a part of the review queue resumes: just past this payment's place in it. */
type QueueFrom = { flag: number; at: string; id: number };
type ReviewedFrom = { at: string; id: number };

/**
 * The review queue's two parts with the Pagos list's filters: pending payments in queue order
 * (paymentListKey), then the reviewed ones newest sent first; both reversed when reading
 * `backwards` (a previous page). Each part starts just past `from` when given; the caller picks
 * the columns and how many rows.
 */
function reviewQueue(
  database: DB,
  { q, broad, status, range = { from: null, to: null } }: AdminPaymentFilters,
  backwards: boolean,
) {
  const inRange = <Q extends ReturnType<typeof searchedAdminPayments>>(query: Q) =>
    hasRange(range) ? (query.where(sentIn(range)) as Q) : query;
  const reviewedStatuses: PaymentStatus[] =
    status && status !== "pending" ? [status] : ["confirmed", "rejected"];
  const queue = inRange(searchedAdminPayments(database, q, "payments_review_queue", broad));
  const reviewed = inRange(
    searchedAdminPayments(
      database,
      q,
      reviewedStatuses.length === 1 ? "payments_status_sent" : "payments_sent",
      broad,
    ),
  );
  return {
    reviewedStatuses,
    showPending: status === null || status === "pending",
    showReviewed: status !== "pending",
    pending: (from: QueueFrom | null) =>
      queue
        .where("p.status", "=", "pending")
        .$if(from !== null, (qb) =>
          qb.where(
            sql<boolean>`(${QUEUE_KEY}) ${sql.raw(backwards ? "<" : ">")} (${from!.flag}, ${from!.at}, ${from!.id})`,
          ),
        )
        .orderBy(sql`p.proof_key IS NULL`, backwards ? "desc" : "asc")
        .orderBy(SENT_AT, backwards ? "desc" : "asc")
        .orderBy("p.id", backwards ? "desc" : "asc"),
    reviewed: (from: ReviewedFrom | null) =>
      reviewed
        .where("p.status", "in", reviewedStatuses)
        .$if(from !== null, (qb) =>
          // The plain bound on SENT_AT is the index range; the row value alone was checked on
          // every entry from the start (a whole export's last batches read the whole index).
          qb.where(
            sql<boolean>`${SENT_AT} ${sql.raw(backwards ? ">=" : "<=")} ${from!.at} AND (${SENT_AT}, p.id) ${sql.raw(backwards ? ">" : "<")} (${from!.at}, ${from!.id})`,
          ),
        )
        .orderBy(SENT_AT, backwards ? "asc" : "desc")
        .orderBy("p.id", backwards ? "asc" : "desc"),
  };
}

/**
 * Payments for the admin Pagos tab. The review queue (the default) is keyset-paginated across its
 * two parts (pending, then reviewed): a page that crosses the boundary reads the end of one part
 * and the start of the next. Another sort is one keyset over every payment shown.
 */
export async function listPaymentsForAdmin(
  database: DB,
  {
    q,
    status,
    page,
    range = { from: null, to: null },
    sort = "cola",
  }: AdminPaymentFilters & { page: PageRequest },
) {
  const broad = await isBroadSearch(database, q);
  if (sort !== "cola") {
    const base = await sortedAdminPayments(database, { q, broad, status, range, sort });
    // A date range is counted through the date index: through the amount index, a range of a
    // week walks the amounts of every other week until it has counted enough.
    const counted = hasRange(range)
      ? filteredAdminPayments(database, { q, broad, status, range }, "payments_sent")
      : base;
    const total =
      q || hasRange(range)
        ? cappedCount(database, counted.select("p.id"))
        : adminPaymentCounts(database).then((c) =>
            status ? c[status] : c.pending + c.confirmed + c.rejected,
          );
    const [read, count] = await Promise.all([
      readKeysetPage(
        base.select(adminListColumns),
        page,
        paymentSortColumns(sort),
        PAYMENTS_PAGE_SIZE,
      ),
      total,
    ]);
    const { rows, pageInfo } = finishPage(read, page, PAYMENTS_PAGE_SIZE, paymentSortKey(sort));
    return {
      rows,
      pageInfo,
      total: count,
      totalCapped: (Boolean(q) || hasRange(range)) && count > SEARCH_COUNT_CAP,
    };
  }
  const base = searchedAdminPayments(database, q).$if(hasRange(range), (qb) =>
    qb.where(sentIn(range)),
  );
  const window = pageWindow(page, PAYMENTS_PAGE_SIZE);
  const backwards = keysetDirection(page) === "asc";
  const queue = reviewQueue(database, { q, broad, status, range }, backwards);
  const { reviewedStatuses, showPending, showReviewed } = queue;
  const pendingPart = (from: QueueFrom | null, limit: number) =>
    queue.pending(from).select(adminListColumns).limit(limit);
  const reviewedPart = (from: ReviewedFrom | null, limit: number) =>
    queue.reviewed(from).select(adminListColumns).limit(limit);

  // A search or a date range is counted up to SEARCH_COUNT_CAP + 1 («Más de 200»), as in the
  // other orders: either may hold every payment. The numbered pages end well before the cap, so
  // a capped count of the pending ones still says where they end on those pages.
  const filtered = Boolean(q) || hasRange(range);
  const countOf = async (statuses: PaymentStatus[]) => {
    if (filtered)
      return cappedCount(database, base.where("p.status", "in", statuses).select("p.id"));
    const counts = await adminPaymentCounts(database);
    return statuses.reduce((sum, s) => sum + counts[s], 0);
  };
  const shown: PaymentStatus[] = [
    ...(showPending ? ["pending" as const] : []),
    ...(showReviewed ? reviewedStatuses : []),
  ];
  const total = await countOf(shown);

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
      // The flag is 0 or 1; a forged one (NaN, NULL to SQLite, would walk the queue) reads as 0.
      const from = { flag: rest[0] === "1" ? 1 : 0, at: rest[1] ?? "", id };
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
  return { rows, pageInfo, total, totalCapped: filtered && total > SEARCH_COUNT_CAP };
}

/** The CSV's columns: the list's, the buyer's e-mail and the commission of the quote paid. */
function withExportColumns(query: ReturnType<typeof searchedAdminPayments>) {
  return query
    .innerJoin("official_quotes as oq", "oq.id", "p.official_quote_id")
    .select([...adminListColumns, "b.email as buyer_email", "oq.commission_amount_cents"]);
}

/**
 * Every payment the Pagos list shows with these filters, for the CSV export, in batches and in the
 * list's order: the review queue (pending in queue order, then reviewed newest sent first), or the
 * chosen date or amount order.
 */
export async function* exportAdminPayments(
  database: DB,
  { q, status, range = { from: null, to: null }, sort = "cola" }: AdminPaymentFilters,
) {
  const broad = await isBroadSearch(database, q);
  if (sort !== "cola") {
    const query = withExportColumns(
      await sortedAdminPayments(database, { q, broad, status, range, sort }),
    );
    yield* inKeysetBatches(
      (request, size) => readKeysetPage(query, request, paymentSortColumns(sort), size),
      paymentSortKey(sort),
    );
    return;
  }
  const queue = reviewQueue(database, { q, broad, status, range }, false);
  if (queue.showPending)
    yield* batchesFrom(
      (from: QueueFrom | null) =>
        withExportColumns(queue.pending(from)).limit(EXPORT_BATCH_SIZE).execute(),
      queuePlace,
    );
  if (queue.showReviewed)
    yield* batchesFrom(
      (from: ReviewedFrom | null) =>
        withExportColumns(queue.reviewed(from)).limit(EXPORT_BATCH_SIZE).execute(),
      queuePlace,
    );
}
