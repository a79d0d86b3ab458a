import { sql, type Kysely } from "kysely";

/**
 * SQLite lets a TEXT PRIMARY KEY hold NULL unless the column says NOT NULL; sessions.id, settings.key
 * and secrets.name never should (db/schema.ts types them as non-null). SQLite cannot add NOT NULL to
 * a column, so each table is rebuilt with the same columns, defaults and indexes.
 */
const now = `(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

const tables = [
  {
    name: "sessions",
    columns: "id, user_id, created_at, last_seen_at, expires_at, user_agent",
    key: "id",
    create: (keyNull: string) => `CREATE TABLE sessions (
      id TEXT PRIMARY KEY${keyNull},
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL DEFAULT ${now},
      last_seen_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      user_agent TEXT
    )`,
    indexes: [
      `CREATE INDEX sessions_user ON sessions (user_id)`,
      `CREATE INDEX sessions_expires ON sessions (expires_at)`,
    ],
  },
  {
    name: "settings",
    columns: "key, value, updated_at",
    key: "key",
    create: (keyNull: string) => `CREATE TABLE settings (
      key TEXT PRIMARY KEY${keyNull},
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL DEFAULT ${now}
    )`,
    indexes: [],
  },
  {
    name: "secrets",
    columns: "name, value, created_at",
    key: "name",
    create: (keyNull: string) => `CREATE TABLE secrets (
      name TEXT PRIMARY KEY${keyNull},
      value TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${now}
    )`,
    indexes: [],
  },
];

async function rebuild(db: Kysely<unknown>, keyNull: string): Promise<void> {
  for (const table of tables) {
    await sql.raw(`ALTER TABLE ${table.name} RENAME TO ${table.name}_old`).execute(db);
    await sql.raw(table.create(keyNull)).execute(db);
    await sql
      .raw(
        `INSERT INTO ${table.name} (${table.columns}) SELECT ${table.columns} FROM ${table.name}_old WHERE ${table.key} IS NOT NULL`,
      )
      .execute(db);
    await sql.raw(`DROP TABLE ${table.name}_old`).execute(db);
    for (const index of table.indexes) await sql.raw(index).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, " NOT NULL");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rebuild(db, "");
}
