import type { DeadlineNote } from "~/domain/deadline";
import { formatDate, formatTime } from "~/utils/format";

const NOTE_CLASSES: Record<DeadlineNote["tone"], string> = {
  overdue: "font-semibold text-red-700",
  soon: "font-semibold text-amber-800",
  later: "text-slate-600",
};

/** A deadline's date and time, with the time left (`note`, from the loader) while it matters. */
export function Deadline({ at, note }: { at: string; note: DeadlineNote | null }) {
  return (
    <span>
      {/* Day and hour each kept whole: a narrow column breaks between them, not inside. */}
      <time dateTime={at}>
        <span className="whitespace-nowrap">{formatDate(at)},</span>{" "}
        <span className="whitespace-nowrap">{formatTime(at)}</span>
      </time>
      {note ? (
        <span className={`block text-xs ${NOTE_CLASSES[note.tone]}`} data-testid="deadline-note">
          {note.text}
        </span>
      ) : null}
    </span>
  );
}
