/**
 * Keyset pagination for the long lists (issue 10): a page is read from just after (or before) the
 * last row the person saw, through the list's index, so page 5,000 costs what page 1 does. The
 * first few pages may also be asked for by number (`?page=N`, a short OFFSET); the links are plain
 * `?after=` / `?before=` URLs, so paging works without JavaScript.
 */

/** Where a page starts: the sort key and id of a row, and the number of the page that row is on. */
export interface Cursor {
  page: number;
  /** The sort key of the row (a timestamp, or a list's own composite key); "" when sorted by id. */
  key: string;
  id: number;
}

export type PageRequest =
  | { kind: "numbered"; page: number }
  | { kind: "after"; cursor: Cursor }
  | { kind: "before"; cursor: Cursor };

export interface PageInfo {
  page: number;
  /** `before` cursor of the previous page, null on the first page. */
  prev: string | null;
  /** `after` cursor of the next page, null on the last page. */
  next: string | null;
}

/** Pages that may be asked for by number (an OFFSET of at most a hundred rows or so). */
export const NUMBERED_PAGES = 5;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.page}\n${cursor.id}\n${cursor.key}`, "utf8").toString("base64url");
}

export function decodeCursor(text: string | null): Cursor | null {
  if (!text || text.length > 200) return null;
  const [page, id, ...key] = Buffer.from(text, "base64url").toString("utf8").split("\n");
  const cursor = { page: Number(page), id: Number(id), key: key.join("\n") };
  if (!Number.isSafeInteger(cursor.page) || cursor.page < 1) return null;
  if (!Number.isSafeInteger(cursor.id)) return null;
  return cursor;
}

/** `?after=`, `?before=` or `?page=N` (N up to NUMBERED_PAGES; anything else is page 1). */
export function pageRequestFromUrl(url: URL): PageRequest {
  const after = decodeCursor(url.searchParams.get("after"));
  if (after) return { kind: "after", cursor: after };
  const before = decodeCursor(url.searchParams.get("before"));
  if (before) return { kind: "before", cursor: before };
  const page = Number(url.searchParams.get("page"));
  return {
    kind: "numbered",
    page: Number.isInteger(page) && page > 1 ? Math.min(page, NUMBERED_PAGES) : 1,
  };
}

/** How to read the rows of a page: the direction, how many, and how many to skip. */
export function pageWindow(request: PageRequest, pageSize: number) {
  return {
    /** Newest-first lists read backwards (ascending) when going to the previous page. */
    reversed: request.kind === "before",
    limit: pageSize + 1,
    offset: request.kind === "numbered" ? (request.page - 1) * pageSize : 0,
  };
}

/**
 * Turns the `pageSize + 1` rows read for `request` into the page and its links. Rows read for a
 * `before` request come in reverse order and are put back.
 */
export function finishPage<T>(
  read: T[],
  request: PageRequest,
  pageSize: number,
  keyOf: (row: T) => { key: string; id: number },
): { rows: T[]; pageInfo: PageInfo } {
  const more = read.length > pageSize;
  const rows = read.slice(0, pageSize);
  if (request.kind === "before") rows.reverse();
  const page =
    request.kind === "numbered"
      ? request.page
      : request.kind === "after"
        ? request.cursor.page + 1
        : more
          ? Math.max(2, request.cursor.page - 1)
          : 1;
  const cursorAt = (row: T | undefined) =>
    row === undefined ? null : encodeCursor({ page, ...keyOf(row) });
  const hasPrev = request.kind === "before" ? more : page > 1 && rows.length > 0;
  const hasNext = request.kind === "before" ? rows.length > 0 : more;
  return {
    rows,
    pageInfo: {
      page,
      prev: hasPrev ? cursorAt(rows[0]) : null,
      next: hasNext ? cursorAt(rows.at(-1)) : null,
    },
  };
}
