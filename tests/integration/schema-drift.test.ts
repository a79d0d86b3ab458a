/**
 * db/schema.ts is kept by hand; this checks it against a freshly migrated database: the same tables,
 * the same columns, the same nullability, and a TypeScript type that fits the column's SQLite type.
 * The interfaces are read with the TypeScript compiler, so aliases and Kysely's `Generated<>` /
 * `ColumnType<>` wrappers are resolved as Kysely itself sees them (the select type).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { openDatabase, type DB } from "~/services/db.server";

interface DeclaredColumn {
  nullable: boolean;
  /** "text" for strings and string literals, "number" for numbers. */
  kind: "text" | "number" | "other";
}

interface ActualColumn {
  name: string;
  type: string;
  notnull: 0 | 1;
  pk: number;
}

const SCHEMA_FILE = path.resolve(import.meta.dirname, "../../db/schema.ts");
/** Tables Kysely and SQLite keep for themselves. */
const INTERNAL_TABLES = new Set(["kysely_migration", "kysely_migration_lock", "sqlite_sequence"]);

function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const program = ts.createProgram([SCHEMA_FILE], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    // Only what schema.ts imports (kysely); loading every @types package would triple the time.
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE);
  if (!source) throw new Error("db/schema.ts not found");
  const database = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Database",
  );
  if (!database) throw new Error("db/schema.ts declares no `Database` interface");

  const selectType = (type: ts.Type): ts.Type => {
    const select = type.getProperty("__select__");
    return select ? checker.getTypeOfSymbol(select) : type;
  };
  const kindOf = (type: ts.Type): DeclaredColumn["kind"] => {
    const parts = (type.isUnion() ? type.types : [type]).filter(
      (t) => !(t.flags & ts.TypeFlags.Null),
    );
    if (parts.every((t) => t.flags & ts.TypeFlags.StringLike)) return "text";
    if (parts.every((t) => t.flags & ts.TypeFlags.NumberLike)) return "number";
    return "other";
  };

  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const tableName = member.name.getText(source);
    const tableType = checker.getTypeFromTypeNode(member.type);
    const columns = new Map<string, DeclaredColumn>();
    for (const property of checker.getPropertiesOfType(tableType)) {
      const type = selectType(checker.getTypeOfSymbol(property));
      const nullable = type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Null);
      columns.set(property.name, { nullable, kind: kindOf(type) });
    }
    tables.set(tableName, columns);
  }
  return tables;
}

/** Which TypeScript kind fits a declared SQLite column type (by SQLite's affinity rules). */
function kindForSqlType(sqlType: string): DeclaredColumn["kind"] {
  const type = sqlType.toUpperCase();
  if (type.includes("INT")) return "number";
  if (type.includes("CHAR") || type.includes("CLOB") || type.includes("TEXT")) return "text";
  if (type.includes("REAL") || type.includes("FLOA") || type.includes("DOUB")) return "number";
  return "other";
}

let dir = "";
let sqlite: SQLite.Database;
let declared: Map<string, Map<string, DeclaredColumn>>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-schema-"));
  const file = path.join(dir, "schema.sqlite");
  const database: DB = openDatabase(file);
  await migrateToLatest(database as never);
  await database.destroy();
  sqlite = new SQLite(file, { readonly: true });
  declared = declaredTables();
  // Building a TypeScript program takes seconds, more on a busy machine.
}, 60_000);

afterAll(() => {
  sqlite?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function tableList(): { name: string; type: string }[] {
  return (
    sqlite.prepare("PRAGMA main.table_list").all() as { name: string; type: string }[]
  ).filter((row) => !INTERNAL_TABLES.has(row.name) && !row.name.startsWith("sqlite_"));
}

/**
 * Every table the schema must declare: ordinary tables and virtual (FTS5) tables. The shadow tables
 * an FTS5 table keeps for itself (`<name>_data`, `_idx`, `_content`, `_docsize`, `_config`) are
 * SQLite's business, never read by the app, and left out.
 */
function actualTables(): string[] {
  return tableList()
    .filter((row) => row.type === "table" || row.type === "virtual")
    .map((row) => row.name)
    .sort();
}

/**
 * FTS5 tables: their columns have no declared type and always accept NULL, so only their names are
 * compared (schema.ts may also declare the hidden `rowid` they are joined on).
 */
function virtualTables(): Set<string> {
  return new Set(
    tableList()
      .filter((row) => row.type === "virtual")
      .map((row) => row.name),
  );
}

function actualColumns(table: string): ActualColumn[] {
  return sqlite.prepare(`PRAGMA table_info("${table}")`).all() as ActualColumn[];
}

describe("db/schema.ts matches the migrated database", () => {
  it("declares exactly the tables the migrations create", () => {
    expect([...declared.keys()].sort()).toEqual(actualTables());
  });

  it("declares exactly the columns of every table", () => {
    const virtual = virtualTables();
    for (const table of actualTables()) {
      const columns = actualColumns(table)
        .map((c) => c.name)
        .sort();
      const declaredColumns = [...(declared.get(table)?.keys() ?? [])].filter(
        (name) => !(virtual.has(table) && name === "rowid"),
      );
      expect(declaredColumns.sort(), `columns of ${table}`).toEqual(columns);
    }
  });

  it("marks a column nullable exactly when the database accepts NULL in it", () => {
    const drift: string[] = [];
    const virtual = virtualTables();
    for (const table of actualTables().filter((name) => !virtual.has(name))) {
      for (const column of actualColumns(table)) {
        // An INTEGER PRIMARY KEY is the rowid: SQLite never stores NULL there, whatever `notnull` says.
        const rowid = column.pk === 1 && column.type.toUpperCase() === "INTEGER";
        const acceptsNull = column.notnull === 0 && !rowid;
        const declaredNullable = declared.get(table)?.get(column.name)?.nullable;
        if (declaredNullable !== undefined && declaredNullable !== acceptsNull) {
          drift.push(
            `${table}.${column.name}: database ${acceptsNull ? "NULL" : "NOT NULL"}, schema.ts ${declaredNullable ? "nullable" : "not nullable"}`,
          );
        }
      }
    }
    expect(drift).toEqual([]);
  });

  it("gives every column a TypeScript type that fits its SQLite type", () => {
    const drift: string[] = [];
    const virtual = virtualTables();
    for (const table of actualTables().filter((name) => !virtual.has(name))) {
      for (const column of actualColumns(table)) {
        const declaredKind = declared.get(table)?.get(column.name)?.kind;
        const expected = kindForSqlType(column.type);
        if (declaredKind !== undefined && declaredKind !== expected) {
          drift.push(`${table}.${column.name}: ${column.type} declared as ${declaredKind}`);
        }
      }
    }
    expect(drift).toEqual([]);
  });
});
