import type { DB } from "~/services/db.server";

/**
 * (Re)schedules, inside the caller's write transaction, one reminder 24 h before the request's
 * current quote_deadline for every assignment of the request that is still `invited`.
 * Called after an assignment, a deadline change (extension, buyer edit) and a reopen.
 * The jobs table that runs it lands with the scheduled-work change.
 */
export async function scheduleDeadlineReminders(_tx: DB, _requestId: number): Promise<void> {}
