import type { PaymentStatus } from "../../db/schema";
import { PAYMENT_STATUS_LABELS, PAYMENT_STATUS_TONES } from "~/domain/payments";
import { Badge } from "./ui/Badge";

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return <Badge tone={PAYMENT_STATUS_TONES[status]}>{PAYMENT_STATUS_LABELS[status]}</Badge>;
}
