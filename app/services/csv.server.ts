/**
 * CSV downloads of the back-office lists: UTF-8 with a byte-order mark (so Excel reads accents),
 * comma-separated, CRLF lines, fields quoted when needed (RFC 4180), and streamed batch by batch so
 * a list of 100,000 rows is never held in memory.
 */

import { setSecurityHeaders } from "./security-headers.server";

const BOM = "\uFEFF";

/** One field. A text starting with = + - @ would run as a formula in a spreadsheet: it is quoted as text. */
function field(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: unknown[]) => `${fields.map(field).join(",")}\r\n`;

/** Cents as a plain decimal a spreadsheet reads as a number: 123456 → "1234.56". */
export function csvAmount(cents: number | null): string {
  if (cents === null) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A stored ISO time as "2026-11-25 14:03" (UTC), which spreadsheets read as a date. */
export function csvDate(iso: string | null): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "";
}

/** A download of `header` and the rows the batches yield, as `filename`. */
export function csvResponse(
  filename: string,
  header: string[],
  batches: AsyncIterable<unknown[][]>,
): Response {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + line(header)));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(line).join("")));
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  const headers = new Headers({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
  });
  setSecurityHeaders(headers);
  return new Response(body, { headers });
}
