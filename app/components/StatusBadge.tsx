import type { RequestStatus } from "../../db/schema";
import { isRequestStatus, STATUS_LABELS, STATUS_TONES } from "~/domain/quote-status";
import { Badge } from "./ui/Badge";

/** A request's status as a coloured badge; `labels` swaps in the partner's wording. */
export function StatusBadge({
  status,
  labels = STATUS_LABELS,
  label,
}: {
  status: string;
  labels?: Record<RequestStatus, string>;
  label?: string;
}) {
  const known: RequestStatus = isRequestStatus(status) ? status : "pending";
  return <Badge tone={STATUS_TONES[known]}>{label ?? labels[known]}</Badge>;
}
