import { sql, type Kysely } from "kysely";

/**
 * reply_to: where an answer to the mail goes (the customer who wrote through the contact form).
 * failed_at: when a mail was given up on, so operators see the newest failures first (the list reads
 * the failed rows through the existing (status, next_attempt_at) index, however much sent mail the
 * outbox holds).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox ADD COLUMN reply_to TEXT`.execute(db);
  await sql`ALTER TABLE mail_outbox ADD COLUMN failed_at TEXT`.execute(db);
  // Until now a mail failed only after its 8th attempt, which also pushed next_attempt_at 128
  // minutes (2^8 × 30 s) past the moment it failed.
  await sql`UPDATE mail_outbox
    SET failed_at = strftime('%Y-%m-%dT%H:%M:%fZ', next_attempt_at, '-128 minutes')
    WHERE status = 'failed'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox DROP COLUMN failed_at`.execute(db);
  await sql`ALTER TABLE mail_outbox DROP COLUMN reply_to`.execute(db);
}
