import type { PaymentMethod, PaymentStatus } from "../../db/schema";
import type { Tone } from "./tones";

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  transfer: "Transferencia bancaria",
  check: "Cheque",
  cash: "Efectivo",
  other: "Otro",
};

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
