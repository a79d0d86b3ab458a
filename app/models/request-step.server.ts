import type { AssignmentState, RequestStatus } from "../../db/schema";
import {
  canAdminOverride,
  canTransition,
  nextStatus,
  STATUS_LABELS,
  type QuoteAction,
} from "~/domain/quote-status";
import { fail, type Result } from "~/domain/result";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { flushNotifications, notify } from "~/services/notify.server";
import { paths } from "~/utils/paths";

/**
 * The frame every change of a quote request runs in: one IMMEDIATE transaction that re-reads the
 * request, checks the status machine, writes the history line and queues notifications that go out
 * once it has committed. Used by the lifecycle (quote-lifecycle) and the sourcing round
 * (sourcing-round).
 */

export const notFound = () => fail("not_found", "Cotización no encontrada");

/** One lifecycle step: a write transaction whose notifications go out once it has committed. */
export async function lifecycleStep<T>(
  database: DB,
  step: (tx: DB) => Promise<Result<T>>,
): Promise<Result<T>> {
  const result = await writeTransaction(database, step);
  if (result.ok) flushNotifications();
  return result;
}

/** Tells the admins, the request's buyer or a partner about it, linking to their view of it. */
export function notifyAbout(
  tx: DB,
  requestId: number,
  audience: "admins" | { buyer: number } | { partner: number },
  message: {
    type: "info" | "success" | "warning";
    title: string;
    message: string;
    /** False: in the app only (e.g. thread messages, which are mailed as a digest). */
    email?: boolean;
  },
) {
  const [to, link, relatedType] =
    audience === "admins"
      ? [{ role: "admin" as const }, paths.admin.quote(requestId), "quote" as const]
      : "buyer" in audience
        ? [{ userIds: [audience.buyer] }, paths.buyer.quote(requestId), "quote" as const]
        : [
            { userIds: [audience.partner] },
            paths.partner.assignment(requestId),
            "assignment" as const,
          ];
  return notify(tx, { ...message, to, link, relatedType, relatedId: requestId });
}
/** The request's status does not allow the action (any longer): someone got there first. */
export const wrongStatus = (status: RequestStatus) =>
  fail(
    "conflict",
    `Esta acción no está disponible: la solicitud está en estado «${STATUS_LABELS[status]}».`,
  );
export async function lockRequest(tx: DB, id: number) {
  return tx
    .selectFrom("quote_requests")
    .select(["id", "buyer_id", "title", "status", "total_amount_cents", "quote_deadline"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Changes the status and writes the history line (who, when, from, to, note). Only a move in the
 * domain's TRANSITIONS table, or an operator's `override`, may be recorded.
 */
export async function recordStatus(
  tx: DB,
  requestId: number,
  from: RequestStatus | null,
  to: RequestStatus,
  actorId: number | null,
  note: string | null = null,
  { override = false }: { override?: boolean } = {},
): Promise<void> {
  if (from !== null && !(override ? canAdminOverride(from, to) : canTransition(from, to))) {
    throw new Error(`Status change ${from} → ${to} is not allowed`);
  }
  const timestamp = now();
  if (from !== null) {
    await tx
      .updateTable("quote_requests")
      .set({ status: to, updated_at: timestamp })
      .where("id", "=", requestId)
      .execute();
  }
  await tx
    .insertInto("request_status_history")
    .values({
      quote_request_id: requestId,
      actor_id: actorId,
      from_status: from,
      to_status: to,
      note,
      created_at: timestamp,
    })
    .execute();
}

/**
 * The status `action` leads to from the request's current status (TRANSITIONS), or the
 * `invalid_status` failure when the action is refused there.
 */
export function statusAfter(
  request: { status: RequestStatus },
  action: QuoteAction,
): { ok: true; to: RequestStatus } | ReturnType<typeof wrongStatus> {
  const to = nextStatus(request.status, action);
  return to === null ? wrongStatus(request.status) : { ok: true, to };
}

export type LockedRequest = NonNullable<Awaited<ReturnType<typeof lockRequest>>>;

/**
 * A lifecycle step on one request: it is re-read inside the transaction (and, with `buyerId`, must
 * be that buyer's), `action` must be allowed from its status, then `step` runs with the status the
 * action leads to.
 */
export function requestStep<T>(
  database: DB,
  { requestId, action, buyerId }: { requestId: number; action: QuoteAction; buyerId?: number },
  step: (tx: DB, request: LockedRequest, to: RequestStatus) => Promise<Result<T>>,
): Promise<Result<T>> {
  return lifecycleStep(database, async (tx) => {
    const request = await lockRequest(tx, requestId);
    if (!request || (buyerId !== undefined && request.buyer_id !== buyerId)) return notFound();
    const next = statusAfter(request, action);
    if (!next.ok) return next;
    return step(tx, request, next.to);
  });
}

/**
 * A history line for something that happened without a status change (a decline, a withdrawal,
 * an edit, a deadline extension): from and to are the current status, `event` names it.
 */
export async function recordEvent(
  tx: DB,
  request: { id: number; status: RequestStatus },
  actorId: number | null,
  event: string,
  note: string | null,
): Promise<void> {
  await tx
    .insertInto("request_status_history")
    .values({
      quote_request_id: request.id,
      actor_id: actorId,
      from_status: request.status,
      to_status: request.status,
      event,
      note,
      created_at: now(),
    })
    .execute();
}

/**
 * Voids the request's pending payment (status `rejected` with `reason`, which the buyer reads) when
 * the deal it paid for is gone: a cancel, a rejection, an operator moving the request on. Returns
 * how many were voided.
 */
export async function voidPendingPayments(
  tx: DB,
  requestId: number,
  reason: string,
): Promise<number> {
  const voided = await tx
    .updateTable("payments")
    .set({ status: "rejected", rejection_reason: reason, updated_at: now() })
    .where("quote_request_id", "=", requestId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(voided.numUpdatedRows);
}

/** Tells every partner of the request whose assignment is in one of `states` (e.g. still invited). */
export async function notifyPartners(
  tx: DB,
  requestId: number,
  states: readonly AssignmentState[],
  message: { type: "info" | "success" | "warning"; title: string; message: string },
): Promise<number> {
  const partners = await tx
    .selectFrom("partner_assignments")
    .select("partner_id")
    .where("quote_request_id", "=", requestId)
    .where("state", "in", states)
    .orderBy("id")
    .execute();
  for (const { partner_id } of partners) {
    await notifyAbout(tx, requestId, { partner: partner_id }, message);
  }
  return partners.length;
}
