import { sql, type Kysely } from "kysely";

/**
 * Which browser a failed sign-in came from (ADR 0018): the nonce of its device cookie when it had
 * one for that account, else NULL (an unknown device). Unknown devices are limited per account
 * across every address; a known device by its own failures. Earlier failures count as unknown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE login_failures ADD COLUMN device TEXT`.execute(db);
  await sql`CREATE INDEX login_failures_email_device_created
    ON login_failures (email, device, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX login_failures_email_device_created`.execute(db);
  await sql`ALTER TABLE login_failures DROP COLUMN device`.execute(db);
}
