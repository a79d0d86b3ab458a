import type { RequestStatus } from "../../../db/schema";
import { HISTORY_EVENT_LABELS, STATUS_LABELS } from "~/domain/quote-status";
import { ROLE_LABELS, isRole } from "~/domain/roles";
import { formatDateTime } from "~/utils/format";

interface HistoryEntry {
  id: number;
  from_status: RequestStatus | null;
  to_status: RequestStatus;
  note: string | null;
  event?: string | null;
  created_at: string;
  actor_first_name: string | null;
  actor_last_name: string | null;
  actor_role: string | null;
}

/**
 * Every status change of a request: who, when, from, to and the note (DECISIONS §3); events that
 * kept the status (a decline, an extension) read by their name.
 */
export function Timeline({
  entries,
  showActor = true,
}: {
  entries: HistoryEntry[];
  showActor?: boolean;
}) {
  if (entries.length === 0)
    return <p className="text-sm text-slate-700">Sin cambios registrados.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5">
      {entries.map((entry) => (
        <li key={entry.id}>
          <span
            className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full bg-brand-600"
            aria-hidden="true"
          />
          <p className="text-sm font-semibold text-slate-900">
            {entry.event
              ? (HISTORY_EVENT_LABELS[entry.event] ?? STATUS_LABELS[entry.to_status])
              : entry.from_status
                ? `${STATUS_LABELS[entry.from_status]} → ${STATUS_LABELS[entry.to_status]}`
                : STATUS_LABELS[entry.to_status]}
          </p>
          <p className="text-xs text-slate-600">
            <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
            {showActor && entry.actor_first_name
              ? ` · ${entry.actor_first_name} ${entry.actor_last_name ?? ""}${
                  isRole(entry.actor_role) ? ` (${ROLE_LABELS[entry.actor_role]})` : ""
                }`
              : null}
          </p>
          {entry.note ? <p className="mt-1 text-sm text-slate-700">{entry.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
