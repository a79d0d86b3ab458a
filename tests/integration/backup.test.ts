/**
 * Whole backups through real processes: a writer keeps committing requests with files (and
 * replacing earlier files) while `npm run backup` runs; the archive is restored by `npm run
 * restore` into a fresh folder, which must pass integrity_check and hold every write acknowledged
 * before the backup began, every file a row points to, with the bytes that were written.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import SQLite from "better-sqlite3";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { FILE_KEY_COLUMNS } from "~/services/storage.server";
import type { BackupManifest } from "~/services/backup.server";
import { db } from "~/services/db.server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-backup-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(script: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(TSX, [path.join(ROOT, script), ...args], { cwd: ROOT, env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

const sha = (file: string) =>
  crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

function freshFolder(name: string): NodeJS.ProcessEnv {
  const dir = path.join(work, name);
  return {
    ...process.env,
    DATABASE_PATH: path.join(dir, "app.sqlite"),
    UPLOADS_DIR: path.join(dir, "uploads"),
  };
}

describe("whole backup during writes, restored into a fresh folder", () => {
  const archive = path.join(work, "copia.tar.gz");
  /** key → sha256 of every file the writer stored. */
  const written = new Map<string, string>();
  let ackedBeforeBackup: number[] = [];

  it("backs up while a writer commits, and records the run", async () => {
    const writer = spawn(
      TSX,
      [path.join(import.meta.dirname, "processes/write-loop.ts"), "--until-stdin-closes"],
      {
        cwd: ROOT,
        env: process.env,
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    const acks: number[] = [];
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const finished = new Promise<void>((resolve) => writer.on("exit", () => resolve()));
    readline.createInterface({ input: writer.stdout }).on("line", (line) => {
      if (line.startsWith("ready ")) ready();
      const [word, id, key, digest] = line.split(" ");
      if (word !== "ack") return;
      written.set(key, digest);
      acks.push(Number(id));
    });
    await isReady;
    while (acks.length < 40) await new Promise((r) => setTimeout(r, 50));
    ackedBeforeBackup = [...new Set(acks)];
    const backup = await run("scripts/backup.ts", [archive]);
    const ackedDuringBackup = acks.length - ackedBeforeBackup.length;
    writer.stdin.end();
    await finished;

    expect(backup.out).toContain("Copia de seguridad escrita");
    expect(backup.code).toBe(0);
    // The writer really was writing while the backup ran.
    expect(ackedDuringBackup).toBeGreaterThan(0);
    const run_ = await db
      .selectFrom("backup_runs")
      .selectAll()
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(run_).toMatchObject({ archive, ok: 1, error: null });
    expect(run_.file_count).toBeGreaterThanOrEqual(ackedBeforeBackup.length);
  }, 120_000);

  it("restores into an empty folder: integrity ok, every acknowledged row and file present", async () => {
    const target = freshFolder("restaurada");
    const restore = await run("scripts/restore.ts", [archive], target);
    expect(restore.out).toContain("integrity_check: ok");
    expect(restore.code).toBe(0);

    const restored = new SQLite(target.DATABASE_PATH!, { readonly: true });
    expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    const rows = restored.prepare("SELECT id, file_key FROM quote_requests").all() as {
      id: number;
      file_key: string;
    }[];
    const ids = new Set(rows.map((r) => r.id));
    console.log(
      `Copia completa: ${ackedBeforeBackup.length} solicitudes confirmadas antes de empezar, ` +
        `${rows.length} restauradas, ${rows.length} archivos comprobados por sha256.`,
    );
    for (const id of ackedBeforeBackup) expect(ids.has(id), `solicitud ${id}`).toBe(true);
    for (const row of rows) {
      const file = path.join(target.UPLOADS_DIR!, row.file_key);
      expect(fs.existsSync(file), row.file_key).toBe(true);
      expect(sha(file), row.file_key).toBe(written.get(row.file_key));
    }
    for (const [table, column] of FILE_KEY_COLUMNS) {
      const keys = restored
        .prepare(`SELECT ${column} AS key FROM ${table} WHERE ${column} IS NOT NULL`)
        .all() as { key: string }[];
      for (const { key } of keys)
        expect(fs.existsSync(path.join(target.UPLOADS_DIR!, key)), key).toBe(true);
    }
    restored.close();
  }, 60_000);

  it("refuses to restore over existing data without --force, and overwrites with it", async () => {
    const target = freshFolder("restaurada");
    const before = fs.statSync(target.DATABASE_PATH!).mtimeMs;
    const refused = await run("scripts/restore.ts", [archive], target);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("No se restaura sobre datos existentes");
    expect(fs.statSync(target.DATABASE_PATH!).mtimeMs).toBe(before);

    const forced = await run("scripts/restore.ts", [archive, "--force"], target);
    expect(forced.code).toBe(0);
  }, 60_000);

  it("refuses an archive whose file does not match its checksum, writing nothing", async () => {
    const unpacked = path.join(work, "desempaquetada");
    fs.mkdirSync(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const manifest = JSON.parse(
      fs.readFileSync(path.join(unpacked, "manifest.json"), "utf8"),
    ) as BackupManifest;
    fs.appendFileSync(path.join(unpacked, "files", manifest.files[0].key), "alterado");
    const tampered = path.join(work, "alterada.tar.gz");
    await tar.create({ gzip: true, file: tampered, cwd: unpacked }, fs.readdirSync(unpacked));

    const target = freshFolder("alterada");
    const refused = await run("scripts/restore.ts", [tampered], target);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`La suma de verificación del archivo ${manifest.files[0].key}`);
    expect(fs.existsSync(target.DATABASE_PATH!)).toBe(false);
  }, 60_000);
});

describe("the file columns a backup carries", () => {
  it("lists every *_key column of the schema", async () => {
    const sqlite = new SQLite(process.env.DATABASE_PATH!, { readonly: true });
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    const found = tables.flatMap(({ name }) =>
      (sqlite.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[])
        .filter((c) => c.name.endsWith("_key"))
        .map((c) => `${name}.${c.name}`),
    );
    sqlite.close();
    expect(found.sort()).toEqual(FILE_KEY_COLUMNS.map(([t, c]) => `${t}.${c}`).sort());
  });
});
