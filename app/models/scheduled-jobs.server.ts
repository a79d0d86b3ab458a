import type { JobHandlers } from "~/services/jobs.server";
import { DEADLINE_REMINDER, sendDeadlineReminder } from "./deadline-reminder.server";
import { sendThreadDigest, THREAD_DIGEST } from "./thread.server";

/**
 * Every kind of scheduled job this server runs, and the model function that does it. The server's
 * poller (services/background, started from entry.server) runs these and no other kinds.
 */
export const JOB_HANDLERS: JobHandlers = {
  [DEADLINE_REMINDER]: sendDeadlineReminder,
  [THREAD_DIGEST]: sendThreadDigest,
};
