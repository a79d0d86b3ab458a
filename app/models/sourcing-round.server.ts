import type { AssignmentState } from "../../db/schema";
import { canDecline, canWithdraw, reopenedState } from "~/domain/assignment";
import { requestDatesProblems } from "~/domain/request-dates";
import { fail, ok, type Result } from "~/domain/result";
import { now, type DB } from "~/services/db.server";
import { formatDateTime } from "~/utils/format";
import { partnerName } from "./user.server";
import { scheduleDeadlineReminders } from "./deadline-reminder.server";
import {
  lifecycleStep,
  lockRequest,
  notifyAbout,
  notifyPartners,
  recordEvent,
  recordStatus,
  requestStep,
} from "./request-step.server";

/**
 * The sourcing round around the status machine (DECISIONS §6): partners decline, operators withdraw
 * an invitation, extend the deadline or reopen a rejected request for a new round. Each runs in one
 * IMMEDIATE transaction that re-reads the request and the assignment.
 */

/** A deadline the operator sets: in the future and within the longest round (request-dates). */
const deadlineProblems = (deadline: string) =>
  requestDatesProblems({ quoteDeadline: deadline, neededBy: null });

const assignmentNotFound = () => fail("not_found", "Solicitud no encontrada");

async function lockAssignment(tx: DB, requestId: number, partnerId: number) {
  return tx
    .selectFrom("partner_assignments as pa")
    .innerJoin("users as u", "u.id", "pa.partner_id")
    .select(["pa.id", "pa.state", "u.company_name", "u.first_name", "u.last_name"])
    .where("pa.quote_request_id", "=", requestId)
    .where("pa.partner_id", "=", partnerId)
    .executeTakeFirst();
}

async function setAssignmentState(
  tx: DB,
  assignmentId: number,
  state: AssignmentState,
  declineReason: string | null = null,
) {
  await tx
    .updateTable("partner_assignments")
    .set({ state, decline_reason: declineReason, state_changed_at: now() })
    .where("id", "=", assignmentId)
    .execute();
}

/** The partner says no to an invitation, with a reason operators read. */
export function declineAssignment(
  database: DB,
  { requestId, partnerId, reason }: { requestId: number; partnerId: number; reason: string },
): Promise<Result> {
  return lifecycleStep(database, async (tx) => {
    const request = await lockRequest(tx, requestId);
    const assignment = request && (await lockAssignment(tx, requestId, partnerId));
    if (!request || !assignment) return assignmentNotFound();
    if (!canDecline(assignment.state, request.status)) {
      return fail(
        "locked",
        assignment.state === "declined"
          ? "Ya declinaste esta solicitud."
          : "Ya no puedes declinar esta solicitud: solo se declina una invitación sin oferta en una solicitud abierta.",
      );
    }
    await setAssignmentState(tx, assignment.id, "declined", reason);
    await recordEvent(
      tx,
      request,
      partnerId,
      "declined",
      `${partnerName(assignment)} declinó: ${reason}`,
    );
    await notifyAbout(tx, requestId, "admins", {
      type: "warning",
      title: "Un socio declinó una solicitud",
      message: `${partnerName(assignment)} declinó «${request.title}». Motivo: ${reason}`,
    });
    return ok();
  });
}

/** The operator takes an invitation back, only while the partner has not offered. */
export function withdrawAssignment(
  database: DB,
  { requestId, partnerId, adminId }: { requestId: number; partnerId: number; adminId: number },
): Promise<Result> {
  return lifecycleStep(database, async (tx) => {
    const request = await lockRequest(tx, requestId);
    const assignment = request && (await lockAssignment(tx, requestId, partnerId));
    if (!request || !assignment)
      return fail("not_found", "Ese socio no está asignado a esta solicitud.");
    if (!canWithdraw(assignment.state, request.status)) {
      return fail(
        "locked",
        assignment.state === "offered"
          ? "Este socio ya envió su oferta: una asignación con oferta no se retira."
          : "Esta asignación ya no puede retirarse.",
      );
    }
    await setAssignmentState(tx, assignment.id, "withdrawn");
    await recordEvent(
      tx,
      request,
      adminId,
      "withdrawn",
      `Asignación de ${partnerName(assignment)} retirada`,
    );
    await notifyAbout(
      tx,
      requestId,
      { partner: partnerId },
      {
        type: "info",
        title: "Asignación retirada",
        message: `El equipo de CotizaHub retiró tu invitación a cotizar «${request.title}». No necesitas enviar una oferta.`,
      },
    );
    return ok();
  });
}

/** Why a partner's open invitations are withdrawn, as the request's history says it. */
const CLOSED_ACCOUNT_NOTES = {
  deactivated: "cuenta desactivada",
  not_partner: "ya no es socio",
} as const;

/**
 * Inside a partner's deactivation or a role change away from partner (admin-user.server): every
 * invitation still waiting for their offer on an open request is withdrawn, each with a line on
 * the request's history, so the round shows nobody is answering instead of waiting on an account
 * that can no longer answer as a partner. Offers already sent stay (the operator may still choose
 * one). Returns how many were withdrawn; the person is not told (a deactivated account gets no
 * mail, and someone who is no longer a partner cannot open the partner's pages the note would
 * point to).
 */
export async function withdrawOpenInvitations(
  tx: DB,
  {
    partnerId,
    adminId,
    partner,
    because,
  }: {
    partnerId: number;
    adminId: number | null;
    partner: string;
    because: keyof typeof CLOSED_ACCOUNT_NOTES;
  },
): Promise<number> {
  const open = await tx
    .selectFrom("partner_assignments as pa")
    .innerJoin("quote_requests as qr", "qr.id", "pa.quote_request_id")
    .select(["pa.id", "qr.id as requestId", "qr.status"])
    .where("pa.partner_id", "=", partnerId)
    .where("pa.state", "=", "invited")
    .where("qr.status", "=", "assigned")
    .execute();
  for (const assignment of open) {
    await setAssignmentState(tx, assignment.id, "withdrawn");
    await recordEvent(
      tx,
      { id: assignment.requestId, status: assignment.status },
      adminId,
      "withdrawn",
      `Asignación de ${partner} retirada: ${CLOSED_ACCOUNT_NOTES[because]}`,
    );
  }
  return open.length;
}

/** Partners still in the round: told about a new deadline or a reopened request. */
const OPEN_STATES: readonly AssignmentState[] = ["invited", "offered"];

/** The operator moves the deadline later (never earlier, never into the past). */
export function extendDeadline(
  database: DB,
  { requestId, adminId, deadline }: { requestId: number; adminId: number; deadline: string },
): Promise<Result> {
  return requestStep(database, { requestId, action: "extend_deadline" }, async (tx, request) => {
    const problems = deadlineProblems(deadline);
    if (problems) return fail("invalid", problems.quote_deadline![0]!, problems);
    if (Date.parse(deadline) <= Date.parse(request.quote_deadline))
      return fail(
        "invalid",
        `El nuevo plazo debe ser posterior al actual (${formatDateTime(request.quote_deadline)}).`,
        "quote_deadline",
      );
    await tx
      .updateTable("quote_requests")
      .set({ quote_deadline: deadline, updated_at: now() })
      .where("id", "=", requestId)
      .execute();
    const note = `Plazo ampliado de ${formatDateTime(request.quote_deadline)} a ${formatDateTime(deadline)}`;
    await recordEvent(tx, request, adminId, "deadline_extended", note);
    await scheduleDeadlineReminders(tx, requestId);
    await notifyPartners(tx, requestId, OPEN_STATES, {
      type: "info",
      title: "Plazo ampliado",
      message: `El plazo para cotizar «${request.title}» se amplió hasta el ${formatDateTime(deadline)}.`,
    });
    return ok();
  });
}

/**
 * A new round after the buyer rejected the official quote: the request goes back to `assigned`
 * with a new deadline, the official quote stays as a superseded version, and partners who offered
 * may revise (selected and not-selected offers are open again).
 */
export function reopenRequest(
  database: DB,
  { requestId, adminId, deadline }: { requestId: number; adminId: number; deadline: string },
): Promise<Result> {
  return requestStep(database, { requestId, action: "reopen" }, async (tx, request, to) => {
    const problems = deadlineProblems(deadline);
    if (problems) return fail("invalid", problems.quote_deadline![0]!, problems);
    const timestamp = now();
    await tx
      .updateTable("official_quotes")
      .set({ superseded_at: timestamp })
      .where("quote_request_id", "=", requestId)
      .where("superseded_at", "is", null)
      .execute();
    await tx
      .updateTable("partner_quotes")
      .set({ is_selected: 0 })
      .where("quote_request_id", "=", requestId)
      .where("is_selected", "=", 1)
      .execute();
    const assignments = await tx
      .selectFrom("partner_assignments")
      .select(["id", "state", "partner_id"])
      .where("quote_request_id", "=", requestId)
      .execute();
    for (const a of assignments) {
      const state = reopenedState(a.state);
      if (state !== a.state) await setAssignmentState(tx, a.id, state);
    }
    await tx
      .updateTable("quote_requests")
      .set({ quote_deadline: deadline, total_amount_cents: null, rejection_reason: null })
      .where("id", "=", requestId)
      .execute();
    await recordStatus(
      tx,
      requestId,
      request.status,
      to,
      adminId,
      `Reabierta para una nueva ronda hasta el ${formatDateTime(deadline)}`,
    );
    await scheduleDeadlineReminders(tx, requestId);
    await notifyPartners(tx, requestId, OPEN_STATES, {
      type: "info",
      title: "Solicitud reabierta",
      message: `«${request.title}» se reabrió para una nueva ronda: puedes enviar o revisar tu oferta hasta el ${formatDateTime(deadline)}.`,
    });
    await notifyAbout(
      tx,
      requestId,
      { buyer: request.buyer_id },
      {
        type: "info",
        title: "Buscamos una nueva cotización",
        message: `Reabrimos «${request.title}» para pedir nuevas ofertas a los socios. Te avisaremos con la nueva cotización oficial.`,
      },
    );
    return ok();
  });
}
