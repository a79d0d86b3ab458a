import { sql, type Kysely } from "kysely";

/**
 * Outbox rows are claimed by one worker at a time: `claim_token` says which worker holds the row and
 * `claimed_at` when it took it, so a claim left by a crashed worker can be taken over after a while
 * and a worker that lost its claim cannot overwrite the new holder's result.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox ADD COLUMN claimed_at TEXT`.execute(db);
  await sql`ALTER TABLE mail_outbox ADD COLUMN claim_token TEXT`.execute(db);
  // Rows caught mid-send by this upgrade: the old code stamped next_attempt_at when it claimed.
  await sql`UPDATE mail_outbox SET claimed_at = next_attempt_at WHERE status = 'sending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox DROP COLUMN claim_token`.execute(db);
  await sql`ALTER TABLE mail_outbox DROP COLUMN claimed_at`.execute(db);
}
