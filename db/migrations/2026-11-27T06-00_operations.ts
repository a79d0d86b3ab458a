import { sql, type Kysely } from "kysely";

/**
 * Operations (issue 15): one row per whole backup (`npm run backup`), so the system page can say
 * when the last good one was and warn when it is old. A failed run is recorded too, with its error.
 */
const statements = [
  `CREATE TABLE backup_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    archive TEXT NOT NULL,
    ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
    size_bytes INTEGER,
    file_count INTEGER,
    error TEXT,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX backup_runs_latest ON backup_runs (ok, finished_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE backup_runs`.execute(db);
}
