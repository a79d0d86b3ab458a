import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { pageWindow, type PageRequest } from "~/utils/keyset";

/**
 * The WHERE part of a keyset page: rows strictly after (or before) the cursor in a list sorted by
 * `(key, id)` descending, or by `id` alone when `key` is null. Row values keep it one index range.
 */
export function keysetCondition(
  request: PageRequest,
  columns: { key: string | null; id: string },
): RawBuilder<SqlBool> | null {
  if (request.kind === "numbered") return null;
  const op = sql.raw(request.kind === "after" ? "<" : ">");
  const { key, id } = request.cursor;
  return columns.key === null
    ? sql<SqlBool>`${sql.ref(columns.id)} ${op} ${id}`
    : sql<SqlBool>`(${sql.ref(columns.key)}, ${sql.ref(columns.id)}) ${op} (${key}, ${id})`;
}

/** Newest-first lists are read ascending when going back a page (then put back in order). */
export function keysetDirection(request: PageRequest): "asc" | "desc" {
  return request.kind === "before" ? "asc" : "desc";
}

/**
 * Reads the rows of one keyset page of a newest-first list sorted by `(key, id)` (by `id` alone
 * when `key` is null): one row more than `pageSize`, for finishPage to tell whether more follow.
 */
export function readKeysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  columns: { key: string | null; id: string },
  pageSize: number,
): Promise<O[]> {
  const after = keysetCondition(request, columns);
  const direction = keysetDirection(request);
  const window = pageWindow(request, pageSize);
  const { key } = columns;
  return query
    .$if(after !== null, (qb) => qb.where(after!))
    .$if(key !== null, (qb) => qb.orderBy(sql.ref(key!), direction))
    .orderBy(sql.ref(columns.id), direction)
    .limit(window.limit)
    .offset(window.offset)
    .execute();
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
