import { sql, type Kysely } from "kysely";

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

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * Recreates `table` from its stored definition changed by `edit`, copying every existing column and
 * filling new ones with the `added` expressions (which may read the old row's columns).
 * (A copy of the function in 2026-11-26T04-00_sourcing_round: landed migrations are frozen and
 * import nothing from the app.)
 */
async function rebuildTable(
  db: Kysely<unknown>,
  table: string,
  edit: (create: string) => string,
  added: Record<string, string> = {},
) {
  const { rows } = await sql<SchemaRow>`SELECT type, name, sql FROM sqlite_schema
    WHERE tbl_name = ${table} ORDER BY type = 'table' DESC`.execute(db);
  const [definition, ...dependents] = rows;
  const create = edit(definition!.sql!);
  if (create === definition!.sql) throw new Error(`La tabla ${table} no cambió`);
  const { rows: columns } = await sql<{
    name: string;
  }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
  const names = [...columns.map((c) => c.name), ...Object.keys(added)].join(", ");
  const values = [...columns.map((c) => c.name), ...Object.values(added)].join(", ");
  const temporary = `${table}_rebuilt`;
  await sql.raw(create.replace(/^CREATE TABLE "?\w+"?/, `CREATE TABLE ${temporary}`)).execute(db);
  await sql.raw(`INSERT INTO ${temporary} (${names}) SELECT ${values} FROM ${table}`).execute(db);
  await sql.raw(`DROP TABLE ${table}`).execute(db);
  await sql.raw(`ALTER TABLE ${temporary} RENAME TO ${table}`).execute(db);
  // Automatic indexes (UNIQUE, PRIMARY KEY) have no SQL and come back with the table definition.
  for (const dependent of dependents) {
    if (dependent.sql) await sql.raw(dependent.sql).execute(db);
  }
}

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
  // Foreign keys must be off while a table is dropped and renamed; the pragma does nothing inside a
  // transaction, so it is set before BEGIN.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  await sql`PRAGMA legacy_alter_table = ON`.execute(db);
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    await rebuildTable(db, "auth_tokens", (create) =>
      create.replace(
        TOKEN_PURPOSE_CHECK,
        "CHECK (purpose IN ('verify_email','reset_password','invitation'))",
      ),
    );
    for (const statement of statements) await sql.raw(statement).execute(db);
    const { rows: broken } = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.length > 0) throw new Error(`${broken.length} claves foráneas rotas`);
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  } finally {
    await sql`PRAGMA legacy_alter_table = OFF`.execute(db);
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error(
    "La desactivación de usuarios no se puede deshacer: restaura una copia de seguridad.",
  );
}
