import { sql, type Kysely } from "kysely";
import { inTableRebuild, rebuildTable } from "./rebuild-table";

/**
 * Operators deactivate and reactivate accounts, and invite new users:
 * - users: `deactivated_at` (null while the account is active) and `deactivated_by` (the operator
 *   who did it; null again if that account is ever removed). Partial indexes keep the back office's
 *   "Desactivados" and "Invitación pendiente" filters one index range among 10,000 users.
 * - auth_tokens: the purpose `invitation` (the set-password link of an invited account). SQLite
 *   cannot change a CHECK in place, so the table is rebuilt the way its documentation prescribes
 *   (new table, copy, drop, rename, then its indexes from their stored SQL), with foreign keys off
 *   and in one IMMEDIATE transaction: if the process dies, nothing is half-done.
 */

const TOKEN_PURPOSE_CHECK = "CHECK (purpose IN ('verify_email','reset_password'))";

/** The stored hash of an account that has no password yet (app/models/user.server.ts). */
const NO_PASSWORD_HASH = "!no-password";

const statements = [
  `ALTER TABLE users ADD COLUMN deactivated_at TEXT`,
  `ALTER TABLE users ADD COLUMN deactivated_by INTEGER REFERENCES users(id) ON DELETE SET NULL`,
  `CREATE INDEX users_deactivated ON users (created_at, id) WHERE deactivated_at IS NOT NULL`,
  `CREATE INDEX users_invited ON users (created_at, id) WHERE password_hash = '${NO_PASSWORD_HASH}'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await inTableRebuild(db, async () => {
    await rebuildTable(db, "auth_tokens", (create) =>
      create.replace(
        TOKEN_PURPOSE_CHECK,
        "CHECK (purpose IN ('verify_email','reset_password','invitation'))",
      ),
    );
    for (const statement of statements) await sql.raw(statement).execute(db);
  });
}

export async function down(): Promise<void> {
  throw new Error(
    "La desactivación de usuarios no se puede deshacer: restaura una copia de seguridad.",
  );
}
