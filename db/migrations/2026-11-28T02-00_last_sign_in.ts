import { sql, type Kysely } from "kysely";

/** The stored hash of an invited account that has no password yet (app/models/user.server.ts). */
const NO_PASSWORD_HASH = "!no-password";

/**
 * users.last_sign_in_at: when the account last started a session (sign-in, or accepting an
 * invitation); NULL while it never has. The first sign-in is greeted as a welcome, later ones as a
 * return. Sessions are deleted at sign-out and expiry, so they cannot tell that by themselves.
 *
 * Backfill: the newest session an account still has. An activated, verified account without one
 * may well have signed in before this column existed and signed out since; its verification time
 * (the earliest it could have signed in) stands in, so it keeps the return greeting it had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN last_sign_in_at TEXT`.execute(db);
  await sql`UPDATE users SET last_sign_in_at = COALESCE(
      (SELECT max(created_at) FROM sessions WHERE sessions.user_id = users.id),
      CASE WHEN password_hash != ${sql.lit(NO_PASSWORD_HASH)} THEN email_verified_at END
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN last_sign_in_at`.execute(db);
}
