import { MAX_SEARCH_LENGTH } from "./search";

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (use ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The search box's text, trimmed and bounded; empty means "no search". Control characters (a NUL
 * typed into the URL) read as spaces.
 */
export function searchFromUrl(url: URL, name = "q"): string {
  return (url.searchParams.get(name) ?? "")
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .slice(0, MAX_SEARCH_LENGTH);
}
