import type { AssignmentState, RequestStatus } from "../../../db/schema";
import { StatusBadge } from "~/components/StatusBadge";
import { Badge } from "~/components/ui/Badge";
import { partnerAssignmentBadge } from "~/domain/assignment";
import { PARTNER_STATUS_LABELS, partnerQuoteBadge } from "~/domain/quote-status";

/** SPEC §4: the request status in the partner's words, plus "Cotizado" / "Cotización Ganadora". */
export function PartnerBadges({
  status,
  isSelected,
}: {
  status: string;
  /** null when the partner has not quoted. */
  isSelected: number | null;
}) {
  const quoteLabel = partnerQuoteBadge(isSelected === null ? null : { is_selected: isSelected });
  return (
    <span className="flex flex-wrap items-center gap-2">
      <StatusBadge status={status} labels={PARTNER_STATUS_LABELS} />
      {quoteLabel ? <Badge tone={isSelected ? "green" : "blue"}>{quoteLabel}</Badge> : null}
    </span>
  );
}

/**
 * Where the partner's own part in a request stands (their assignment's state and what became of the
 * request), one truthful badge: a lost deal never reads "Seleccionado", a rejected win never
 * "Cotización Ganadora".
 */
export function AssignmentBadge({
  state,
  status,
}: {
  state: AssignmentState;
  status: RequestStatus;
}) {
  const badge = partnerAssignmentBadge(state, status);
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}
