import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { fileTypeFromFile } from "file-type";
import {
  CONTENT_FOR_EXTENSION,
  extensionOf,
  fileTooLargeMessage,
  fileTypeMessage,
  INVALID_FILE_NAME_MESSAGE,
  isSafeFileName,
  type FileRule,
} from "~/domain/files";
import type { Result } from "~/domain/result";
import type { DB } from "./db.server";
import { env } from "./env.server";

/**
 * The one place that touches uploaded files. Uploads stream to a temp file (size-limited while
 * streaming), are checked by content, then moved under a generated name; routes only see keys.
 */

/** Whole request bodies are capped too, not only each file (a few form fields on top of a file). */
export const MAX_BODY_BYTES = 11 * 1024 * 1024;
const MAX_TEXT_FIELD_BYTES = 64 * 1024;
const TMP_DIR = () => path.join(env.uploadsDir, ".tmp");

export interface StagedFile {
  tempPath: string;
  originalName: string;
  size: number;
  mime: string;
  ext: string;
}

export interface UploadForm {
  formData: FormData;
  file: StagedFile | null;
  /** A Spanish message for the file field when the file was refused. */
  fileError: string | null;
}

class UploadRefused extends Error {}

export class BodyTooLarge extends Response {
  constructor() {
    super("La solicitud supera el tamaño máximo permitido (10 MB por archivo).", {
      status: 413,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

/**
 * Remix's multipart parser hands upload handlers only the base name of a file ("../../x.pdf" arrives
 * as "x.pdf"). To refuse path-like names instead of silently renaming them, this reads the raw
 * Content-Disposition file names of every part as the body streams through. A boundary never occurs
 * inside a part, so each "--boundary" line starts real part headers.
 */
function withRawFileNames(request: Request): { request: Request; rawNames: () => string[] } {
  const contentType = request.headers.get("Content-Type") ?? "";
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!match || !request.body) return { request, rawNames: () => [] };
  const boundary = `--${match[1] ?? match[2]}\r\n`;
  const names = new Set<string>();
  let tail = "";
  const scanner = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // latin1 keeps one character per byte, so names are re-decoded as UTF-8 below.
      const text = tail + Buffer.from(chunk).toString("latin1");
      let from = 0;
      for (;;) {
        const start = text.indexOf(boundary, from);
        if (start === -1) break;
        const headersEnd = text.indexOf("\r\n\r\n", start);
        if (headersEnd === -1) break;
        const headers = text.slice(start + boundary.length, headersEnd);
        const name = /filename="([^"]*)"/i.exec(headers)?.[1];
        if (name) names.add(Buffer.from(name, "latin1").toString("utf8"));
        from = headersEnd;
      }
      tail = text.slice(Math.max(from, text.length - 2048));
      controller.enqueue(chunk);
    },
  });
  const piped = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body.pipeThrough(scanner),
    // Node's fetch needs `duplex` for a streamed request body.
    duplex: "half",
  });
  return { request: piped, rawNames: () => [...names] };
}

function newName(): string {
  return crypto.randomBytes(16).toString("hex");
}

/**
 * Parses a multipart form with one optional file field. Other fields come back as text. Throws a
 * 413 Response when the declared body is larger than MAX_BODY_BYTES.
 */
export async function parseUploadForm(
  request: Request,
  fileField: string,
  rule: FileRule,
): Promise<UploadForm> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new BodyTooLarge();
  await fs.mkdir(TMP_DIR(), { recursive: true });

  const scanned = withRawFileNames(request);
  let total = 0;
  let staged: StagedFile | null = null;
  let fileError: string | null = null;
  const temps: string[] = [];

  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (filename === undefined) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.byteLength;
        total += chunk.byteLength;
        if (size > MAX_TEXT_FIELD_BYTES || total > MAX_BODY_BYTES) throw new UploadRefused("body");
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString("utf8");
    }
    if (name !== fileField || staged || fileError) {
      for await (const chunk of data) {
        total += chunk.byteLength;
        if (total > MAX_BODY_BYTES) throw new UploadRefused("body");
      }
      return undefined;
    }
    // An empty file input still sends a part with an empty name.
    if (filename === "") {
      for await (const chunk of data) total += chunk.byteLength;
      return undefined;
    }
    const tempPath = path.join(TMP_DIR(), newName());
    temps.push(tempPath);
    const handle = await fs.open(tempPath, "wx");
    let size = 0;
    let tooLarge = false;
    try {
      for await (const chunk of data) {
        size += chunk.byteLength;
        total += chunk.byteLength;
        if (total > MAX_BODY_BYTES) throw new UploadRefused("body");
        // Keep reading (and discarding) so the browser gets our answer, not a reset connection.
        if (size > rule.maxBytes) tooLarge = true;
        if (!tooLarge) await handle.write(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!isSafeFileName(filename)) fileError = INVALID_FILE_NAME_MESSAGE;
    else if (tooLarge) fileError = fileTooLargeMessage(rule);
    else if (size === 0) fileError = "El archivo está vacío.";
    else {
      const declaredExt = extensionOf(filename);
      const detected = rule.extensions.includes(declaredExt)
        ? await fileTypeFromFile(tempPath)
        : undefined;
      const match = CONTENT_FOR_EXTENSION[declaredExt]?.find((c) => c.ext === detected?.ext);
      if (!match) fileError = fileTypeMessage(rule);
      else staged = { tempPath, originalName: filename, size, mime: match.mime, ext: declaredExt };
    }
    return undefined;
  };

  try {
    const formData = await unstable_parseMultipartFormData(scanned.request, handler);
    if (scanned.rawNames().some((name) => name !== "" && !isSafeFileName(name))) {
      fileError = INVALID_FILE_NAME_MESSAGE;
      staged = null;
    }
    await Promise.all(
      temps.filter((t) => t !== staged?.tempPath).map((t) => fs.rm(t, { force: true })),
    );
    return { formData, file: staged, fileError };
  } catch (error) {
    await Promise.all(temps.map((t) => fs.rm(t, { force: true })));
    if (error instanceof UploadRefused) throw new BodyTooLarge();
    throw error;
  }
}

export async function discardStagedFile(file: StagedFile | null): Promise<void> {
  if (file) await fs.rm(file.tempPath, { force: true });
}

/** Moves a checked upload to its final, generated name and returns its key. */
async function commitStagedFile(file: StagedFile): Promise<string> {
  const now = new Date();
  const dir = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
  const key = `${dir}/${newName()}.${file.ext}`;
  await fs.mkdir(path.join(env.uploadsDir, dir), { recursive: true });
  await fs.rename(file.tempPath, path.join(env.uploadsDir, key));
  return key;
}

/** Stages generated bytes (e.g. an official quote PDF) like an upload, for `storeUpload`. */
export async function stageBytes(bytes: Uint8Array, ext: string): Promise<StagedFile> {
  const tempPath = path.join(TMP_DIR(), newName());
  await fs.mkdir(TMP_DIR(), { recursive: true });
  const handle = await fs.open(tempPath, "wx");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { tempPath, originalName: `documento.${ext}`, size: bytes.byteLength, mime: "", ext };
}

/** A file moved under its final key, as the row that points to it stores it. */
export interface StoredFile {
  key: string;
  name: string;
  type: string;
  size: number;
}

/**
 * The one way a staged file becomes a stored one: move it under a generated key, run `commit` (the
 * transaction that stores the key) and delete the file again if `commit` refuses or throws, so no
 * file is left that no row points to. After a success, the file the new one replaced (`replaced`)
 * is deleted once no row points to it. A crash in between leaves an unreferenced file that
 * `sweepOrphanFiles` removes; never a row pointing to a missing file.
 */
export async function storeUpload<T>(
  staged: StagedFile | null,
  commit: (file: StoredFile | null) => Promise<Result<T>>,
  { replaced }: { replaced?: (value: T) => string | null | undefined } = {},
): Promise<Result<T>> {
  const stored = staged
    ? {
        key: await commitStagedFile(staged),
        name: staged.originalName,
        type: staged.mime,
        size: staged.size,
      }
    : null;
  let result: Result<T>;
  try {
    result = await commit(stored);
  } catch (error) {
    await deleteStoredFile(stored?.key);
    throw error;
  }
  if (!result.ok) await deleteStoredFile(stored?.key);
  else if (replaced) await deleteStoredFile(replaced(result.value));
  return result;
}

function resolveKey(key: string): string {
  const full = path.resolve(env.uploadsDir, key);
  if (!full.startsWith(path.resolve(env.uploadsDir) + path.sep))
    throw new Error("Clave de archivo inválida");
  return full;
}

export async function deleteStoredFile(key: string | null | undefined): Promise<void> {
  if (key) await fs.rm(resolveKey(key), { force: true });
}

export async function storedFileExists(key: string): Promise<boolean> {
  return fs
    .stat(resolveKey(key))
    .then((s) => s.isFile())
    .catch(() => false);
}

const INLINE_TYPES = new Set(["application/pdf", "image/png", "image/jpeg", "image/webp"]);

/**
 * Serves a stored file to someone the caller has already authorised. Attachments by default;
 * `inline` only for PDFs and images (the "open" action). Never sniffed, never cached.
 */
export async function fileResponse(
  key: string,
  { name, type, inline = false }: { name: string; type: string; inline?: boolean },
): Promise<Response> {
  const full = resolveKey(key);
  const stat = await fs.stat(full).catch(() => null);
  if (!stat) throw new Response("Archivo no encontrado", { status: 404 });
  const disposition = inline && INLINE_TYPES.has(type) ? "inline" : "attachment";
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(Readable.toWeb(createReadStream(full)) as ReadableStream, {
    headers: {
      "Content-Type": type || "application/octet-stream",
      "Content-Length": String(stat.size),
      "Content-Disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy":
        "default-src 'none'; img-src 'self'; object-src 'self'; frame-ancestors 'self'",
    },
  });
}

/** Every column that holds a file key; the sweep keeps exactly these files. */
async function referencedKeys(database: DB): Promise<Set<string>> {
  const lists = await Promise.all([
    database.selectFrom("quote_requests").select("file_key as key").execute(),
    database
      .selectFrom("partner_quotes")
      .select("file_key as key")
      .where("file_key", "is not", null)
      .execute(),
    database
      .selectFrom("official_quotes")
      .select("pdf_key as key")
      .where("pdf_key", "is not", null)
      .execute(),
    database
      .selectFrom("payments")
      .select("proof_key as key")
      .where("proof_key", "is not", null)
      .execute(),
    database
      .selectFrom("products")
      .select("image_key as key")
      .where("image_key", "is not", null)
      .execute(),
  ]);
  return new Set(lists.flat().map((r) => r.key as string));
}

/**
 * Removes temp files and stored files no row points to, older than `graceMs` (so an upload in
 * flight is never touched). Runs at server start.
 */
export async function sweepOrphanFiles(database: DB, graceMs = 60 * 60 * 1000): Promise<number> {
  const cutoff = Date.now() - graceMs;
  const keys = await referencedKeys(database);
  let removed = 0;
  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        await walk(full, key);
        continue;
      }
      if (entry.name === ".gitkeep" || keys.has(key)) continue;
      const stat = await fs.stat(full).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) {
        await fs.rm(full, { force: true });
        removed++;
      }
    }
  }
  await walk(env.uploadsDir, "");
  return removed;
}
