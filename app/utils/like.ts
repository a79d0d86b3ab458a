/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped (use ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search box's text, trimmed and bounded; empty means "no search". */
export function searchFromUrl(url: URL, name = "q"): string {
  return (url.searchParams.get(name) ?? "").trim().slice(0, 100);
}
