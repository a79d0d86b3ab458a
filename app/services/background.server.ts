import { db, type DB } from "./db.server";
import { purgeOldFormTokens } from "./form-token.server";
import { startMailWorker } from "./mailer.server";
import { purgeExpiredSessions } from "./session.server";

const SWEEP_INTERVAL_MS = 60 * 60_000;

/** Housekeeping that keeps the database from growing with rows nobody can use any more. */
export async function sweepExpiredData(database: DB = db): Promise<void> {
  await purgeExpiredSessions(database);
  await purgeOldFormTokens(database);
}

declare global {
  var __sweepTimer: NodeJS.Timeout | undefined;
}

/**
 * Everything the server does on its own for the life of the process: the mail worker and an hourly
 * sweep (once at start-up too). Safe to call more than once; does nothing under tests.
 */
export function startBackgroundWork(): void {
  startMailWorker();
  if (globalThis.__sweepTimer || process.env.NODE_ENV === "test") return;
  const sweep = () => {
    sweepExpiredData().catch((error) => console.error("[sweep] failed", error));
  };
  globalThis.__sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS);
  globalThis.__sweepTimer.unref();
  sweep();
}
