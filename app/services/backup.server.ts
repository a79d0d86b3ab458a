import crypto from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import SQLite from "better-sqlite3";
import * as tar from "tar";
import type { DB } from "./db.server";
import { env } from "./env.server";
import { FILE_KEY_COLUMNS, openStoredFile, putStoredFile, storage } from "./storage.server";
import { APP_VERSION } from "./version.server";

/**
 * Whole backups (`npm run backup -- FILE`, `npm run restore -- FILE`): one tar.gz holding a
 * consistent snapshot of the database (`VACUUM INTO`, one read transaction, so it never restarts
 * under writes), every stored file that snapshot points to, and a manifest (row counts, sha256 of
 * every file, app version). Restoring verifies all of it before anything is written, then writes
 * the files before the database, so no row ever points to a missing file.
 */

export const MANIFEST = "manifest.json";
const DATABASE = "database.sqlite";
const FILES = "files";

export interface BackupManifest {
  format: 1;
  app: { version: string };
  createdAt: string;
  database: { path: string; bytes: number; sha256: string; rows: Record<string, number> };
  files: { key: string; bytes: number; sha256: string }[];
}

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** Tables with their own rows (FTS shadow tables and SQLite's own are left out). */
function rowCounts(sqlite: SQLite.Database): Record<string, number> {
  const tables = sqlite
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string; sql: string | null }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL/i.test(t.sql ?? "")).map((t) => t.name);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    if (name.startsWith("sqlite_") || virtual.some((v) => name.startsWith(`${v}_`))) continue;
    const quoted = `"${name.replace(/"/g, '""')}"`;
    counts[name] = (sqlite.prepare(`SELECT count(*) AS n FROM ${quoted}`).get() as { n: number }).n;
  }
  return counts;
}

/** The storage keys the rows of a database file point to. */
function keysIn(sqlite: SQLite.Database): Set<string> {
  const keys = new Set<string>();
  for (const [table, column] of FILE_KEY_COLUMNS) {
    const rows = sqlite
      .prepare(`SELECT "${column}" AS key FROM "${table}" WHERE "${column}" IS NOT NULL`)
      .all() as { key: string }[];
    for (const row of rows) keys.add(row.key);
  }
  return keys;
}

/** A key as a path inside the archive's files/ folder (keys are relative, never `..`). */
function fileEntry(dir: string, key: string): string {
  const full = path.resolve(dir, FILES, key);
  if (!full.startsWith(path.resolve(dir, FILES) + path.sep))
    throw new Error(`Clave inválida: ${key}`);
  return full;
}

/**
 * How long to keep taking snapshots while files are replaced between a snapshot and their copy:
 * each new snapshot only has the files written since the last one to fetch, so under a steady
 * stream of edits one soon gets them all; a fixed handful of tries could run out on a busy machine.
 */
const SNAPSHOT_PATIENCE_MS = 60_000;

export async function createBackup(
  archive: string,
): Promise<{ manifest: BackupManifest; bytes: number }> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "cotizahub-backup-"));
  try {
    const snapshot = path.join(work, DATABASE);
    const copied = new Map<string, { bytes: number; sha256: string }>();
    let keys = new Set<string>();
    const started = Date.now();
    for (;;) {
      await fs.rm(snapshot, { force: true });
      const live = new SQLite(env.databasePath, { readonly: true, fileMustExist: true });
      try {
        live.pragma("busy_timeout = 5000");
        live.prepare("VACUUM INTO ?").run(snapshot);
      } finally {
        live.close();
      }
      const copy = new SQLite(snapshot, { readonly: true });
      try {
        keys = keysIn(copy);
      } finally {
        copy.close();
      }
      // A file replaced after the snapshot may already be gone: take a newer snapshot (the files
      // copied so far are kept) until every file it points to is in hand.
      const missing: string[] = [];
      for (const key of keys) {
        if (copied.has(key)) continue;
        const body = await openStoredFile(key);
        if (!body) {
          missing.push(key);
          continue;
        }
        const target = fileEntry(work, key);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await pipeline(body.stream, createWriteStream(target));
        copied.set(key, { bytes: (await fs.stat(target)).size, sha256: await sha256(target) });
      }
      if (missing.length === 0) break;
      if (Date.now() - started > SNAPSHOT_PATIENCE_MS)
        throw new Error(
          `Faltan ${missing.length} archivo(s) a los que apunta la base de datos: ${missing.slice(0, 10).join(", ")}`,
        );
    }
    for (const key of copied.keys()) {
      if (!keys.has(key)) {
        await fs.rm(fileEntry(work, key));
        copied.delete(key);
      }
    }
    await fs.mkdir(path.join(work, FILES), { recursive: true });

    const copy = new SQLite(snapshot, { readonly: true });
    let rows: Record<string, number>;
    try {
      rows = rowCounts(copy);
    } finally {
      copy.close();
    }
    const manifest: BackupManifest = {
      format: 1,
      app: { version: APP_VERSION },
      createdAt: new Date().toISOString(),
      database: {
        path: DATABASE,
        bytes: (await fs.stat(snapshot)).size,
        sha256: await sha256(snapshot),
        rows,
      },
      files: [...copied]
        .map(([key, file]) => ({ key, ...file }))
        .sort((a, b) => (a.key < b.key ? -1 : 1)),
    };
    await fs.writeFile(path.join(work, MANIFEST), JSON.stringify(manifest, null, 2));

    const destination = path.resolve(archive);
    await fs.mkdir(path.dirname(destination), { recursive: true });
    const partial = `${destination}.partial-${process.pid}`;
    try {
      await tar.create({ gzip: true, file: partial, cwd: work, portable: true }, [
        MANIFEST,
        DATABASE,
        FILES,
      ]);
      const handle = await fs.open(partial, "r");
      await handle.sync();
      await handle.close();
      await fs.rename(partial, destination);
    } finally {
      await fs.rm(partial, { force: true });
    }
    return { manifest, bytes: (await fs.stat(destination)).size };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Writes the outcome of a backup to the live database, for the system page. */
export async function recordBackup(
  database: DB,
  run: { archive: string; ok: boolean; bytes?: number; files?: number; error?: string },
): Promise<void> {
  await database
    .insertInto("backup_runs")
    .values({
      archive: run.archive,
      ok: run.ok ? 1 : 0,
      size_bytes: run.bytes ?? null,
      file_count: run.files ?? null,
      error: run.error?.slice(0, 2000) ?? null,
    })
    .execute();
}

export class RestoreRefused extends Error {}

/** The tar entry types of a regular file (`File`, and the older spellings of it) and a folder. */
const STAGED_TYPES = new Set(["File", "OldFile", "ContiguousFile", "Directory"]);

const ENTRY_KINDS: Record<string, string> = {
  Link: "un enlace duro",
  SymbolicLink: "un enlace simbólico",
  CharacterDevice: "un dispositivo de caracteres",
  BlockDevice: "un dispositivo de bloques",
  FIFO: "una tubería con nombre (FIFO)",
};

/** An entry's name as printed to the operator: control characters would rewrite their terminal. */
const shownName = (name: string) =>
  // eslint-disable-next-line no-control-regex -- these are what is being removed
  name.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?").slice(0, 300);

/**
 * Reads the whole archive once before anything is staged. A backup holds only regular files and
 * folders at relative paths (createBackup writes nothing else); a link could send a later entry
 * outside the staging folder, a FIFO hangs whoever reads it and a device node opens the machine's
 * hardware. Any other entry is refused here by name, and a damaged archive fails here too, before
 * a byte is written.
 */
async function checkEntries(archive: string): Promise<void> {
  let refusal: string | null = null;
  const listed = tar.list({
    file: archive,
    strict: true,
    onReadEntry: (entry) => {
      if (refusal) return;
      const name = shownName(entry.path);
      if (!STAGED_TYPES.has(entry.type)) {
        const kind = ENTRY_KINDS[entry.type] ?? `una entrada de tipo ${entry.type}`;
        refusal = `la entrada «${name}» es ${kind}`;
      } else if (path.isAbsolute(entry.path) || entry.path.split(/[\\/]/).includes("..")) {
        refusal = `la entrada «${name}» apunta fuera de la copia`;
      }
    },
  });
  // The refused entry is the answer even if the archive is also damaged further on.
  await listed.catch((error: unknown) => {
    if (!refusal) throw error;
  });
  if (refusal)
    throw new RestoreRefused(
      `La restauración falló: ${refusal}; una copia de seguridad solo contiene archivos y carpetas. No se escribió nada.`,
    );
}

/** Whether DATABASE_PATH or the file storage already holds data a restore would overwrite. */
export async function liveDataPresent(): Promise<string | null> {
  const stat = await fs.stat(env.databasePath).catch(() => null);
  if (stat && stat.size > 0) return `ya existe la base de datos ${env.databasePath}`;
  for await (const file of storage().list())
    return `el almacenamiento de archivos no está vacío (${file.key})`;
  return null;
}

/**
 * Restores an archive written by `createBackup` into DATABASE_PATH and the file storage. Everything
 * is checked first (checksums, `PRAGMA integrity_check`, row counts, every file a row points to);
 * existing data is overwritten only with `force` (the server must be stopped).
 */
export async function restoreBackup(
  archive: string,
  { force = false }: { force?: boolean } = {},
): Promise<BackupManifest> {
  const present = await liveDataPresent();
  if (present && !force)
    throw new RestoreRefused(
      `No se restaura sobre datos existentes: ${present}. Detén el servidor y usa --force para sobrescribirlos.`,
    );
  await checkEntries(path.resolve(archive));
  // Staged beside the uploads so files move into local storage by a rename.
  const tmp = path.join(env.uploadsDir, ".tmp");
  await fs.mkdir(tmp, { recursive: true });
  const work = await fs.mkdtemp(path.join(tmp, "restore-"));
  try {
    // Not strict: a strict extraction rejects at the first problem while it is still writing the
    // other entries, and the cleanup below then races those writes (ENOTEMPTY) and leaves the
    // folder behind. Problems are collected and raised once every entry is settled.
    const problems: string[] = [];
    await tar.extract({
      file: path.resolve(archive),
      cwd: work,
      onwarn: (code, message, data) => {
        const entry = (data.entry as { path?: string } | undefined)?.path;
        const reason = data.code ?? code;
        problems.push(entry ? `«${shownName(entry)}»: ${reason}` : `${reason}: ${message}`);
      },
    });
    if (problems.length)
      throw new Error(`La copia no se pudo desempaquetar (${problems.slice(0, 5).join("; ")}).`);
    const manifest = JSON.parse(
      await fs.readFile(path.join(work, MANIFEST), "utf8"),
    ) as BackupManifest;
    if (manifest.format !== 1) throw new Error("Formato de copia de seguridad desconocido.");

    const snapshot = path.join(work, DATABASE);
    if ((await sha256(snapshot)) !== manifest.database.sha256)
      throw new Error("La suma de verificación de la base de datos no coincide.");
    for (const file of manifest.files) {
      const full = fileEntry(work, file.key);
      const actual = await sha256(full).catch(() => null);
      if (actual !== file.sha256)
        throw new Error(`La suma de verificación del archivo ${file.key} no coincide o falta.`);
    }
    const copy = new SQLite(snapshot, { readonly: true });
    try {
      const integrity = copy.pragma("integrity_check", { simple: true });
      if (integrity !== "ok") throw new Error(`integrity_check: ${String(integrity)}`);
      const rows = rowCounts(copy);
      for (const [table, count] of Object.entries(manifest.database.rows))
        if (rows[table] !== count)
          throw new Error(
            `La tabla ${table} tiene ${rows[table]} filas; el manifiesto dice ${count}.`,
          );
      const inArchive = new Set(manifest.files.map((f) => f.key));
      const missing = [...keysIn(copy)].filter((key) => !inArchive.has(key));
      if (missing.length)
        throw new Error(`Faltan archivos a los que apunta la base de datos: ${missing.join(", ")}`);
    } finally {
      copy.close();
    }

    for (const file of manifest.files) await putStoredFile(file.key, fileEntry(work, file.key));
    await fs.mkdir(path.dirname(env.databasePath), { recursive: true });
    const incoming = `${env.databasePath}.restoring`;
    await fs.copyFile(snapshot, incoming);
    const handle = await fs.open(incoming, "r");
    await handle.sync();
    await handle.close();
    for (const suffix of ["-wal", "-shm"]) await fs.rm(env.databasePath + suffix, { force: true });
    await fs.rename(incoming, env.databasePath);
    return manifest;
  } finally {
    // Retries: an extraction that failed outright (a read error) may still be closing a file.
    await fs.rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
