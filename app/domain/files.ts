/** Upload rules (SPEC §5) shared by the forms (accept=) and the server checks. */

export const MAX_UPLOAD_MB = 10;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

export interface FileRule {
  /** Extensions a file name may end with, lower case, without the dot. */
  extensions: string[];
  maxBytes: number;
}

export const FILE_RULES = {
  requirements: {
    extensions: ["pdf", "png", "jpg", "jpeg", "xlsx", "xls"],
    maxBytes: MAX_UPLOAD_BYTES,
  },
  partnerQuote: {
    extensions: ["pdf", "doc", "docx", "xls", "xlsx", "png", "jpg", "jpeg"],
    maxBytes: MAX_UPLOAD_BYTES,
  },
  paymentProof: { extensions: ["pdf", "png", "jpg", "jpeg", "webp"], maxBytes: MAX_UPLOAD_BYTES },
  /** Attachments of conversation messages. */
  message: {
    extensions: ["pdf", "png", "jpg", "jpeg", "webp", "xlsx", "xls", "docx", "doc"],
    maxBytes: MAX_UPLOAD_BYTES,
  },
  productImage: { extensions: ["png", "jpg", "jpeg", "webp"], maxBytes: 2 * 1024 * 1024 },
} satisfies Record<string, FileRule>;

/** What the content (magic bytes) must turn out to be for each extension. */
export const CONTENT_FOR_EXTENSION: Record<string, { ext: string; mime: string }[]> = {
  pdf: [{ ext: "pdf", mime: "application/pdf" }],
  png: [{ ext: "png", mime: "image/png" }],
  jpg: [{ ext: "jpg", mime: "image/jpeg" }],
  jpeg: [{ ext: "jpg", mime: "image/jpeg" }],
  webp: [{ ext: "webp", mime: "image/webp" }],
  xlsx: [
    { ext: "xlsx", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  ],
  docx: [
    {
      ext: "docx",
      mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    },
  ],
  // Legacy Office files are OLE compound documents.
  xls: [{ ext: "cfb", mime: "application/vnd.ms-excel" }],
  doc: [{ ext: "cfb", mime: "application/msword" }],
};

export function acceptAttribute(rule: FileRule): string {
  return rule.extensions.map((e) => `.${e}`).join(",");
}

/** SPEC §5's messages in Spanish (DECISIONS §5: Spanish wherever a person reads). */
export function fileTooLargeMessage(rule: FileRule): string {
  const mb = Math.round(rule.maxBytes / (1024 * 1024));
  return `El archivo debe pesar menos de ${mb} MB.`;
}

export function fileTypeMessage(rule: FileRule): string {
  const list = rule.extensions.join(", ");
  return `Tipo de archivo no permitido. Tipos permitidos: ${list}.`;
}

export const INVALID_FILE_NAME_MESSAGE = "El nombre del archivo no es válido.";

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/** Names with a path, "..", or control characters are refused outright. */
export function isSafeFileName(fileName: string): boolean {
  return (
    fileName.length > 0 &&
    fileName.length <= 200 &&
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    !/[\\/\u0000-\u001f\u007f]/.test(fileName) &&
    !fileName.includes("..") &&
    !fileName.startsWith(".")
  );
}
