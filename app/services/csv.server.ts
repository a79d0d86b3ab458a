/**
 * CSV downloads of the back-office lists: UTF-8 with a byte-order mark (so Excel reads accents),
 * comma-separated, CRLF lines, fields quoted when needed (RFC 4180), and streamed batch by batch so
 * a list of 100,000 rows is never held in memory.
 */

import { setSecurityHeaders } from "./security-headers.server";

const BOM = "\uFEFF";

/**
 * What a spreadsheet may take for the start of a formula: = + - @, a leading tab or carriage return
 * (OWASP lists both), the full-width forms ＝ ＋ － ＠ (which spreadsheets in East Asian locales
 * read as the ASCII ones) and the minus, plus, equals and at look-alikes − ﹢ ﹣ ﹦ ﹫ ⁺ ₊ ⁼ ₌ that
 * some programs fold the same way. Spaces and invisible characters before the sign (NBSP,
 * zero-width space, byte-order mark, direction marks) are skipped by some spreadsheets as well, so
 * they must not hide it.
 */
const FORMULA_START =
  /^(?:[\t\r]|[\s\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\u2212\uFE62\uFE63\uFE66\uFE6B\u207A\u208A\u207C\u208C])/u;

/** A plain number (a negative amount such as -12.50) stays a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One field. A text a spreadsheet would run as a formula gets a leading apostrophe, so it is shown
 * as the text it is.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: unknown[]) => `${fields.map(csvField).join(",")}\r\n`;

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
