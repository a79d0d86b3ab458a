import { sql } from "kysely";
import { db, type DB } from "./db.server";
import { purgeOldFormTokens } from "./form-token.server";
import { runDueJobs, startPolling, type JobHandlers } from "./jobs.server";
import { isReplica } from "./litefs.server";
import { processOutbox } from "./mailer.server";
import { purgeExpiredSessions } from "./session.server";

const SWEEP_INTERVAL_MS = 60 * 60_000;
/** How often each process looks for due jobs and due mail. */
const POLL_INTERVAL_MS = 5_000;
/** Finished jobs are kept this long (to see what ran), then swept. */
const KEEP_DONE_JOBS_MS = 30 * 24 * 60 * 60_000;

/**
 * One tick of the poller: the due jobs, then the due mail (mail whose back-off has passed after a
 * temporary failure, or that no pass after its commit got to). The outbox rows are themselves the
 * mail's durable schedule (due time, claim, attempts), so they are read directly rather than
 * mirrored by one job per mail that could disagree with them. This pass may overlap one started
 * by `deliverSoon`: the outbox's claims keep each mail to one sender.
 */
export async function runScheduledWork(handlers: JobHandlers, database: DB = db): Promise<void> {
  await runDueJobs(database, handlers);
  await processOutbox(database);
}

/**
 * Housekeeping: the rows nobody can use any more, then the planner's statistics for the tables
 * that changed enough to need them (SQLite's periodic `PRAGMA optimize`; see openDatabase).
 */
export async function sweepExpiredData(database: DB = db): Promise<void> {
  await purgeExpiredSessions(database);
  await purgeOldFormTokens(database);
  await database
    .deleteFrom("jobs")
    .where("done_at", "<", new Date(Date.now() - KEEP_DONE_JOBS_MS).toISOString())
    .execute();
  await sql`PRAGMA optimize`.execute(database);
}

declare global {
  var __stopScheduledWork: (() => void) | undefined;
  var __sweepTimer: NodeJS.Timeout | undefined;
}

/**
 * Everything the server does on its own for the life of the process: the scheduled-work poller
 * (at start-up, then every few seconds) running the jobs of `handlers` (models/scheduled-jobs) and
 * the due mail, and an hourly sweep (once at start-up too). Safe to call more than once; does
 * nothing under tests.
 */
export function startBackgroundWork(handlers: JobHandlers): void {
  if (process.env.NODE_ENV === "test") return;
  // On a LiteFS replica the database is read-only: the primary does the work (ADR 0013).
  globalThis.__stopScheduledWork ??= startPolling(
    () => (isReplica() ? Promise.resolve() : runScheduledWork(handlers)),
    POLL_INTERVAL_MS,
  );
  if (globalThis.__sweepTimer) return;
  const sweep = () => {
    if (isReplica()) return;
    sweepExpiredData().catch((error) => console.error("[sweep] failed", error));
  };
  globalThis.__sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS);
  globalThis.__sweepTimer.unref();
  sweep();
}
