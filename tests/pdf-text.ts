/**
 * The text a PDF from app/services/pdf.server.ts shows, read back for tests (integration and
 * Playwright alike): one line per drawn string, in drawing order. pdf-lib compresses each page's
 * content stream and writes the standard fonts' text as WinAnsi hex strings, so the bytes never
 * contain the words; this inflates the streams and decodes the strings. No-break spaces (es-MX
 * money: "USD 1,234.50") read as plain spaces, as a person reading the page sees them.
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";

/** WinAnsi codes 0x80–0x9f that are not Latin-1 (the ones pdf.server.ts lets through). */
const WIN_ANSI_EXTRA: Record<number, string> = {
  0x80: "€",
  0x85: "…",
  0x91: "‘",
  0x92: "’",
  0x93: "“",
  0x94: "”",
  0x95: "•",
  0x96: "–",
  0x97: "—",
};

function decodeWinAnsi(codes: number[]): string {
  return codes
    .map((code) => WIN_ANSI_EXTRA[code] ?? String.fromCharCode(code))
    .join("")
    .replace(/[\u00a0\u202f]/g, " ");
}

function hexCodes(hex: string): number[] {
  const even = hex.length % 2 ? `${hex}0` : hex;
  const codes: number[] = [];
  for (let i = 0; i < even.length; i += 2) codes.push(parseInt(even.slice(i, i + 2), 16));
  return codes;
}

/** A PDF literal string's bytes: `(a\(b\)\351)` → "a(b)é". */
function literalCodes(literal: string): number[] {
  const codes: number[] = [];
  for (let i = 0; i < literal.length; i++) {
    const char = literal[i]!;
    if (char !== "\\") {
      codes.push(char.charCodeAt(0));
      continue;
    }
    const next = literal[++i] ?? "";
    const octal = /^[0-7]{1,3}/.exec(literal.slice(i))?.[0];
    if (octal) {
      codes.push(parseInt(octal, 8));
      i += octal.length - 1;
    } else {
      const escaped: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
      codes.push(escaped[next] ?? next.charCodeAt(0));
    }
  }
  return codes;
}

/** Each `Tj` string of every page, decoded, one per line. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const lines: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray
        ? contents.asArray().map((ref) => pdf.context.lookup(ref))
        : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      for (const match of operators.matchAll(
        /<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g,
      )) {
        const codes =
          match[1] !== undefined ? hexCodes(match[1].replace(/\s/g, "")) : literalCodes(match[2]!);
        lines.push(decodeWinAnsi(codes));
      }
    }
  }
  return lines.join("\n");
}
