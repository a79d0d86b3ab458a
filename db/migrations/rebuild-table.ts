import { sql, type Kysely } from "kysely";

/**
 * SQLite cannot widen a CHECK, add a NOT NULL column without a constant default or drop a UNIQUE in
 * place: the table is rebuilt the way its documentation prescribes (new table, copy, drop, rename,
 * then the indexes and triggers that lived on it, from their stored SQL). Migrations that need it
 * call `inTableRebuild`. Landed migrations depend on this file: change its behaviour only by adding
 * a new function.
 */

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * Recreates `table` from its stored definition changed by `edit`, copying every existing column and
 * filling new ones with the `added` expressions (which may read the old row's columns). Runs inside
 * `inTableRebuild`.
 */
export async function rebuildTable(
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

/**
 * Runs `work` (table rebuilds and other statements) in one IMMEDIATE transaction with foreign keys
 * off and the legacy rename on, and checks every foreign key before COMMIT: if anything fails or the
 * process dies, nothing is half-done.
 */
export async function inTableRebuild(db: Kysely<unknown>, work: () => Promise<void>) {
  // Foreign keys must be off while a parent table is dropped and renamed (no cascade, no dangling
  // check); the pragma does nothing inside a transaction, so it is set before BEGIN.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  // Triggers on other tables name the rebuilt table; the modern RENAME re-checks them while the
  // table is briefly gone and fails. The legacy rename only renames (as the procedure expects).
  await sql`PRAGMA legacy_alter_table = ON`.execute(db);
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    await work();
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
