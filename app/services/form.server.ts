import type { FileRule } from "~/domain/files";
import { parseUploadForm, type UploadForm } from "./storage.server";

/**
 * The one form reader every action uses (ADR 0005). It enforces the total body cap while the body
 * streams, parses urlencoded and multipart bodies with a real parser and answers malformed or
 * unsupported bodies with a Spanish 400/413/415 page (thrown as a Response).
 */
export async function readForm(request: Request): Promise<FormData> {
  return request.formData();
}

/** Like readForm, for a form with one file field: the file is staged, size-capped and checked by content. */
export async function readUploadForm(
  request: Request,
  fileField: string,
  rule: FileRule,
): Promise<UploadForm> {
  return parseUploadForm(request, fileField, rule);
}
