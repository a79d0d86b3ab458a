import { sql, type Kysely } from "kysely";

/**
 * Scheduled work (DECISIONS §6): one row per thing to do later (a deadline reminder, …), so nothing
 * waits only in a process's memory and a job that came due while the server was down runs at the
 * next start.
 * - `key` names the thing (e.g. one reminder per assignment and deadline): scheduling it again
 *   updates the unfinished row instead of adding a second one.
 * - A worker claims a row with one conditional UPDATE that stamps `claimed_at` and its
 *   `claim_token`; finishing the row requires the token, so of any number of processes exactly one
 *   runs it, and a claim left by a crashed process can be taken over once it is stale.
 * - `done_at` / `failed_at` end a job (never both); `attempts` and `last_error` say how it went.
 */
const statements = [
  `CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    "key" TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    run_at TEXT NOT NULL,
    claimed_at TEXT,
    claim_token TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    done_at TEXT,
    failed_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    CHECK (done_at IS NULL OR failed_at IS NULL)
  )`,
  // The poller's question, every few seconds: which unfinished jobs are due, oldest first.
  `CREATE INDEX jobs_due ON jobs (run_at, id) WHERE done_at IS NULL AND failed_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE jobs`.execute(db);
}
