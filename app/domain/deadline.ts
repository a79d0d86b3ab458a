import type { AssignmentState, RequestStatus } from "../../db/schema";
import { offerRefusal } from "./assignment";

/**
 * The deadline for offers (DECISIONS §6) as lists show and filter it. Times are computed where the
 * page is built (the loader) and sent as text, so the server's and the browser's clocks never
 * disagree while the page hydrates.
 */

/** Requests still open to offers: waiting for partners, or with partners invited. */
export const OPEN_STATUSES = ["pending", "assigned"] as const satisfies readonly RequestStatus[];

export function isOpenStatus(status: RequestStatus): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

/** The desk's «Plazo» filter: open requests due within the next 24 h, or past their deadline. */
export type DeadlineFilter = "due24h" | "overdue";
export const DEADLINE_FILTER_LABELS: Record<DeadlineFilter, string> = {
  due24h: "Vence en 24 h",
  overdue: "Plazo vencido",
};
export const DUE_SOON_MS = 24 * 3_600_000;

export function isDeadlineFilter(value: unknown): value is DeadlineFilter {
  return value === "due24h" || value === "overdue";
}

/**
 * The desk's older names for the request list's order (newest first, soonest deadline first),
 * still accepted by listAdminRequests beside the list's `orden` (app/domain/list-filters).
 */
export type RequestSort = "newest" | "deadline";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The time left before `deadline` in a few words: «Vence en 3 días» (two days or more, to the
 * nearest day; the exact date is shown beside it), «Vence en 5 h» (whole hours, never rounded up),
 * «Vence en 12 min», or «Plazo vencido» from the deadline's instant on (as isPastDeadline says).
 */
export function timeLeftLabel(deadline: string, now: Date = new Date()): string {
  const left = Date.parse(deadline) - now.getTime();
  if (!(left > 0)) return "Plazo vencido";
  if (left < HOUR) return `Vence en ${Math.max(1, Math.floor(left / MINUTE))} min`;
  if (left < 2 * DAY) return `Vence en ${Math.floor(left / HOUR)} h`;
  return `Vence en ${Math.round(left / DAY)} días`;
}

/** What a row says beside its deadline, and how loudly. */
export interface DeadlineNote {
  text: string;
  /** overdue: passed; soon: within 24 h; later: further off. */
  tone: "overdue" | "soon" | "later";
}

/** The time left before the deadline of something still open (an open request, an open offer). */
export function deadlineNote(deadline: string, now: Date = new Date()): DeadlineNote {
  const left = Date.parse(deadline) - now.getTime();
  return {
    text: timeLeftLabel(deadline, now),
    tone: !(left > 0) ? "overdue" : left <= DUE_SOON_MS ? "soon" : "later",
  };
}

/**
 * A partner's row: the time left while they may still offer, «Plazo vencido» when only the deadline
 * stops them, and null when their part is closed for another reason (declined, withdrawn, decided,
 * or the request no longer takes offers).
 */
export function offerDeadlineNote(
  state: AssignmentState,
  status: RequestStatus,
  deadline: string,
  now: Date = new Date(),
): DeadlineNote | null {
  const refusal = offerRefusal(state, status, deadline, now);
  return refusal === null || refusal === "deadline" ? deadlineNote(deadline, now) : null;
}

/** An operator's row: the time left while the request is open to offers, else nothing. */
export function requestDeadlineNote(
  status: RequestStatus,
  deadline: string,
  now: Date = new Date(),
): DeadlineNote | null {
  return isOpenStatus(status) ? deadlineNote(deadline, now) : null;
}
