/**
 * What `synchronous=FULL` costs against `NORMAL` in WAL mode (ADR 0012): commits per second of a
 * small write transaction (`BEGIN IMMEDIATE`, one insert, `COMMIT`), the shape of the app's writes,
 * on the disk that holds DATABASE_PATH's folder (tmpfs would hide the fsync).
 * Usage: npx tsx bench/durability.ts [SECONDS_PER_MODE=5]
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { env } from "../app/services/env.server";

const seconds = Number(process.argv[2] ?? 5);
const dir = fs.mkdtempSync(path.join(path.dirname(env.databasePath), ".bench-durability-"));

function measure(mode: "NORMAL" | "FULL"): number {
  const file = path.join(dir, `${mode}.sqlite`);
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`synchronous = ${mode}`);
  sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, amount_cents INTEGER, note TEXT)");
  const insert = sqlite.prepare("INSERT INTO t (amount_cents, note) VALUES (?, ?)");
  const begin = sqlite.prepare("BEGIN IMMEDIATE");
  const commit = sqlite.prepare("COMMIT");
  const end = Date.now() + seconds * 1000;
  let commits = 0;
  while (Date.now() < end) {
    begin.run();
    insert.run(commits * 100, "pago de prueba");
    commit.run();
    commits++;
  }
  sqlite.close();
  return commits / seconds;
}

try {
  for (const mode of ["NORMAL", "FULL"] as const) {
    const rate = measure(mode);
    console.log(
      `synchronous=${mode}: ${Math.round(rate)} commits/s (${(1000 / rate).toFixed(3)} ms each)`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
