import crypto from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { fileTypeFromFile } from "file-type";
import { z } from "zod";
import {
  CONTENT_FOR_EXTENSION,
  extensionOf,
  fileTooLargeMessage,
  fileTypeMessage,
  INVALID_FILE_NAME_MESSAGE,
  isSafeFileName,
  type FileRule,
} from "~/domain/files";
import {
  fieldNameProblem,
  MAX_FIELDS,
  MAX_FORM_ROWS,
  MAX_MULTIPART_BYTES,
  MAX_TEXT_FIELD_BYTES,
  MAX_URLENCODED_BYTES,
} from "~/domain/limits";
import { env } from "./env.server";
import type { StagedFile, UploadForm } from "./storage.server";

/**
 * The one form reader every action uses (ADR 0005). It enforces the total body cap while the body
 * streams, parses urlencoded and multipart bodies with busboy, and answers malformed or
 * unsupported bodies with a Spanish 400/413/415 (thrown as a Response, rendered by the route's
 * error boundary). The edge (edge.server.ts) closes the connection when the answer comes before the
 * body was read to the end, so a refused body is not read further.
 */

const MESSAGES = {
  400: "El formulario llegó incompleto o dañado. Vuelve a la página y envíalo de nuevo.",
  rows: `Este formulario admite hasta ${MAX_FORM_ROWS} renglones y el envío traía uno fuera de ese límite: no se guardó nada. Vuelve a la página y envíalo de nuevo.`,
  413: "El envío supera el tamaño máximo permitido (10 MB por archivo). Reduce el archivo y vuelve a intentarlo.",
  415: "Este formulario solo acepta envíos de formulario web (application/x-www-form-urlencoded o multipart/form-data).",
} as const;

function refused(reason: keyof typeof MESSAGES): Response {
  const status = reason === "rows" ? 400 : reason;
  return new Response(MESSAGES[reason], {
    status,
    statusText: MESSAGES[reason],
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

class Refusal extends Error {
  constructor(readonly status: keyof typeof MESSAGES) {
    super(MESSAGES[status]);
  }
}

interface FileTarget {
  field: string;
  rule: FileRule;
}

interface RawFile {
  tempPath: string;
  name: string;
  size: number;
  tooLarge: boolean;
}

const tmpDir = () => path.join(env.uploadsDir, ".tmp");

/**
 * Streams one file part to a temp file, counting its size; past the rule's size it only discards.
 * The file is listed in `files` before the first byte is written, so whatever happens (a refused
 * body, a client that hangs up) the caller removes it.
 */
async function stageFilePart(
  stream: NodeJS.ReadableStream,
  name: string,
  rule: FileRule,
  files: RawFile[],
) {
  await fs.mkdir(tmpDir(), { recursive: true });
  const staged: RawFile = {
    tempPath: path.join(tmpDir(), crypto.randomBytes(16).toString("hex")),
    name,
    size: 0,
    tooLarge: false,
  };
  files.push(staged);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      staged.size += chunk.byteLength;
      if (staged.size > rule.maxBytes) staged.tooLarge = true;
      callback(null, staged.tooLarge ? undefined : chunk);
    },
  });
  await pipeline(stream, counter, createWriteStream(staged.tempPath, { flags: "wx" }));
}

/** Parses the body; the caller removes `files` afterwards whatever happens. */
async function parse(request: Request, target: FileTarget | null, files: RawFile[]) {
  const type = request.headers.get("Content-Type") ?? "";
  const multipart = /^multipart\/form-data/i.test(type);
  const formData = new FormData();
  if (!request.body || request.headers.get("Content-Length") === "0") return formData;
  if (!multipart && !/^application\/x-www-form-urlencoded/i.test(type)) throw new Refusal(415);
  if (!multipart && target) throw new Refusal(415);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // Raw names ("../../x.pdf") reach our check instead of being cut to a base name.
      preservePath: true,
      defParamCharset: "utf8",
      limits: {
        fields: MAX_FIELDS,
        parts: MAX_FIELDS,
        files: MAX_FIELDS,
        fieldSize: MAX_TEXT_FIELD_BYTES,
        fieldNameSize: 200,
      },
    });
  } catch {
    // e.g. multipart without a boundary
    throw new Refusal(400);
  }

  const pending: Promise<unknown>[] = [];
  // Decided on the part's arrival: staging is async, so `files` may not list the first file yet.
  let fileClaimed = false;
  const done = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value, info) => {
      const problem = fieldNameProblem(name);
      if (info.valueTruncated || info.nameTruncated) reject(new Refusal(413));
      else if (problem) reject(new Refusal(problem === "row" ? "rows" : 400));
      else formData.append(name, value);
    });
    parser.on("file", (name, stream, info) => {
      const wanted =
        target && name === target.field && info.filename && !fileClaimed ? target : null;
      // A part cut short (truncated body, client gone) errors its stream: never unhandled.
      stream.on("error", () => {});
      if (!wanted) {
        stream.resume();
        return;
      }
      fileClaimed = true;
      const staging = stageFilePart(stream, info.filename ?? "", wanted.rule, files);
      // A write error (disk full) fails the whole form.
      staging.catch(reject);
      pending.push(staging);
    });
    for (const limit of ["fieldsLimit", "partsLimit", "filesLimit"] as const) {
      parser.on(limit, () => reject(new Refusal(413)));
    }
    parser.on("error", () => reject(new Refusal(400)));
    parser.on("close", () => resolve());
  });
  // Errors are read from `done`; the feeding loop must not leave it unhandled meanwhile.
  done.catch(() => {});

  // A form without a file needs no more room as multipart than urlencoded.
  const cap = target ? MAX_MULTIPART_BYTES : MAX_URLENCODED_BYTES;
  const reader = request.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done: ended, value } = await Promise.race([
        reader.read(),
        done.then(() => ({ done: true as const, value: undefined })),
      ]);
      if (ended) break;
      total += value.byteLength;
      if (total > cap) throw new Refusal(413);
      // A body busboy refuses (a bad percent-escape) ends `done` instead of draining.
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), done]);
    }
    parser.end();
    await done;
    await Promise.all(pending);
    return formData;
  } catch (error) {
    parser.destroy();
    // Let every file being written settle, so the caller's clean-up finds and removes it.
    await Promise.allSettled(pending);
    if (error instanceof Refusal) throw error;
    // The client went away or sent a broken chunked body.
    throw new Refusal(400);
  } finally {
    // A read may still be pending after a refusal; releasing then must not throw over the answer.
    try {
      reader.releaseLock();
    } catch {
      /* nothing to release */
    }
  }
}

/** Checks a staged file against its rule: a safe name, not empty, within size, content matching. */
async function checkFile(file: RawFile, rule: FileRule): Promise<StagedFile | string> {
  if (!isSafeFileName(file.name)) return INVALID_FILE_NAME_MESSAGE;
  if (file.tooLarge) return fileTooLargeMessage(rule);
  if (file.size === 0) return "El archivo está vacío.";
  const declaredExt = extensionOf(file.name);
  const detected = rule.extensions.includes(declaredExt)
    ? await fileTypeFromFile(file.tempPath)
    : undefined;
  const match = CONTENT_FOR_EXTENSION[declaredExt]?.find((c) => c.ext === detected?.ext);
  if (!match) return fileTypeMessage(rule);
  return {
    tempPath: file.tempPath,
    originalName: file.name,
    size: file.size,
    mime: match.mime,
    ext: declaredExt,
  };
}

async function read(request: Request, target: FileTarget | null): Promise<UploadForm> {
  const files: RawFile[] = [];
  let keep: string | null = null;
  try {
    const formData = await parse(request, target, files);
    const raw = files[0];
    if (!raw || !target) return { formData, file: null, fileError: null };
    const checked = await checkFile(raw, target.rule);
    if (typeof checked === "string") return { formData, file: null, fileError: checked };
    keep = checked.tempPath;
    return { formData, file: checked, fileError: null };
  } catch (error) {
    if (error instanceof Refusal) throw refused(error.status);
    throw error;
  } finally {
    await Promise.all(
      files.filter((f) => f.tempPath !== keep).map((f) => fs.rm(f.tempPath, { force: true })),
    );
  }
}

/** Reads a form without files (file parts, if any, are discarded unread). */
export async function readForm(request: Request): Promise<FormData> {
  return (await read(request, null)).formData;
}

/** Like readForm, for a form with one file field: the file is staged, size-capped and checked by content. */
export async function readUploadForm(
  request: Request,
  fileField: string,
  rule: FileRule,
): Promise<UploadForm> {
  return read(request, { field: fileField, rule });
}

type IntentOption = z.ZodDiscriminatedUnionOption<"intent">;

/** The schema of a form with several actions told apart by `intent`; any other intent is refused. */
export function intents<Options extends [IntentOption, ...IntentOption[]]>(options: Options) {
  return z.discriminatedUnion("intent", options, {
    errorMap: () => ({ message: "Acción no reconocida." }),
  });
}
