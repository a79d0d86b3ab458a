import type { RequestStatus } from "../../db/schema";
import type { BadgeTone } from "~/components/ui/Badge";

export const REQUEST_STATUSES = [
  "pending",
  "assigned",
  "quoted",
  "approved",
  "paid",
  "rejected",
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
};

/** SPEC §4: the partner's view of a request's status. */
export const PARTNER_STATUS_LABELS: Record<RequestStatus, string> = {
  pending: "Pendiente",
  assigned: "Asignado - Pendiente Cotización",
  quoted: "En Evaluación",
  approved: "Seleccionado",
  paid: "Completado",
  rejected: "Rechazado",
};

export const STATUS_TONES: Record<RequestStatus, BadgeTone> = {
  pending: "yellow",
  assigned: "blue",
  quoted: "purple",
  approved: "green",
  paid: "green",
  rejected: "red",
};

/** SPEC §4: unknown statuses are shown as pending. */
export function statusLabel(
  status: string,
  labels: Record<RequestStatus, string> = STATUS_LABELS,
): string {
  return labels[isRequestStatus(status) ? status : "pending"];
}

/** Admin view: an assigned request with at least one partner quote reads "Cotización Recibida". */
export function adminStatusLabel(status: RequestStatus, partnerQuoteCount: number): string {
  return status === "assigned" && partnerQuoteCount > 0
    ? "Cotización Recibida"
    : STATUS_LABELS[status];
}

// ---- The status machine (DECISIONS §3). Each rule is checked again inside the write transaction.

export const canAssignPartner = (s: RequestStatus) => s === "pending" || s === "assigned";
export const canPartnerQuote = (s: RequestStatus) => s === "assigned";
export const canApprovePartnerQuote = (s: RequestStatus) => s === "assigned";
/** A manual official quote may also be issued before any partner is assigned. */
export const canCreateManualQuote = (s: RequestStatus) => s === "pending" || s === "assigned";
export const canSendToBuyer = (s: RequestStatus) => s === "quoted";
export const canBuyerApprove = (s: RequestStatus) => s === "quoted";
/** The buyer may reject while quoted, or approved and not yet paid (checked against payments too). */
export const canBuyerReject = (s: RequestStatus) => s === "quoted" || s === "approved";
export const canPay = (s: RequestStatus) => s === "approved";

// ---- Buyer progress tracker (SPEC §4).

export interface ProgressStep {
  key: string;
  label: string;
  done: boolean;
}

export function progressSteps(rawStatus: string): ProgressStep[] {
  const s: RequestStatus = isRequestStatus(rawStatus) ? rawStatus : "pending";
  const inSet = (...set: RequestStatus[]) => set.includes(s);
  return [
    { key: "created", label: "Solicitud creada", done: s !== "pending" },
    {
      key: "assigned",
      label: "Socio asignado",
      done: inSet("assigned", "quoted", "approved", "paid"),
    },
    { key: "quoted", label: "Cotización recibida", done: inSet("quoted", "approved", "paid") },
    { key: "approved", label: "Cotización aprobada", done: inSet("approved", "paid") },
    { key: "paid", label: "Pago completado", done: s === "paid" },
  ];
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
  return status === "assigned" && !quote?.is_selected;
}
