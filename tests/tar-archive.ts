/**
 * Backup archives written by hand, block by block, so a test can put in them what `tar.create`
 * never would from a folder: hard links to missing files, symbolic links, FIFOs, device nodes,
 * a file where a folder should be. Headers are encoded by the `tar` package's own Header.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import zlib from "node:zlib";
import { Header, type types } from "tar";

export interface ArchiveEntry {
  path: string;
  type?: types.EntryTypeName;
  linkpath?: string;
  body?: Buffer;
}

const BLOCK = 512;

function encode({ path, type = "File", linkpath, body }: ArchiveEntry): Buffer {
  const header = Buffer.alloc(BLOCK);
  new Header({
    path,
    type,
    linkpath,
    size: body?.length ?? 0,
    mode: type === "Directory" ? 0o755 : 0o644,
    mtime: new Date(),
  }).encode(header, 0);
  if (!body?.length) return header;
  const padding = Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK);
  return Buffer.concat([header, body, padding]);
}

/** Writes `entries` as a .tar.gz at `file` (two zero blocks end the archive). */
export function writeArchive(file: string, entries: ArchiveEntry[]): void {
  const tarBytes = Buffer.concat([...entries.map(encode), Buffer.alloc(2 * BLOCK)]);
  fs.writeFileSync(file, zlib.gzipSync(tarBytes));
}

/**
 * A backup's usual entries around `odd`: a manifest first, then the odd entry, then megabytes of
 * incompressible data still to extract (so a restore that gave up at the odd entry would be
 * cleaning up while those bytes were still being written).
 */
export function backupWith(file: string, odd: ArchiveEntry[]): void {
  const manifest = Buffer.from(JSON.stringify({ format: 1, files: [], database: {} }));
  const bulk = crypto.randomBytes(4 * 1024 * 1024);
  writeArchive(file, [
    { path: "manifest.json", body: manifest },
    { path: "files/", type: "Directory" },
    ...odd,
    { path: "files/2026/relleno.bin", body: bulk },
    { path: "database.sqlite", body: bulk },
  ]);
}
