import type { PaymentMethod, PaymentStatus } from "../../db/schema";
import type { Tone } from "./tones";

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  transfer: "Transferencia bancaria",
  check: "Cheque",
  cash: "Efectivo",
  other: "Otro",
};

/** Every payment method, in the order the forms offer them. */
export const PAYMENT_METHODS = Object.keys(PAYMENT_METHOD_LABELS) as [
  PaymentMethod,
  ...PaymentMethod[],
];

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: "Pendiente",
  confirmed: "Confirmado",
  rejected: "Rechazado",
};

export const PAYMENT_STATUS_TONES: Record<PaymentStatus, Tone> = {
  pending: "yellow",
  confirmed: "green",
  rejected: "red",
};

/** A payment's receipt number as the receipt and the pages print it: "REC-000042". */
export function receiptNumber(paymentId: number): string {
  return `REC-${String(paymentId).padStart(6, "0")}`;
}

/** A payment whose proof the buyer sent and an operator has not yet confirmed or rejected. */
export function isProofInReview(p: {
  status: PaymentStatus;
  submitted_at: string | null;
}): boolean {
  return p.status === "pending" && p.submitted_at !== null;
}

/**
 * Why the official quote cannot get a new version because of its payments, or null: once paid it
 * is final, and while a proof waits for review the amount the buyer paid against must not move.
 */
export function revisionBlockedByPayments(
  payments: readonly { status: PaymentStatus; submitted_at: string | null }[],
): { code: "conflict" | "locked"; message: string } | null {
  if (payments.some((p) => p.status === "confirmed"))
    return { code: "conflict", message: "La cotización ya fue pagada: no se puede revisar." };
  if (payments.some(isProofInReview))
    return {
      code: "locked",
      message:
        "Hay un comprobante de pago en revisión: confírmalo o recházalo antes de emitir una nueva versión.",
    };
  return null;
}
