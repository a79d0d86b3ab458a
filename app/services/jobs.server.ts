import crypto from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema";
import { now, type DB } from "./db.server";

/**
 * Durable scheduled work (DECISIONS §6). A job is a row in `jobs`, written inside the transaction
 * of the change that calls for it, so it exists exactly when that change does. Any number of
 * processes (or connections) poll the table: each due job is claimed with one conditional UPDATE
 * that repeats the "due and free" test and stamps a claim token, so exactly one of them runs it,
 * and only the holder of the token can finish it. Nothing is kept in a process's memory: a job that
 * came due while every server was down runs at the next start.
 */

/** A claim not renewed for this long belongs to a crashed process and may be taken over. */
const STALE_CLAIM_MS = 60_000;
/** A live run renews its claim this often, so only a dead process's claim ever goes stale. */
const RENEW_CLAIM_MS = 20_000;
/** Runs of one job, counting runs that never answered because their process died. */
export const MAX_JOB_ATTEMPTS = 5;

/** Wait before the next run after `attempts` failed ones: 1 min, 2, 4, 8 (capped at an hour). */
function retryDelayMs(attempts: number): number {
  return Math.min(2 ** (attempts - 1) * 60_000, 60 * 60_000);
}

/** One run of a job, as its handler sees it. */
export interface JobRun {
  id: number;
  kind: string;
  key: string;
  /** The JSON payload given to `scheduleJob`, parsed; check its shape before use. */
  payload: unknown;
  /** 1 on the first run. */
  attempts: number;
  /** The connection the run was claimed on: the handler does its work through it. */
  database: DB;
  /**
   * Marks the job done inside the handler's own write transaction, so its effect and its
   * completion commit together and a crash between the two cannot repeat the effect. Returns false
   * when this run no longer holds the claim (another process took it over): the handler must then
   * write nothing.
   */
  completeIn(tx: DB): Promise<boolean>;
}

/** Does the job's work; throws when it did not (the job is retried with back-off). */
export type JobHandler = (run: JobRun) => Promise<void>;
/** The handlers a poller runs, by job kind. Jobs of other kinds are left for a process that knows them. */
export type JobHandlers = Readonly<Record<string, JobHandler>>;

interface NewJob {
  kind: string;
  /** Names the thing scheduled (e.g. "deadline_reminder:12:2026-12-04T10:00:00.000Z"). */
  key: string;
  runAt: Date | string;
  payload?: unknown;
}

/**
 * Schedules a job inside the caller's transaction. A key already scheduled and not finished keeps
 * its one row, with the new time and payload; a key already done (or given up on) stays as it is:
 * that thing has happened, and scheduling it again does not make it happen twice. A run already
 * under way finishes as it was claimed.
 */
export async function scheduleJob(tx: DB, job: NewJob): Promise<void> {
  await tx
    .insertInto("jobs")
    .values({
      kind: job.kind,
      key: job.key,
      payload: JSON.stringify(job.payload ?? {}),
      // Normalised, so due times compare as text.
      run_at: new Date(job.runAt).toISOString(),
    })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => ({
          kind: eb.ref("excluded.kind"),
          payload: eb.ref("excluded.payload"),
          run_at: eb.ref("excluded.run_at"),
        }))
        .where("jobs.done_at", "is", null)
        .where("jobs.failed_at", "is", null),
    )
    .execute();
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Unfinished, due at `at`, and either free or held by a claim gone stale. */
const isDue = (at: number) => (eb: ExpressionBuilder<Database, "jobs">) =>
  eb.and([
    eb("done_at", "is", null),
    eb("failed_at", "is", null),
    eb("run_at", "<=", iso(at)),
    eb.or([eb("claimed_at", "is", null), eb("claimed_at", "<=", iso(at - STALE_CLAIM_MS))]),
  ]);

/**
 * One pass: runs every due job of a kind in `handlers`, one by one, through `database`. Returns
 * how many ran to the end without an error.
 */
export async function runDueJobs(
  database: DB,
  handlers: JobHandlers,
  { limit = 50 }: { limit?: number } = {},
): Promise<number> {
  const kinds = Object.keys(handlers);
  if (kinds.length === 0) return 0;
  const due = await database
    .selectFrom("jobs")
    .select("id")
    .where(isDue(Date.now()))
    .where("kind", "in", kinds)
    .orderBy("run_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  let done = 0;
  for (const { id } of due) {
    if (await runJob(database, handlers, id)) done++;
  }
  return done;
}

/** Claims job `id` if it is still due and free, and runs it. True when it ran without an error. */
async function runJob(database: DB, handlers: JobHandlers, id: number): Promise<boolean> {
  const token = crypto.randomUUID();
  const job = await database
    .updateTable("jobs")
    .set((eb) => ({ claimed_at: now(), claim_token: token, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where(isDue(Date.now()))
    .returning(["id", "kind", "key", "payload", "attempts", "last_error"])
    .executeTakeFirst();
  if (!job) return false; // another process claimed it first, or it was finished meanwhile
  const ours = (tx: DB = database) =>
    tx.updateTable("jobs").where("id", "=", id).where("claim_token", "=", token);
  const release = { claimed_at: null, claim_token: null };

  if (job.attempts > MAX_JOB_ATTEMPTS) {
    // Every earlier run ended without an answer: their processes died, maybe because of this job.
    await ours()
      .set({
        ...release,
        failed_at: now(),
        last_error: job.last_error ?? "Every run was interrupted before it finished",
      })
      .execute();
    console.error(`[jobs] gave up on ${job.key}: its runs never finished`);
    return false;
  }

  const handler = handlers[job.kind];
  const renewal = setInterval(() => {
    ours()
      .set({ claimed_at: now() })
      .execute()
      .catch((error) => console.error("[jobs] could not renew a claim", error));
  }, RENEW_CLAIM_MS);
  renewal.unref();
  try {
    await handler({
      id: job.id,
      kind: job.kind,
      key: job.key,
      payload: JSON.parse(job.payload) as unknown,
      attempts: job.attempts,
      database,
      completeIn: async (tx) => {
        const { numUpdatedRows } = await ours(tx)
          .set({ ...release, done_at: now(), last_error: null })
          .executeTakeFirstOrThrow();
        return numUpdatedRows > 0n;
      },
    });
  } catch (error) {
    clearInterval(renewal);
    const failed = job.attempts >= MAX_JOB_ATTEMPTS;
    const message = error instanceof Error ? error.message : String(error);
    // Matches nothing when the handler had completed the job, or lost its claim, before failing.
    const { numUpdatedRows } = await ours()
      .set({
        ...release,
        last_error: message.slice(0, 500),
        ...(failed
          ? { failed_at: now() }
          : { run_at: iso(Date.now() + retryDelayMs(job.attempts)) }),
      })
      .executeTakeFirstOrThrow();
    if (failed && numUpdatedRows > 0n) {
      console.error(`[jobs] gave up on ${job.key} after ${job.attempts} runs`, message);
    }
    return false;
  }
  clearInterval(renewal);
  // Unless the handler completed it itself; a run whose claim was taken over changes nothing.
  await ours()
    .set({ ...release, done_at: now(), last_error: null })
    .execute();
  return true;
}

/**
 * Runs `work` now (so what came due while the process was down runs at start-up) and then every
 * `intervalMs` after the previous run ended, so runs never overlap. The one timer is unref'd: it
 * never keeps the process alive. Returns a function that stops it.
 */
export function startPolling(work: () => Promise<unknown>, intervalMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      await work();
    } catch (error) {
      console.error("[jobs] scheduled work failed", error);
    }
    if (stopped) return;
    timer = setTimeout(() => void tick(), intervalMs);
    timer.unref();
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
