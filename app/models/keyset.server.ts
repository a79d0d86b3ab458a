import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { pageWindow, type PageRequest } from "~/utils/keyset";

/** How a list is sorted by its key: newest first (descending, most lists) or ascending. */
type KeysetOrder = "asc" | "desc";

interface KeysetColumns {
  /**
   * The sort key column (or an expression an index is built on), or null when the list is sorted
   * by `id` alone.
   */
  key: string | RawBuilder<unknown> | null;
  id: string;
  /** "desc" when omitted. */
  order?: KeysetOrder;
  /** The key is a number (an amount): the cursor's text is compared as one. */
  numeric?: boolean;
}

const keyRef = (key: string | RawBuilder<unknown>) =>
  typeof key === "string" ? sql.ref(key) : key;

/**
 * Whether an OFFSET page starts within the list's `total` rows. Past the end (`?page=999999`) the
 * page is empty without being read: an OFFSET steps over every row before it (with its joins).
 */
export function pageStartsWithin(page: number, pageSize: number, total: number): boolean {
  return (page - 1) * pageSize < total;
}

/** The cursor's key as the list's column holds it; null for a numeric key that is not a number. */
function cursorKey(key: string, columns: KeysetColumns): string | number | null {
  if (!columns.numeric) return key;
  return /^-?\d{1,15}$/.test(key) ? Number(key) : null;
}

/**
 * The WHERE part of a keyset page: rows strictly after (or before) the cursor in a list sorted by
 * `(key, id)` (descending unless `order` says otherwise), or by `id` alone when `key` is null. Row
 * values keep it one index range.
 */
export function keysetCondition(
  request: PageRequest,
  columns: KeysetColumns,
): RawBuilder<SqlBool> | null {
  if (request.kind === "numbered") return null;
  const descending = (columns.order ?? "desc") === "desc";
  const op = sql.raw((request.kind === "after") === descending ? "<" : ">");
  const { id } = request.cursor;
  const key = cursorKey(request.cursor.key, columns);
  // A forged key that is not a number (NULL to SQLite) would walk the index: the list starts over.
  if (key === null) return null;
  return columns.key === null
    ? sql<SqlBool>`${sql.ref(columns.id)} ${op} ${id}`
    : sql<SqlBool>`(${keyRef(columns.key)}, ${sql.ref(columns.id)}) ${op} (${key}, ${id})`;
}

/** A list is read in its own order, and in the opposite one when going back a page. */
export function keysetDirection(request: PageRequest, order: KeysetOrder = "desc"): KeysetOrder {
  if (request.kind !== "before") return order;
  return order === "desc" ? "asc" : "desc";
}

/**
 * Reads the rows of one keyset page of a list sorted by `(key, id)` (by `id` alone when `key` is
 * null), newest first unless `columns.order` is "asc": one row more than `pageSize`, for finishPage
 * to tell whether more follow.
 */
export function readKeysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  columns: KeysetColumns,
  pageSize: number,
): Promise<O[]> {
  const after = keysetCondition(request, columns);
  const direction = keysetDirection(request, columns.order);
  const window = pageWindow(request, pageSize);
  const { key } = columns;
  return query
    .$if(after !== null, (qb) => qb.where(after!))
    .$if(key !== null, (qb) => qb.orderBy(keyRef(key!), direction))
    .orderBy(sql.ref(columns.id), direction)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

/**
 * readKeysetPage for a list whose key many rows share (the deadline a migration gave every open
 * request at once). SQLite seeks a row-value range `(key, id) > (k, i)` on the key alone when `id`
 * is the rowid, then steps over every row of the cursor's key before the page's first: tens of
 * thousands of rows deep into such a key. The page is read instead as the rows of the cursor's key
 * beyond its id, then the rows of the next keys, two index seeks of at most a page each. `output`
 * names the key and id columns as the query selects them.
 */
export async function readKeysetPageOverTies<DB, TB extends keyof DB, O>(
  database: Parameters<RawBuilder<O>["execute"]>[0],
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  columns: KeysetColumns & { key: string | RawBuilder<unknown> },
  output: { key: string; id: string },
  pageSize: number,
): Promise<O[]> {
  if (request.kind === "numbered") return readKeysetPage(query, request, columns, pageSize);
  const direction = keysetDirection(request, columns.order);
  const beyond = sql.raw(direction === "asc" ? ">" : "<");
  const { id } = request.cursor;
  const key = cursorKey(request.cursor.key, columns);
  if (key === null) return readKeysetPage(query, { kind: "numbered", page: 1 }, columns, pageSize);
  const limit = pageSize + 1;
  const sameKey = query
    .where(sql<SqlBool>`${keyRef(columns.key)} = ${key}`)
    .where(sql<SqlBool>`${sql.ref(columns.id)} ${beyond} ${id}`)
    .orderBy(sql.ref(columns.id), direction)
    .limit(limit);
  const nextKeys = query
    .where(sql<SqlBool>`${keyRef(columns.key)} ${beyond} ${key}`)
    .orderBy(keyRef(columns.key), direction)
    .orderBy(sql.ref(columns.id), direction)
    .limit(limit);
  const order = sql.raw(direction);
  const { rows } = await sql<O>`SELECT * FROM (${sameKey}) UNION ALL SELECT * FROM (${nextKeys})
    ORDER BY ${sql.ref(output.key)} ${order}, ${sql.ref(output.id)} ${order} LIMIT ${limit}`.execute(
    database,
  );
  return rows;
}

/**
 * Every row of a list in its own order, in batches of EXPORT_BATCH_SIZE, each read by `read` as a
 * keyset page after the previous batch's last row (readKeysetPage or readKeysetPageOverTies with
 * the list's columns): the CSV export of a list sorted by something other than its id. `keyOf`
 * gives a row's cursor key, as for finishPage.
 */
export async function* inKeysetBatches<O>(
  read: (request: PageRequest, pageSize: number) => Promise<O[]>,
  keyOf: (row: O) => { key: string; id: number },
): AsyncGenerator<O[]> {
  let request: PageRequest = { kind: "numbered", page: 1 };
  for (;;) {
    const rows = (await read(request, EXPORT_BATCH_SIZE)).slice(0, EXPORT_BATCH_SIZE);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH_SIZE) return;
    request = { kind: "after", cursor: { page: 2, ...keyOf(rows.at(-1)!) } };
  }
}

/**
 * Every row of an order that is no single column (the Pagos review queue's parts), in batches of
 * EXPORT_BATCH_SIZE: `read` returns up to that many rows from just past `from` (null: from the
 * start), and `keyOf` says where a row sits, to resume past the batch's last row.
 */
export async function* batchesFrom<O, K>(
  read: (from: K | null) => Promise<O[]>,
  keyOf: (row: O) => K,
): AsyncGenerator<O[]> {
  let from: K | null = null;
  for (;;) {
    const rows = await read(from);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH_SIZE) return;
    from = keyOf(rows.at(-1)!);
  }
}

/** Rows read per batch when a whole list is exported. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every row of `query`, newest id first, in batches of EXPORT_BATCH_SIZE: each batch is its own
 * short query (keyset on `idColumn`), so an export of 100,000 rows never holds them all, nor the
 * connection, between batches.
 */
export async function* inBatches<DB, TB extends keyof DB, O extends { id: number }>(
  query: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
): AsyncGenerator<O[]> {
  let last: number | null = null;
  for (;;) {
    const rows: O[] = await query
      .$if(last !== null, (qb) => qb.where(sql<SqlBool>`${sql.ref(idColumn)} < ${last}`))
      .orderBy(sql.ref(idColumn), "desc")
      .limit(EXPORT_BATCH_SIZE)
      .execute();
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH_SIZE) return;
    last = rows.at(-1)!.id;
  }
}
