import { sql, type Kysely } from "kysely";

/**
 * Sign-in lockout counts failures per account and client address (so nobody can lock a victim out
 * from elsewhere); the owner is warned once per lockout window. One-time form tokens make a double
 * submit of a create form store one row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE login_failures ADD COLUMN client_address TEXT NOT NULL DEFAULT ''`.execute(
    db,
  );
  await sql`DROP INDEX login_failures_email_created`.execute(db);
  await sql`CREATE INDEX login_failures_email_address_created ON login_failures (email, client_address, created_at)`.execute(
    db,
  );
  await sql`ALTER TABLE users ADD COLUMN lockout_alerted_at TEXT`.execute(db);
  await sql`CREATE TABLE form_tokens (
    token TEXT NOT NULL PRIMARY KEY,
    result_path TEXT NOT NULL,
    used_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE form_tokens`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN lockout_alerted_at`.execute(db);
  await sql`DROP INDEX login_failures_email_address_created`.execute(db);
  await sql`ALTER TABLE login_failures DROP COLUMN client_address`.execute(db);
  await sql`CREATE INDEX login_failures_email_created ON login_failures (email, created_at)`.execute(
    db,
  );
}
