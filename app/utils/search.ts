/**
 * Turning what a person typed into an FTS5 query that cannot fail: each word becomes a quoted
 * prefix phrase (`"válv"*`), so `"`, `*`, `OR`, `NEAR` or brackets are only text; words with no
 * letter or digit are dropped. The tokenizer folds case and accents on both sides.
 */

const MAX_WORDS = 8;

export function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_WORDS);
}

/** `{columns} : ("w1"* "w2"*)`, or null when nothing searchable was typed. */
export function matchExpression(text: string, columns: string[]): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const phrases = words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(" ");
  return `{${columns.join(" ")}} : (${phrases})`;
}

/** Restricts a match to the rows carrying a scope token ("b12", "p7"). */
export function scopedMatch(scope: string, expression: string): string {
  return `scope : "${scope}" AND ${expression}`;
}

/**
 * Text with LIKE's own wildcards ("100%", "Lote_esp") must also contain them literally, as the LIKE
 * search did (the tokenizer drops them); the FTS match narrows the rows first. Other punctuation
 * (an e-mail, "S.A.") only separates words, so accents stay folded.
 */
export function needsLiteralMatch(text: string): boolean {
  return /[%_]/.test(text);
}
