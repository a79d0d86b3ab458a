/**
 * Turning what a person typed into an FTS5 query that cannot fail: each word becomes a quoted
 * prefix phrase (`"válv"*`), so `"`, `*`, `OR`, `NEAR` or brackets are only text; words with no
 * letter or digit are dropped. The tokenizer folds case and accents on both sides.
 */

/** The longest search a list reads (the search boxes' maxLength). */
export const MAX_SEARCH_LENGTH = 100;

const MAX_WORDS = 8;
/**
 * The longest prefix the index keeps (migration 2026-11-26T00-00_search_filters): a word's last
 * part is cut to it, so every word reads one doclist ("electricidad" searches "electric"*, which
 * finds the same rows and, rarely, a few more).
 */
const MAX_PREFIX = 8;

export function searchWords(text: string): string[] {
  // A control character (a NUL ends FTS5's query text) separates words like a space.
  return text
    .split(/[\s\p{Cc}]+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_WORDS);
}

const longTail = new RegExp(`([\\p{L}\\p{N}\\p{M}]{${MAX_PREFIX}})[\\p{L}\\p{N}\\p{M}]+$`, "u");

/** `{columns} : ("w1"* "w2"*)`, or null when nothing searchable was typed. */
export function matchExpression(text: string, columns: string[]): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const phrases = words
    .map((word) => `"${word.normalize("NFC").replace(longTail, "$1").replace(/"/g, '""')}"*`)
    .join(" ");
  return `{${columns.join(" ")}} : (${phrases})`;
}

/**
 * The scope tokens a request carries in the search index: its buyer, its status, and per partner
 * assigned, quoted, selected and closed (declined or withdrawn), kept by the triggers of
 * migrations 2026-11-26T00-00_search_filters and 2026-11-26T06-00_round_summaries.
 */
export const scopeToken = {
  buyer: (id: number) => `b${id}`,
  status: (status: string) => `s${status.replace(/_/g, "")}`,
  assigned: (partnerId: number) => `p${partnerId}`,
  quoted: (partnerId: number) => `q${partnerId}`,
  won: (partnerId: number) => `w${partnerId}`,
  closed: (partnerId: number) => `c${partnerId}`,
};

/** A condition on the scope: the row carries `token` (and, with `without`, none of those). */
export function scopeHas(token: string, ...without: string[]): string {
  return without.length > 0
    ? `(${[token, ...without].map((t) => `scope : "${t}"`).join(" NOT ")})`
    : `scope : "${token}"`;
}

/** A condition on the scope: the row carries at least one of `tokens`. */
export function scopeHasAny(...tokens: string[]): string {
  return `(${tokens.map((t) => `scope : "${t}"`).join(" OR ")})`;
}

/** `expression` restricted to the rows meeting every scope condition. */
export function scopedMatch(expression: string, ...conditions: string[]): string {
  return [...conditions, expression].join(" AND ");
}

/**
 * Text with LIKE's own wildcards ("100%", "Lote_esp") must also contain them literally, as the LIKE
 * search did (the tokenizer drops them); the FTS match narrows the rows first. Other punctuation
 * (an e-mail, "S.A.") only separates words, so accents stay folded.
 */
export function needsLiteralMatch(text: string): boolean {
  return /[%_]/.test(text);
}

/**
 * The request number in a search for one («12», «#12», «N.º 12», «Solicitud N.º 12»: how the
 * payment reference and the PDFs write it), or null. The requests list also reads such a search as
 * text; Pagos lists that request's payments.
 */
export function requestReferenceIn(text: string): number | null {
  const match = /^(?:solicitud\s*)?(?:#|n\.?\s*[º°o]?\.?\s*)?(\d{1,9})$/iu.exec(text.trim());
  return match ? Number(match[1]) : null;
}
