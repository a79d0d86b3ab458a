import type { AssignmentState, RequestStatus } from "../../db/schema";
import {
  canDeclineAssignment,
  canPartnerQuote,
  canWithdrawAssignment,
  STATUS_LABELS,
} from "./quote-status";
import type { Tone } from "./tones";
import { formatDateTime } from "~/utils/format";

/**
 * A partner's part in one request (DECISIONS §6). The models decide inside the write transaction,
 * after re-reading the assignment and the request, with these helpers; screens show the same
 * answers, so a button appears only where the server would accept it.
 *
 *   invited → offered (partner offers) → selected | not_selected (an official quote is issued)
 *   invited → declined (partner, with a reason) | withdrawn (operator, before any offer)
 *   selected | not_selected → offered (the operator reopens a rejected request)
 */
export const ASSIGNMENT_STATES = [
  "invited",
  "offered",
  "declined",
  "withdrawn",
  "selected",
  "not_selected",
] as const satisfies readonly AssignmentState[];

/** What operators read next to each partner of a request. */
export const ASSIGNMENT_STATE_LABELS: Record<AssignmentState, string> = {
  invited: "Invitado, sin oferta",
  offered: "Oferta enviada",
  declined: "Declinó",
  withdrawn: "Retirado por el operador",
  selected: "Seleccionado",
  not_selected: "No seleccionado",
};

interface Badge {
  label: string;
  tone: Tone;
}

const OPERATOR_TONES: Record<AssignmentState, Tone> = {
  invited: "yellow",
  offered: "blue",
  declined: "gray",
  withdrawn: "gray",
  selected: "green",
  not_selected: "gray",
};

/**
 * The operator's badge for one partner of a request: the assignment's state, except that a partner
 * never heard from on a round that closed reads as the partner's own screen says.
 */
export function operatorAssignmentBadge(state: AssignmentState, roundOpen: boolean): Badge {
  if (state === "invited" && !roundOpen) return { label: "Cerrada sin oferta", tone: "gray" };
  return { label: ASSIGNMENT_STATE_LABELS[state], tone: OPERATOR_TONES[state] };
}

/**
 * The partner's truthful badge for one request: where their own part stands, and what became of
 * the deal they won.
 */
export function partnerAssignmentBadge(state: AssignmentState, status: RequestStatus): Badge {
  if (status === "cancelled" && state !== "declined" && state !== "withdrawn")
    return { label: "Cancelada por el comprador", tone: "gray" };
  switch (state) {
    case "invited":
      return status === "assigned"
        ? { label: "Pendiente de cotizar", tone: "yellow" }
        : { label: "Cerrada sin oferta", tone: "gray" };
    case "offered":
      return status === "assigned"
        ? { label: "Oferta enviada", tone: "blue" }
        : { label: "En evaluación", tone: "purple" };
    case "declined":
      return { label: "Declinada", tone: "gray" };
    case "withdrawn":
      return { label: "Retirada por el operador", tone: "gray" };
    case "not_selected":
      return { label: "No seleccionada", tone: "gray" };
    case "selected":
      if (status === "paid") return { label: "Ganada y pagada", tone: "green" };
      if (status === "rejected") return { label: "Rechazada por el comprador", tone: "red" };
      return { label: "Seleccionada", tone: "green" };
  }
}

/**
 * What the partner whose offer was selected reads on it: a congratulation while the deal stands,
 * the next step once paid, and what became of it when the buyer said no.
 */
export function selectedOfferNotice(status: RequestStatus): { text: string; tone: Tone } {
  switch (status) {
    case "approved":
      return {
        text: "¡Felicitaciones! Tu cotización fue seleccionada y el comprador aprobó la cotización oficial; falta su pago.",
        tone: "green",
      };
    case "paid":
      return {
        text: "El comprador pagó la cotización oficial basada en tu oferta. El equipo de CotizaHub te contactará para coordinar la entrega.",
        tone: "green",
      };
    case "rejected":
      return {
        text: "Seleccionamos tu cotización, pero el comprador rechazó la cotización oficial.",
        tone: "gray",
      };
    case "cancelled":
      return {
        text: "Seleccionamos tu cotización, pero el comprador canceló la solicitud.",
        tone: "gray",
      };
    default:
      return {
        text: "¡Felicitaciones! Tu cotización fue seleccionada para esta solicitud.",
        tone: "green",
      };
  }
}

/** Declined and withdrawn partners see only that the request is closed for them. */
export function partnerSeesRequest(state: AssignmentState): boolean {
  return state !== "declined" && state !== "withdrawn";
}

export function isPastDeadline(deadline: string, now: Date = new Date()): boolean {
  return now.getTime() >= Date.parse(deadline);
}

type OfferRefusal = "closed" | "not_open" | "deadline";

/**
 * Why a partner may not create or edit an offer now, or null when they may: the request must be
 * open to offers, their assignment invited or offered, and the deadline not passed.
 */
export function offerRefusal(
  state: AssignmentState,
  status: RequestStatus,
  deadline: string,
  now: Date = new Date(),
): OfferRefusal | null {
  if (state !== "invited" && state !== "offered") return "closed";
  if (!canPartnerQuote(status)) return "not_open";
  if (isPastDeadline(deadline, now)) return "deadline";
  return null;
}

/** What the partner reads when an offer is refused (the request's status message aside). */
export function offerRefusalMessage(
  refusal: Exclude<OfferRefusal, "not_open">,
  state: AssignmentState,
  deadline: string,
): string {
  if (refusal === "deadline")
    return `El plazo para cotizar venció el ${formatDateTime(deadline)}. Si aún quieres ofertar, pide al equipo de CotizaHub que lo amplíe.`;
  switch (state) {
    case "declined":
      return "Declinaste esta solicitud: ya no puedes enviar una oferta.";
    case "withdrawn":
      return "Tu asignación fue retirada: ya no puedes enviar una oferta.";
    case "selected":
      return "Tu cotización ya fue seleccionada y no puede modificarse.";
    default:
      return "Esta solicitud ya no acepta ofertas.";
  }
}

/** What the partner reads wherever an offer is not possible now: refusal, state and status. */
export function offerClosedMessage(
  refusal: OfferRefusal,
  state: AssignmentState,
  status: RequestStatus,
  deadline: string,
): string {
  return refusal === "not_open"
    ? `Esta solicitud ya no acepta cotizaciones: está en estado «${STATUS_LABELS[status]}».`
    : offerRefusalMessage(refusal, state, deadline);
}

export const canDecline = (state: AssignmentState, status: RequestStatus) =>
  state === "invited" && canDeclineAssignment(status);

/** Only before the partner has offered: an offer already made is not taken back. */
export const canWithdraw = (state: AssignmentState, status: RequestStatus) =>
  state === "invited" && canWithdrawAssignment(status);

/** The state an assignment returns to when a rejected request is reopened. */
export const reopenedState = (state: AssignmentState): AssignmentState =>
  state === "selected" || state === "not_selected" ? "offered" : state;

/** Why an assigned partner's account can no longer answer (deactivated, or no longer a partner). */
export function closedAccountLabel(partner: {
  deactivated_at: string | null;
  role: string;
}): string | null {
  if (partner.deactivated_at !== null) return "Cuenta desactivada";
  return partner.role === "partner" ? null : "Ya no es socio";
}

/**
 * An open round (`assigned`) in which nobody can still answer: every partner declined, was
 * withdrawn, or was left invited on an account that can no longer answer, and no offer came in.
 * The status does not say so by itself.
 */
export function roundWithoutPartners(
  status: RequestStatus,
  assignments: readonly { state: AssignmentState; deactivated_at: string | null; role: string }[],
): boolean {
  return (
    status === "assigned" &&
    assignments.length > 0 &&
    assignments.every(
      (a) =>
        a.state === "declined" ||
        a.state === "withdrawn" ||
        (a.state === "invited" && closedAccountLabel(a) !== null),
    )
  );
}
