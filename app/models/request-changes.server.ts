import type { AssignmentState, RequestStatus } from "../../db/schema";
import { canBuyerCancel, canBuyerEdit } from "~/domain/quote-status";
import { cancelReasonProblem, requestDatesProblems, toDeadlineInput } from "~/domain/request-dates";
import { fail, ok, type Result } from "~/domain/result";
import { buyerLabel } from "./user.server";
import { now, type DB } from "~/services/db.server";
import type { StoredFile } from "~/services/storage.server";
import { formatDate, formatDateTime, withoutFinalStop } from "~/utils/format";
import { scheduleDeadlineReminders } from "./deadline-reminder.server";
import {
  notifyAbout,
  notifyPartners,
  recordEvent,
  recordStatus,
  requestStep,
  voidPendingPayments,
} from "./request-step.server";

/**
 * The buyer's own changes to a request (DECISIONS §6): editing it while no partner has offered,
 * and cancelling it before payment. Both run in requestStep's IMMEDIATE transaction, which
 * re-reads the request (it must be the buyer's) and checks the status machine; the rules that
 * need other rows (an offer, a confirmed payment) are checked there too.
 */

export const OFFER_EXISTS_MESSAGE =
  "Un socio ya envió una oferta para esta solicitud: ya no se puede editar. Si necesitas otra cosa, cancélala y crea una nueva.";
export const PAID_MESSAGE = "Esta solicitud ya tiene un pago confirmado: no se puede cancelar.";
export const PAYMENT_VOIDED_REASON = "Solicitud cancelada por el comprador.";

/** Partners who are still part of the request and hear about its changes. */
const EDIT_AUDIENCE: AssignmentState[] = ["invited", "offered"];
const CANCEL_AUDIENCE: AssignmentState[] = ["invited", "offered", "selected"];
/** Assignment states that mean the partner has made an offer. */
const OFFERED: AssignmentState[] = ["offered", "selected", "not_selected"];

/** Whether any partner has offered on the request (an offer row, or an assignment that says so). */
async function hasOffer(database: DB, requestId: number): Promise<boolean> {
  const [quote, assignment] = await Promise.all([
    database
      .selectFrom("partner_quotes")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .executeTakeFirst(),
    database
      .selectFrom("partner_assignments")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .where("state", "in", OFFERED)
      .executeTakeFirst(),
  ]);
  return Boolean(quote || assignment);
}

async function hasConfirmedPayment(database: DB, requestId: number): Promise<boolean> {
  const row = await database
    .selectFrom("payments")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .where("status", "=", "confirmed")
    .executeTakeFirst();
  return Boolean(row);
}

/** "a", "a y b", "a, b y c". */
function listOf(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} y ${items[items.length - 1]}`;
}

// ---- What the buyer's pages show

export type EditRefusal = "status" | "offers";
export type CancelRefusal = "status" | "paid";

/**
 * A buyer's request as the edit and cancel pages (and the detail's dates) read it, with why it may
 * not be edited or cancelled now, if so. Undefined when the request is not this buyer's. The
 * actions check the same rules again inside their transaction.
 */
export async function getRequestChanges(
  database: DB,
  { requestId, buyerId }: { requestId: number; buyerId: number },
) {
  const request = await database
    .selectFrom("quote_requests")
    .select([
      "id",
      "title",
      "description",
      "file_name",
      "status",
      "quote_deadline",
      "needed_by",
      "cancellation_reason",
    ])
    .where("id", "=", requestId)
    .where("buyer_id", "=", buyerId)
    .executeTakeFirst();
  if (!request) return undefined;
  const [offered, paid, cancelled] = await Promise.all([
    hasOffer(database, requestId),
    hasConfirmedPayment(database, requestId),
    request.status === "cancelled"
      ? database
          .selectFrom("request_status_history")
          .select("created_at")
          .where("quote_request_id", "=", requestId)
          .where("to_status", "=", "cancelled")
          .where("from_status", "is not", "cancelled")
          .orderBy("id", "desc")
          .executeTakeFirst()
      : undefined,
  ]);
  const editRefusal: EditRefusal | null = !canBuyerEdit(request.status)
    ? "status"
    : offered
      ? "offers"
      : null;
  const cancelRefusal: CancelRefusal | null = paid
    ? "paid"
    : canBuyerCancel(request.status)
      ? null
      : "status";
  return { request, editRefusal, cancelRefusal, cancelledAt: cancelled?.created_at ?? null };
}

// ---- Edit

interface EditInput {
  requestId: number;
  buyerId: number;
  title: string;
  description: string | null;
  /** The deadline typed (an ISO instant). Equal to the current one to the minute: unchanged. */
  quoteDeadline: string;
  neededBy: string | null;
  /** A new requirements file (already stored by storeUpload), or null to keep the current one. */
  file: StoredFile | null;
}

/**
 * The buyer edits a request while it is open to offers (`buyer_edit`) and no partner has offered.
 * Returns what changed (Spanish names) and the key of a replaced file, for the caller to delete
 * once this has committed.
 */
export function editRequest(
  database: DB,
  input: EditInput,
): Promise<Result<{ changes: string[]; replacedFileKey: string | null; partnersTold: number }>> {
  const { requestId, buyerId } = input;
  return requestStep(
    database,
    { requestId, action: "buyer_edit", buyerId },
    async (tx, request) => {
      if (await hasOffer(tx, requestId)) return fail("locked", OFFER_EXISTS_MESSAGE);
      const current = await tx
        .selectFrom("quote_requests")
        .select(["description", "needed_by", "file_key"])
        .where("id", "=", requestId)
        .executeTakeFirstOrThrow();
      const deadlineChanged =
        toDeadlineInput(input.quoteDeadline) !== toDeadlineInput(request.quote_deadline);
      const quoteDeadline = deadlineChanged ? input.quoteDeadline : request.quote_deadline;
      const neededByChanged = input.neededBy !== current.needed_by;
      const problems = requestDatesProblems(
        { quoteDeadline, neededBy: input.neededBy },
        new Date(),
        { quoteDeadline: deadlineChanged, neededBy: neededByChanged },
      );
      if (problems) return fail("invalid", Object.values(problems)[0]![0]!, problems);

      const changes = [
        input.title !== request.title ? "título" : null,
        input.description !== current.description ? "descripción" : null,
        deadlineChanged ? `plazo para cotizar (ahora ${formatDateTime(quoteDeadline)})` : null,
        neededByChanged
          ? input.neededBy
            ? `fecha requerida (ahora ${formatDate(input.neededBy)})`
            : "fecha requerida (quitada)"
          : null,
        input.file ? "archivo de requerimientos" : null,
      ].filter((c): c is string => c !== null);
      if (changes.length === 0) return ok({ changes, replacedFileKey: null, partnersTold: 0 });

      const fileColumns = input.file
        ? {
            file_key: input.file.key,
            file_name: input.file.name,
            file_type: input.file.type,
            file_size: input.file.size,
          }
        : {};
      await tx
        .updateTable("quote_requests")
        .set({
          title: input.title,
          description: input.description,
          quote_deadline: quoteDeadline,
          needed_by: input.neededBy,
          updated_at: now(),
          ...fileColumns,
        })
        .where("id", "=", requestId)
        .execute();
      const changed = listOf(changes);
      await recordEvent(tx, request, buyerId, "edited", `Editada por el comprador: ${changed}.`);
      const partnersTold = await notifyPartners(tx, requestId, EDIT_AUDIENCE, {
        type: "info",
        title: "Solicitud actualizada por el comprador",
        message: `El comprador cambió la solicitud «${input.title}»: ${changed}. Revisa los detalles antes de enviar tu oferta.`,
      });
      if (deadlineChanged) await scheduleDeadlineReminders(tx, requestId);
      return ok({ changes, replacedFileKey: input.file ? current.file_key : null, partnersTold });
    },
  );
}

// ---- Cancel

/**
 * The buyer cancels a request before payment (`buyer_cancel`): it becomes `cancelled` with the
 * reason, its pending payments are voided, and the operators and every partner still part of it
 * are told. A request with a confirmed payment is not cancelled.
 */
export function cancelRequest(
  database: DB,
  { requestId, buyerId, reason: rawReason }: { requestId: number; buyerId: number; reason: string },
): Promise<Result<{ voidedPayments: number; partnersTold: number }>> {
  const reason = rawReason.trim();
  return requestStep(
    database,
    { requestId, action: "buyer_cancel", buyerId },
    async (tx, request, to: RequestStatus) => {
      const problem = cancelReasonProblem(reason);
      if (problem) return fail("invalid", problem, "reason");
      if (await hasConfirmedPayment(tx, requestId)) return fail("conflict", PAID_MESSAGE);
      const timestamp = now();
      const voidedPayments = await voidPendingPayments(tx, requestId, PAYMENT_VOIDED_REASON);
      await tx
        .updateTable("quote_requests")
        .set({ cancellation_reason: reason, updated_at: timestamp })
        .where("id", "=", requestId)
        .execute();
      await recordStatus(
        tx,
        requestId,
        request.status,
        to,
        buyerId,
        `Cancelada por el comprador. Motivo: ${reason}`,
      );
      await notifyAbout(tx, requestId, "admins", {
        type: "warning",
        title: "Solicitud cancelada por el comprador",
        message: `${await buyerLabel(tx, buyerId)} canceló «${request.title}». Motivo: «${withoutFinalStop(reason)}».${
          voidedPayments > 0 ? " Se anularon sus pagos pendientes." : ""
        }`,
      });
      // Partners get the fact, not the buyer's words (which may name people or other suppliers).
      const partnersTold = await notifyPartners(tx, requestId, CANCEL_AUDIENCE, {
        type: "warning",
        title: "Solicitud cancelada por el comprador",
        message: `El comprador canceló la solicitud «${request.title}». Ya no necesitas enviar ni mantener una oferta para ella.`,
      });
      return ok({ voidedPayments, partnersTold });
    },
  );
}
