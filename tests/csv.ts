/**
 * Reads back the CSV files the back office writes (RFC 4180: fields in double quotes when they hold
 * a comma, a quote or a line break, `""` for a quote inside them, CRLF between records), the way a
 * spreadsheet would, so tests check cells rather than raw text.
 */

const BOM = "\uFEFF";

/** `bytes` as text, or an error when they do not start with the UTF-8 byte-order mark. */
export function csvText(bytes: Uint8Array): string {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (!text.startsWith(BOM)) throw new Error("El CSV no empieza con la marca BOM de UTF-8");
  return text.slice(BOM.length);
}

/** The records of `text` (after the BOM), each a list of cells. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else quoted = false;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") {
      record.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i += 1;
    } else cell += c;
  }
  if (quoted) throw new Error("Comillas sin cerrar al final del CSV");
  if (cell !== "" || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

/**
 * The header and the rows of a CSV file as objects keyed by the header's names; a row with another
 * number of cells than the header is an error (a field quoted wrongly splits or merges cells).
 */
export function csvRows(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...records] = parseCsv(text);
  const rows = records.map((record, n) => {
    if (record.length !== header.length)
      throw new Error(
        `La fila ${n + 2} tiene ${record.length} celdas y la cabecera ${header.length}`,
      );
    return Object.fromEntries(header.map((name, i) => [name, record[i]!]));
  });
  return { header, rows };
}
