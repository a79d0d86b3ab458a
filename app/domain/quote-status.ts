import type { RequestStatus } from "../../db/schema";
import type { Tone } from "./tones";

export const REQUEST_STATUSES = [
  "pending",
  "assigned",
  "quoted",
  "approved",
  "paid",
  "rejected",
  "cancelled",
] as const satisfies readonly RequestStatus[];

export function isRequestStatus(value: unknown): value is RequestStatus {
  return typeof value === "string" && (REQUEST_STATUSES as readonly string[]).includes(value);
}

/** Labels buyers and admins read. */
export const STATUS_LABELS: Record<RequestStatus, string> = {
  pending: "Pendiente",
  assigned: "Asignado",
  quoted: "Cotizado",
  approved: "Aprobado",
  paid: "Pagado",
  rejected: "Rechazado",
  cancelled: "Cancelado",
};

/** SPEC §4: the partner's view of a request's status. */
export const PARTNER_STATUS_LABELS: Record<RequestStatus, string> = {
  pending: "Pendiente",
  assigned: "Asignado - Pendiente Cotización",
  quoted: "En Evaluación",
  approved: "Seleccionado",
  paid: "Completado",
  rejected: "Rechazado",
  cancelled: "Cancelado",
};

export const STATUS_TONES: Record<RequestStatus, Tone> = {
  pending: "yellow",
  assigned: "blue",
  quoted: "purple",
  approved: "green",
  paid: "green",
  rejected: "red",
  cancelled: "gray",
};

/** Admin view: an assigned request with at least one partner quote reads "Cotización Recibida". */
export function adminStatusLabel(status: RequestStatus, partnerQuoteCount: number): string {
  return status === "assigned" && partnerQuoteCount > 0
    ? "Cotización Recibida"
    : STATUS_LABELS[status];
}

// ---- The status machine (DECISIONS §3). Models ask these helpers inside the write transaction,
// after re-reading the request, so a rule is never checked against a stale status.

/** Who performs an action. Partners act (they quote) but never move a request's status. */
type StatusActor = "admin" | "buyer" | "partner";

export type QuoteAction =
  | "assign_partner"
  | "submit_partner_quote"
  | "approve_partner_quote"
  | "create_manual_quote"
  | "record_buyer_approval"
  | "buyer_approve"
  | "buyer_reject"
  | "submit_payment_proof"
  | "confirm_payment"
  | "buyer_cancel"
  | "buyer_edit"
  | "reopen"
  | "extend_deadline"
  | "decline_assignment"
  | "withdraw_assignment"
  | "revise_official_quote"
  | "request_renewal";

interface Transition {
  readonly to: RequestStatus;
  readonly action: QuoteAction;
  readonly by: StatusActor;
}

/** Every status change the product makes on its own, by from-status. Anything else is refused. */
export const TRANSITIONS: Readonly<Record<RequestStatus, readonly Transition[]>> = {
  pending: [
    { to: "assigned", action: "assign_partner", by: "admin" },
    // A manual official quote may be issued before any partner is assigned.
    { to: "quoted", action: "create_manual_quote", by: "admin" },
    { to: "cancelled", action: "buyer_cancel", by: "buyer" },
  ],
  assigned: [
    { to: "quoted", action: "approve_partner_quote", by: "admin" },
    { to: "quoted", action: "create_manual_quote", by: "admin" },
    { to: "cancelled", action: "buyer_cancel", by: "buyer" },
  ],
  quoted: [
    { to: "approved", action: "record_buyer_approval", by: "admin" },
    { to: "approved", action: "buyer_approve", by: "buyer" },
    { to: "rejected", action: "buyer_reject", by: "buyer" },
    { to: "cancelled", action: "buyer_cancel", by: "buyer" },
  ],
  approved: [
    { to: "paid", action: "confirm_payment", by: "admin" },
    // Only while unpaid: the model also checks that no payment is confirmed.
    { to: "rejected", action: "buyer_reject", by: "buyer" },
    { to: "cancelled", action: "buyer_cancel", by: "buyer" },
  ],
  paid: [],
  // A new round: the operator reopens with a new deadline; partners may revise their offers.
  rejected: [{ to: "assigned", action: "reopen", by: "admin" }],
  cancelled: [],
};

/** Actions allowed in a status that leave it as it is. */
const STATUS_KEEPING_ACTIONS: Readonly<
  Record<RequestStatus, readonly { action: QuoteAction; by: StatusActor }[]>
> = {
  // The buyer edits only while no offer exists (the model checks the offers).
  pending: [
    { action: "buyer_edit", by: "buyer" },
    { action: "extend_deadline", by: "admin" },
  ],
  assigned: [
    // More partners may be assigned while `assigned`.
    { action: "assign_partner", by: "admin" },
    { action: "submit_partner_quote", by: "partner" },
    { action: "decline_assignment", by: "partner" },
    { action: "withdraw_assignment", by: "admin" },
    { action: "buyer_edit", by: "buyer" },
    { action: "extend_deadline", by: "admin" },
  ],
  // A new version of the official quote (the model also checks payments), or the buyer asking
  // for one when it expired (DECISIONS §7).
  quoted: [
    { action: "revise_official_quote", by: "admin" },
    { action: "request_renewal", by: "buyer" },
  ],
  approved: [
    { action: "submit_payment_proof", by: "buyer" },
    { action: "revise_official_quote", by: "admin" },
    { action: "request_renewal", by: "buyer" },
  ],
  // A request an operator already set to `paid` by hand may still have its payment confirmed.
  paid: [{ action: "confirm_payment", by: "admin" }],
  rejected: [],
  cancelled: [],
};

/** Whether the product itself ever moves a request from `from` to `to` (by anyone). */
export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return TRANSITIONS[from].some((t) => t.to === to);
}

/**
 * The status a request has after `action`, or null when the action is refused in `from`
 * (`from` itself when the action is allowed and keeps the status).
 */
export function nextStatus(from: RequestStatus, action: QuoteAction): RequestStatus | null {
  const transition = TRANSITIONS[from].find((t) => t.action === action);
  if (transition) return transition.to;
  return STATUS_KEEPING_ACTIONS[from].some((a) => a.action === action) ? from : null;
}

const canAct = (status: RequestStatus, action: QuoteAction) => nextStatus(status, action) !== null;

/**
 * The operator's status select (DECISIONS §3) may set any other status, outside the table above;
 * it is still written to the history. Setting the current status again is not a change.
 */
export function canAdminOverride(from: RequestStatus, to: RequestStatus): boolean {
  return from !== to;
}

export const canAssignPartner = (s: RequestStatus) => canAct(s, "assign_partner");
export const canPartnerQuote = (s: RequestStatus) => canAct(s, "submit_partner_quote");
export const canApprovePartnerQuote = (s: RequestStatus) => canAct(s, "approve_partner_quote");
export const canCreateManualQuote = (s: RequestStatus) => canAct(s, "create_manual_quote");
export const canRecordBuyerApproval = (s: RequestStatus) => canAct(s, "record_buyer_approval");
export const canBuyerApprove = (s: RequestStatus) => canAct(s, "buyer_approve");
/** The buyer may reject while quoted, or approved and not yet paid (checked against payments too). */
export const canBuyerReject = (s: RequestStatus) => canAct(s, "buyer_reject");
export const canPay = (s: RequestStatus) => canAct(s, "submit_payment_proof");
/** Before payment (the model also checks that no payment is confirmed). */
export const canBuyerCancel = (s: RequestStatus) => canAct(s, "buyer_cancel");
/** While open to offers (the model also checks that no offer exists yet). */
export const canBuyerEdit = (s: RequestStatus) => canAct(s, "buyer_edit");
export const canReopen = (s: RequestStatus) => canAct(s, "reopen");
export const canExtendDeadline = (s: RequestStatus) => canAct(s, "extend_deadline");
export const canDeclineAssignment = (s: RequestStatus) => canAct(s, "decline_assignment");
export const canWithdrawAssignment = (s: RequestStatus) => canAct(s, "withdraw_assignment");
/** Before payment (the model also checks that no proof waits for review). */
export const canReviseOfficialQuote = (s: RequestStatus) => canAct(s, "revise_official_quote");
export const canRequestRenewal = (s: RequestStatus) => canAct(s, "request_renewal");

// ---- History lines that record an event without a status change (DECISIONS §6).

export const HISTORY_EVENT_LABELS: Record<string, string> = {
  declined: "Un socio declinó",
  withdrawn: "Asignación retirada",
  edited: "Solicitud editada",
  deadline_extended: "Plazo ampliado",
  revised: "Nueva versión de la cotización oficial",
  renewal_requested: "Renovación solicitada por el comprador",
  message: "Mensaje",
  relay: "Respuesta a los socios",
  forward: "Pregunta reenviada al comprador",
  assigned: "Socio asignado",
  note: "Nota del equipo",
  proof_replaced: "Comprobante de pago reemplazado",
};

/**
 * Events the buyer's timeline leaves out: those about partners (partners stay anonymous) and the
 * conversations' log (for operators; the buyer reads their own conversation).
 */
export const PARTNER_EVENTS: readonly string[] = [
  "assigned",
  "declined",
  "withdrawn",
  "message",
  "relay",
  "forward",
];

// ---- Buyer progress tracker (SPEC §4).

interface ProgressStep {
  key: string;
  label: string;
  done: boolean;
  /** The step that closed the request (rejected, cancelled): nothing follows it. */
  end?: boolean;
}

const PROGRESS: readonly { status: RequestStatus; key: string; label: string }[] = [
  { status: "pending", key: "created", label: "Solicitud creada" },
  { status: "assigned", key: "assigned", label: "Socio asignado" },
  { status: "quoted", key: "quoted", label: "Cotización recibida" },
  { status: "approved", key: "approved", label: "Cotización aprobada" },
  { status: "paid", key: "paid", label: "Pago completado" },
];

const ENDS: Partial<Record<RequestStatus, string>> = {
  rejected: "Cotización rechazada",
  cancelled: "Solicitud cancelada",
};

/**
 * The buyer's tracker. An open request shows the five steps, done up to its status. A request
 * that ended (rejected, cancelled) shows only the steps it really went through, read from its
 * history (`reached`: every status it has had), then how it ended: it never claims a step that did
 * not happen, nor offers one that never will.
 */
export function progressSteps(rawStatus: string, reached: readonly string[] = []): ProgressStep[] {
  const s: RequestStatus = isRequestStatus(rawStatus) ? rawStatus : "pending";
  const end = ENDS[s];
  if (end === undefined) {
    const at = PROGRESS.findIndex((step) => step.status === s);
    return PROGRESS.map(({ key, label }, index) => ({ key, label, done: index <= at }));
  }
  const happened = PROGRESS.filter(
    (step) => step.status === "pending" || reached.includes(step.status),
  ).map(({ key, label }) => ({ key, label, done: true }));
  return [...happened, { key: s, label: end, done: true, end: true }];
}

// ---- Partner badges (SPEC §4).

export type PartnerFilter = "all" | "pending" | "quoted" | "won";

export function partnerQuoteBadge(
  quote: { is_selected: number } | null | undefined,
): string | null {
  if (!quote) return null;
  return quote.is_selected ? "Cotización Ganadora" : "Cotizado";
}

export function partnerMayEditQuote(
  status: RequestStatus,
  quote: { is_selected: number } | null | undefined,
) {
  return canPartnerQuote(status) && !quote?.is_selected;
}
