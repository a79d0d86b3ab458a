import { sql, type Expression, type SelectQueryBuilder } from "kysely";
import { offerItems } from "./quote-items.server";
import type { Database, RequestStatus } from "../../db/schema";
import { REQUESTS_PAGE_SIZE } from "~/domain/pagination";
import { finishPage, pageWindow, type PageRequest } from "~/utils/keyset";
import {
  inBatches,
  inKeysetBatches,
  keysetDirection,
  readKeysetPage,
  readKeysetPageOverTies,
} from "./keyset.server";
import {
  matchExpression,
  needsLiteralMatch,
  scopedMatch,
  scopeHas,
  scopeHasAny,
  scopeToken,
} from "~/utils/search";
import { isRequestStatus, PARTNER_EVENTS, REQUEST_STATUSES } from "~/domain/quote-status";
import {
  DUE_SOON_MS,
  isDeadlineFilter,
  isOpenStatus,
  OPEN_STATUSES,
  type DeadlineFilter,
  type RequestSort,
} from "~/domain/deadline";
import type { DB } from "~/services/db.server";
import { hasRange, rangeInstants, type DayRange, type ListSort } from "~/domain/list-filters";

/**
 * Reading quote requests. Every buyer query is scoped by buyerId; admin queries are only called
 * after requireRole(request, "admin"). Status changes live in quote-lifecycle.server.ts.
 */

type StatusCounts = Record<RequestStatus, number> & { total: number };

function emptyCounts(): StatusCounts {
  return {
    total: 0,
    pending: 0,
    assigned: 0,
    quoted: 0,
    approved: 0,
    paid: 0,
    rejected: 0,
    cancelled: 0,
  };
}

/** `%` and `_` typed by a person are literal characters, not wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A search string from ?q=, trimmed and bounded. */
export function statusFromUrl(url: URL): RequestStatus | null {
  const status = url.searchParams.get("status");
  return isRequestStatus(status) ? status : null;
}

/** The desk's «Plazo» filter from ?deadline= (anything else: no filter). */
export function deadlineFromUrl(url: URL): DeadlineFilter | null {
  const deadline = url.searchParams.get("deadline");
  return isDeadlineFilter(deadline) ? deadline : null;
}

/** Requests per status from the counters the writing transactions keep (one row per status). */
async function countByStatus(database: DB, buyerId: number | null): Promise<StatusCounts> {
  const rows =
    buyerId === null
      ? await database.selectFrom("request_status_counts").select(["status", "requests"]).execute()
      : await database
          .selectFrom("buyer_request_counts")
          .select(["status", "requests"])
          .where("buyer_id", "=", buyerId)
          .execute();
  return statusCountsOf(rows);
}

/**
 * A list's total from the counters: one status's requests, or all of them. `counts`, when the page
 * has already read them for its status cards, saves reading them twice.
 */
function totalByStatus(
  database: DB,
  buyerId: number | null,
  status: RequestStatus | null,
  counts?: StatusCounts,
): Promise<number> {
  return (counts ? Promise.resolve(counts) : countByStatus(database, buyerId)).then((c) =>
    status ? c[status] : c.total,
  );
}

function statusCountsOf(rows: { status: string; requests: number }[]): StatusCounts {
  const counts = emptyCounts();
  for (const row of rows) {
    if (isRequestStatus(row.status)) counts[row.status] = Number(row.requests);
    counts.total += Number(row.requests);
  }
  return counts;
}

// ---- Buyer

export function buyerStatusCounts(database: DB, buyerId: number): Promise<StatusCounts> {
  return countByStatus(database, buyerId);
}

/**
 * When the buyer's payment proof for the request `qr` was sent, while it waits for review (else
 * null): the request then says so instead of inviting the buyer to pay again. The same test as
 * `isProofInReview` (domain/payments), in SQL for the lists.
 */
export const proofInReviewSince = sql<string | null>`(
  select p.submitted_at from payments p
  where p.quote_request_id = qr.id and p.status = 'pending' and p.submitted_at is not null
)`.as("proof_in_review_since");

const buyerListColumns = [
  "qr.id",
  "qr.title",
  "qr.description",
  "qr.status",
  "qr.total_amount_cents",
  "qr.created_at",
  "qr.updated_at",
  proofInReviewSince,
] as const;

export function latestBuyerRequests(database: DB, buyerId: number, limit = 10) {
  return database
    .selectFrom("quote_requests as qr")
    .select(buyerListColumns)
    .where("qr.buyer_id", "=", buyerId)
    .orderBy("qr.created_at", "desc")
    .orderBy("qr.id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Ids of the requests whose text matches `expression` in the full-text index (FTS5 MATCH, built
 * by ~/utils/search so nothing a person types can break the query).
 */
export function matchingRequestIds(database: DB, expression: string) {
  return database
    .selectFrom("quote_request_search")
    .select("quote_request_search.rowid")
    .where(sql<boolean>`quote_request_search MATCH ${expression}`);
}

/**
 * The ids one page of a search can hold, read from the index newest first (rowid = request id)
 * and stopped at the page's end: a search costs the same whether it matches ten requests or a
 * million. The scope conditions in `expression` (buyer, status, partner) do the filtering, so
 * every id read is shown.
 */
export function matchingPageIds(
  database: DB,
  expression: string,
  page: PageRequest,
  pageSize: number,
) {
  const window = pageWindow(page, pageSize);
  const cursorId = page.kind === "numbered" ? null : page.cursor.id;
  return matchingRequestIds(database, expression)
    .$if(cursorId !== null, (qb) =>
      qb.where("quote_request_search.rowid", page.kind === "after" ? "<" : ">", cursorId!),
    )
    .orderBy("quote_request_search.rowid", keysetDirection(page))
    .limit(window.offset + window.limit);
}

/** At most this many search results are counted ("Más de 200"): counting costs as much per row as reading. */
export const SEARCH_COUNT_CAP = 200;

/** The rows `query` selects, counted up to `cap` + 1 (SEARCH_COUNT_CAP unless given). */
export async function cappedCount(
  database: DB,
  query: { limit(n: number): Expression<unknown> },
  cap = SEARCH_COUNT_CAP,
): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM (${query.limit(
    cap + 1,
  )})`.execute(database);
  return Number(result.rows[0]?.n ?? 0);
}

/** How many requests match, counted up to SEARCH_COUNT_CAP + 1 from the index alone. */
export function countMatchingRequests(database: DB, expression: string): Promise<number> {
  return cappedCount(database, matchingRequestIds(database, expression));
}

/** Search results are listed newest first by id (the search index's own order). */
const byCreated = (search: string) =>
  search ? { key: null, id: "qr.id" } : { key: "qr.created_at", id: "qr.id" };
const keyOfRequest = (search: string) => (row: { id: number; created_at: string }) => ({
  key: search ? "" : row.created_at,
  id: row.id,
});

/** A date range on the requests' creation (app/domain/list-filters): one range of its index. */
function createdIn(range: DayRange) {
  const { start, end } = rangeInstants(range);
  return sql<boolean>`(${start === null ? sql`1` : sql`qr.created_at >= ${start}`}
    AND ${end === null ? sql`1` : sql`qr.created_at < ${end}`})`;
}

/**
 * A date range holding at most this many requests is read through the creation index and sorted
 * (a sort of a few thousand rows); a wider one is read through the sort's own index, where at
 * least one row in RANGE_SORT_CAP / total is in the range, so a page stops after a bounded walk.
 */
export const RANGE_SORT_CAP = 2000;

/** Whether at most RANGE_SORT_CAP requests (of one buyer when given) were created in `range`. */
async function fewInRange(database: DB, range: DayRange, buyerId: number | null = null) {
  if (!hasRange(range)) return false;
  const inRange = requestsFrom(
    database,
    buyerId === null ? "quote_requests_created" : "quote_requests_buyer_created",
  )
    .select("qr.id")
    .$if(buyerId !== null, (qb) => qb.where("qr.buyer_id", "=", buyerId!))
    .where(createdIn(range))
    .limit(RANGE_SORT_CAP + 1);
  const result = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (${inRange})`.execute(database);
  return Number(result.rows[0]?.n ?? 0) <= RANGE_SORT_CAP;
}

/** A request's amount as the «Monto» sort reads it (indexes quote_requests_*amount). */
const AMOUNT_KEY = sql`coalesce(qr.total_amount_cents, -1)`;

/** The keyset columns of a request list sorted by creation or amount. */
function requestSortColumns(sort: ListSort) {
  if (sort === "monto") return { key: AMOUNT_KEY, id: "qr.id", numeric: true } as const;
  return {
    key: "qr.created_at",
    id: "qr.id",
    order: sort === "antiguos" ? "asc" : "desc",
  } as const;
}

const requestSortKey =
  (sort: ListSort) =>
  (row: { id: number; created_at: string; total_amount_cents: number | null }) => ({
    key: sort === "monto" ? String(row.total_amount_cents ?? -1) : row.created_at,
    id: row.id,
  });

export async function listBuyerRequests(
  database: DB,
  {
    buyerId,
    q,
    status,
    page,
    range = { from: null, to: null },
    sort = "recientes",
    counts,
  }: {
    buyerId: number;
    q: string;
    status: RequestStatus | null;
    page: PageRequest;
    range?: DayRange;
    sort?: ListSort;
    /** The buyer's status counters, when the page has read them already. */
    counts?: StatusCounts;
  },
) {
  // The default view (newest first, no range) keeps its search read page by page from the index.
  const plain = sort === "recientes" && !hasRange(range);
  const through: RequestIndex | null = (await fewInRange(database, range, buyerId))
    ? "quote_requests_buyer_created"
    : sort === "monto"
      ? "quote_requests_buyer_amount"
      : null;
  let base = requestsFrom(database, through).where("qr.buyer_id", "=", buyerId);
  if (status) base = base.where("qr.status", "=", status);
  if (hasRange(range)) base = base.where(createdIn(range));
  // A plain full-text search is counted in the index alone; see `total` below.
  let indexCount: string | null = null;
  if (q) {
    const expression = matchExpression(q, ["title", "description"]);
    const literal = !expression || needsLiteralMatch(q);
    if (expression) {
      const match = scopedMatch(
        expression,
        scopeHas(scopeToken.buyer(buyerId)),
        ...(status ? [scopeHas(scopeToken.status(status))] : []),
      );
      base = base.where(
        "qr.id",
        "in",
        literal || !plain
          ? matchingRequestIds(database, match)
          : matchingPageIds(database, match, page, REQUESTS_PAGE_SIZE),
      );
      if (plain && !literal) indexCount = match;
    }
    if (literal) {
      const pattern = likePattern(q);
      base = base.where((eb) =>
        eb.or([
          sql<boolean>`qr.title LIKE ${pattern} ESCAPE '\\'`,
          sql<boolean>`coalesce(qr.description, '') LIKE ${pattern} ESCAPE '\\'`,
        ]),
      );
    }
  }
  // One count, the one the list shows: a search's or a date range's rows up to the cap, else
  // the counters.
  const total =
    indexCount !== null
      ? countMatchingRequests(database, indexCount)
      : q || hasRange(range)
        ? cappedCount(database, base.select("qr.id"))
        : totalByStatus(database, buyerId, status, counts);
  const searchOrder = q && plain;
  const [read, count] = await Promise.all([
    readKeysetPage(
      base.select(buyerListColumns),
      page,
      searchOrder ? byCreated(q) : requestSortColumns(sort),
      REQUESTS_PAGE_SIZE,
    ),
    total,
  ]);
  const { rows, pageInfo } = finishPage(
    read,
    page,
    REQUESTS_PAGE_SIZE,
    searchOrder ? keyOfRequest(q) : requestSortKey(sort),
  );
  return {
    rows,
    pageInfo,
    total: count,
    totalCapped: (Boolean(q) || hasRange(range)) && count > SEARCH_COUNT_CAP,
  };
}

// ---- Shared detail pieces

/** What a request's detail page shows besides the request: quotes, history and payments. */
async function requestDetails(database: DB, requestId: number) {
  const [officialQuote, partnerQuotes, history, payments] = await Promise.all([
    database
      .selectFrom("official_quotes")
      .select([
        "id",
        "partner_quote_id",
        "version",
        "final_amount_cents",
        "subtotal_cents",
        "tax_rate",
        "tax_cents",
        "lead_time_days",
        "payment_terms",
        "commission_percentage",
        "commission_amount_cents",
        "currency",
        "valid_until",
        "renewal_requested_at",
        "created_at",
      ])
      .where("quote_request_id", "=", requestId)
      .where("superseded_at", "is", null)
      .executeTakeFirst(),
    database
      .selectFrom("partner_quotes as pq")
      .innerJoin("users as p", "p.id", "pq.partner_id")
      .select([
        "pq.id",
        "pq.partner_id",
        "pq.quoted_amount_cents",
        "pq.subtotal_cents",
        "pq.tax_rate",
        "pq.tax_cents",
        "pq.lead_time_days",
        "pq.valid_until",
        "pq.payment_terms",
        "pq.notes",
        "pq.file_name",
        "pq.file_key",
        "pq.is_selected",
        "pq.created_at",
        "pq.updated_at",
        "p.first_name",
        "p.last_name",
        "p.company_name",
        "p.email",
      ])
      .where("pq.quote_request_id", "=", requestId)
      .orderBy("pq.quoted_amount_cents")
      .orderBy("pq.id")
      .execute(),
    database
      .selectFrom("request_status_history as h")
      .leftJoin("users as a", "a.id", "h.actor_id")
      .select([
        "h.id",
        "h.from_status",
        "h.to_status",
        "h.note",
        "h.event",
        "h.created_at",
        "a.first_name as actor_first_name",
        "a.last_name as actor_last_name",
        "a.role as actor_role",
      ])
      .where("h.quote_request_id", "=", requestId)
      .orderBy("h.created_at")
      .orderBy("h.id")
      .execute(),
    database
      .selectFrom("payments")
      .select([
        "id",
        "amount_cents",
        "method",
        "status",
        "proof_name",
        "proof_key",
        "rejection_reason",
        "submitted_at",
        "confirmed_at",
        "created_at",
      ])
      .where("quote_request_id", "=", requestId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute(),
  ]);
  const lines = await offerItems(
    database,
    partnerQuotes.map((pq) => pq.id),
  );
  return {
    officialQuote,
    partnerQuotes: partnerQuotes.map((pq) => ({ ...pq, lines: lines.get(pq.id) ?? [] })),
    history,
    payments,
  };
}

const requestColumns = [
  "qr.id",
  "qr.buyer_id",
  "qr.title",
  "qr.description",
  "qr.file_name",
  "qr.file_type",
  "qr.file_size",
  "qr.status",
  "qr.total_amount_cents",
  "qr.admin_notes",
  "qr.rejection_reason",
  "qr.quote_deadline",
  "qr.needed_by",
  "qr.cancellation_reason",
  "qr.created_at",
  "qr.updated_at",
] as const;

/** SPEC §6: a buyer's request is fetched by both id and buyer; anything else is "not found". */
export async function getRequestForBuyer(
  database: DB,
  { id, buyerId }: { id: number; buyerId: number },
) {
  const request = await database
    .selectFrom("quote_requests as qr")
    .select(requestColumns)
    .where("qr.id", "=", id)
    .where("qr.buyer_id", "=", buyerId)
    .executeTakeFirst();
  if (!request) return undefined;
  const details = await requestDetails(database, id);
  const history = details.history.filter((h) => !h.event || !PARTNER_EVENTS.includes(h.event));
  // SPEC: the buyer sees who offered (name, company) and for how much; never a partner's
  // contact details, ids or stored files, which would otherwise reach the page's data.
  const partnerQuotes = details.partnerQuotes.map((pq) => ({
    id: pq.id,
    first_name: pq.first_name,
    last_name: pq.last_name,
    company_name: pq.company_name,
    notes: pq.notes,
    quoted_amount_cents: pq.quoted_amount_cents,
    subtotal_cents: pq.subtotal_cents,
    tax_rate: pq.tax_rate,
    is_selected: pq.is_selected,
  }));
  return { request, ...details, partnerQuotes, history };
}

// ---- Admin

interface AdminCounts extends StatusCounts {
  /** `assigned` requests that already have at least one partner quote ("Cotización Recibida"). */
  withQuotes: number;
}

export async function adminStatusCounts(database: DB): Promise<AdminCounts> {
  const rows = await database
    .selectFrom("request_status_counts")
    .select(["status", "requests", "with_quotes"])
    .execute();
  const assigned = rows.find((row) => row.status === "assigned");
  return { ...statusCountsOf(rows), withQuotes: Number(assigned?.with_quotes ?? 0) };
}

/**
 * An index a list names instead of leaving the choice to the planner, which without statistics
 * (a new database, or a table rebuilt by a migration) starts from the status index and sorts every
 * open request; "none" reads the table by id only (a few search matches, or an export in id order).
 * The deadline indexes: quote_requests_deadline and quote_requests_open_deadline (migration
 * 2026-11-26T04-00_sourcing_round), quote_requests_open_created and quote_requests_status_deadline
 * (2026-11-26T06-00_round_summaries); the amount indexes (2026-11-27T04-00_list_sorting) and
 * the creation indexes (initial) for the lists' sorts and date ranges.
 */
type RequestIndex =
  | "quote_requests_created"
  | "quote_requests_buyer_created"
  | "quote_requests_amount"
  | "quote_requests_open_amount"
  | "quote_requests_buyer_amount"
  | "quote_requests_deadline"
  | "quote_requests_open_deadline"
  | "quote_requests_open_created"
  | "quote_requests_status_deadline"
  | "none";

/** quote_requests as `qr`, read through `index` when one is named. */
function requestsFrom(database: DB, index: RequestIndex | null) {
  const plain = database.selectFrom("quote_requests as qr");
  if (index === null) return plain;
  const hint = index === "none" ? sql`NOT INDEXED` : sql`INDEXED BY ${sql.raw(index)}`;
  // The same table and columns: SQLite flattens the subquery and keeps only its index clause.
  return database.selectFrom(
    sql<Database["quote_requests"]>`(SELECT * FROM quote_requests ${hint})`.as("qr"),
  ) as unknown as typeof plain;
}

function adminRequestColumns(database: DB, index: RequestIndex | null = null) {
  return requestsFrom(database, index)
    .innerJoin("users as b", "b.id", "qr.buyer_id")
    .select([
      "qr.id",
      "qr.title",
      "qr.status",
      "qr.total_amount_cents",
      "qr.quote_deadline",
      "qr.created_at",
      "b.first_name as buyer_first_name",
      "b.last_name as buyer_last_name",
      "b.company_name as buyer_company",
      (eb) =>
        eb
          .selectFrom("partner_quotes as pq")
          .select((s) => s.fn.countAll<number>().as("n"))
          .whereRef("pq.quote_request_id", "=", "qr.id")
          .as("partner_quote_count"),
      (eb) =>
        eb
          .selectFrom("partner_assignments as pa")
          .select((s) => s.fn.countAll<number>().as("n"))
          .whereRef("pa.quote_request_id", "=", "qr.id")
          // Partners still in the round: one who declined or was withdrawn is not counted.
          .where("pa.state", "not in", ["declined", "withdrawn"])
          .as("assignment_count"),
    ]);
}

function withCounts<T extends { partner_quote_count: unknown; assignment_count: unknown }>(
  rows: T[],
) {
  return rows.map((row) => ({
    ...row,
    partner_quote_count: Number(row.partner_quote_count ?? 0),
    assignment_count: Number(row.assignment_count ?? 0),
  }));
}

/** The newest requests for the admin dashboard. */
export async function latestAdminRequests(database: DB, limit = 10) {
  return withCounts(
    await adminRequestColumns(database)
      .orderBy("qr.created_at", "desc")
      .orderBy("qr.id", "desc")
      .limit(limit)
      .execute(),
  );
}

/** The admin list's filters (`now` decides which deadlines have passed). */
interface AdminFilters {
  q: string;
  status: RequestStatus | null;
  deadline?: DeadlineFilter | null;
  now?: Date;
  /** Days of creation (app/domain/list-filters). */
  range?: DayRange;
}

/**
 * The admin list's order: the list's `orden` (app/domain/list-filters), or the desk's older names
 * ("newest", "deadline") still used by its callers.
 */
type AdminSort = Extract<ListSort, "recientes" | "antiguos" | "plazo" | "monto"> | RequestSort;

function adminSortOf(sort: AdminSort): "recientes" | "antiguos" | "plazo" | "monto" {
  if (sort === "newest") return "recientes";
  if (sort === "deadline") return "plazo";
  return sort;
}

/**
 * Requests due within the next 24 h, or past their deadline, and open (pending or assigned) when
 * `open` says so (not needed beside a status filter that is open already). The statuses are
 * written out, not bound, so the partial indexes of open requests apply.
 */
function deadlineCondition(deadline: DeadlineFilter, now: Date, open: boolean) {
  const statuses = sql.raw(OPEN_STATUSES.map((s) => `'${s}'`).join(", "));
  const at = now.toISOString();
  const range =
    deadline === "overdue"
      ? sql<boolean>`qr.quote_deadline <= ${at}`
      : sql<boolean>`qr.quote_deadline > ${at}
        AND qr.quote_deadline <= ${new Date(now.getTime() + DUE_SOON_MS).toISOString()}`;
  return open ? sql<boolean>`(qr.status IN (${statuses}) AND ${range})` : sql<boolean>`(${range})`;
}

/** Text with LIKE's wildcards must also appear literally (see needsLiteralMatch). */
function literalCondition(q: string) {
  const pattern = likePattern(q);
  return sql<boolean>`(qr.title LIKE ${pattern} ESCAPE '\\'
    OR coalesce(qr.description, '') LIKE ${pattern} ESCAPE '\\'
    OR coalesce(b.company_name, '') LIKE ${pattern} ESCAPE '\\'
    OR b.email LIKE ${pattern} ESCAPE '\\')`;
}

/**
 * The admin list's filters as one query: the status, the deadline, and a search through the
 * index, plus a literal LIKE when the text has LIKE's wildcards. `match` is the index expression of
 * the search; `nothing` says only punctuation was typed, which matches nothing.
 */
function filteredAdminRequests(
  database: DB,
  { q, status, deadline = null, now = new Date(), range }: AdminFilters,
  through: RequestIndex | null = null,
) {
  let base = adminRequestColumns(database, through);
  if (status) base = base.where("qr.status", "=", status);
  if (range && hasRange(range)) base = base.where(createdIn(range));
  if (deadline) {
    // The partial indexes of open requests (by creation, by amount) need the open statuses
    // written out.
    const open =
      status === null ||
      through === "quote_requests_open_created" ||
      through === "quote_requests_open_amount";
    base = base.where(deadlineCondition(deadline, now, open));
  }
  if (!q) return { base, match: null, literal: false, nothing: false };
  const expression = matchExpression(q, ["title", "description", "buyer"]);
  if (!expression) return { base, match: null, literal: false, nothing: true };
  // A «Plazo» filter keeps open requests only: so does the search, in the index.
  const match = status
    ? scopedMatch(expression, scopeHas(scopeToken.status(status)))
    : deadline
      ? scopedMatch(expression, scopeHasAny(...OPEN_STATUSES.map((s) => scopeToken.status(s))))
      : expression;
  const literal = needsLiteralMatch(q);
  if (literal) {
    base = base
      .where("qr.id", "in", matchingRequestIds(database, match))
      .where(literalCondition(q));
  }
  return { base, match, literal, nothing: false };
}

const NO_ROWS = {
  rows: [],
  pageInfo: { page: 1, prev: null, next: null },
  total: 0,
  totalCapped: false,
};

export async function listAdminRequests(
  database: DB,
  {
    q,
    status,
    deadline = null,
    sort = "recientes",
    page,
    now = new Date(),
    range = { from: null, to: null },
    counts,
  }: AdminFilters & {
    sort?: AdminSort;
    page: PageRequest;
    /** The desk's status counters, when the page has read them already. */
    counts?: StatusCounts;
  },
) {
  const order = adminSortOf(sort);
  if (deadline || order !== "recientes" || hasRange(range))
    return listAdminRequestsSorted(database, {
      q,
      status,
      deadline,
      sort: order,
      page,
      now,
      range,
      counts,
    });
  const filtered = filteredAdminRequests(database, { q, status });
  if (filtered.nothing) return NO_ROWS;
  let { base } = filtered;
  const { match, literal } = filtered;
  let total: Promise<number>;
  if (match === null) {
    total = totalByStatus(database, null, status, counts);
  } else if (literal) {
    total = cappedCount(database, base.clearSelect().select("qr.id"));
  } else {
    base = base.where("qr.id", "in", matchingPageIds(database, match, page, REQUESTS_PAGE_SIZE));
    total = countMatchingRequests(database, match);
  }
  const [read, count] = await Promise.all([
    readKeysetPage(base, page, byCreated(q), REQUESTS_PAGE_SIZE),
    total,
  ]);
  const { rows, pageInfo } = finishPage(read, page, REQUESTS_PAGE_SIZE, keyOfRequest(q));
  return {
    rows: withCounts(rows),
    pageInfo,
    total: count,
    totalCapped: Boolean(q) && count > SEARCH_COUNT_CAP,
  };
}

/**
 * The index a sorted or filtered view reads (RequestIndex), chosen from its filters, so every page
 * is one index range read in the list's order and stopped at the page's end:
 * - a search that matches at most SEARCH_COUNT_CAP requests: those requests, by id ("none");
 * - a date range holding at most RANGE_SORT_CAP requests: that range of the creation index, sorted;
 * - a search over a wider date range, by creation: that range of the creation index;
 * - largest amount first with a «Plazo» filter that holds at most RANGE_SORT_CAP requests: those
 *   requests by deadline, sorted (the amount index would be walked to its end for none);
 * - soonest deadline first: the open requests by deadline with «Plazo» (by status and deadline
 *   when a status is chosen), every request by deadline without;
 * - largest amount first: the amount index (a status filter is checked on each row read: every
 *   status holds a share of the requests, so a page stops after a bounded walk), the open
 *   requests' one with «Plazo»;
 * - by creation with «Plazo»: the open requests by creation (their deadline and status are in the
 *   index, so a filter that matches few rows still reads no table row it throws away);
 * - by creation otherwise: the planner's choice, a range of the (status,) creation index.
 */
function sortedIndex({
  status,
  deadline,
  sort,
  fewMatches,
  fewCreated,
  fewDue,
  searched,
  ranged,
}: {
  status: RequestStatus | null;
  deadline: DeadlineFilter | null;
  sort: "recientes" | "antiguos" | "plazo" | "monto";
  fewMatches: boolean;
  fewCreated: boolean;
  fewDue: boolean;
  searched: boolean;
  ranged: boolean;
}): RequestIndex | null {
  if (fewMatches) return "none";
  if (fewCreated) return "quote_requests_created";
  // A search over a wide date range, by creation: the range of the creation index, each row
  // checked against the search's matches. Left to itself, the planner walks every match instead
  // and looks each one up (112 ms against 27 for «válvulas» over a week of 1,000,000 requests).
  if (searched && ranged && !deadline && (sort === "recientes" || sort === "antiguos"))
    return "quote_requests_created";
  if (sort === "plazo" || fewDue) {
    if (status) return "quote_requests_status_deadline";
    return deadline ? "quote_requests_open_deadline" : "quote_requests_deadline";
  }
  if (sort === "monto") return deadline ? "quote_requests_open_amount" : "quote_requests_amount";
  return deadline ? "quote_requests_open_created" : null;
}

/**
 * The ids of the open requests a «Plazo» filter keeps, read in its index alone: the open requests
 * by deadline, or by status and deadline when a status is chosen.
 */
function dueRequestIds(
  database: DB,
  { status, deadline, now }: { status: RequestStatus | null; deadline: DeadlineFilter; now: Date },
) {
  return requestsFrom(
    database,
    status ? "quote_requests_status_deadline" : "quote_requests_open_deadline",
  )
    .select("qr.id")
    .$if(status !== null, (qb) => qb.where("qr.status", "=", status!))
    .where(deadlineCondition(deadline, now, status === null));
}

/** Whether at most RANGE_SORT_CAP open requests pass a «Plazo» filter (counted in its index). */
async function fewDueIn(
  database: DB,
  filters: { status: RequestStatus | null; deadline: DeadlineFilter; now: Date },
) {
  const due = dueRequestIds(database, filters).limit(RANGE_SORT_CAP + 1);
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM (${due})`.execute(database);
  return Number(result.rows[0]?.n ?? 0) <= RANGE_SORT_CAP;
}

/** Where a sorted view reads its rows (sortedIndex), from a search's and a range's sizes. */
async function sortedSource(
  database: DB,
  filters: Required<AdminFilters> & { sort: "recientes" | "antiguos" | "plazo" | "monto" },
) {
  const { q, status, deadline, now, range, sort } = filters;
  const searched = q ? filteredAdminRequests(database, { q, status, deadline, now }) : null;
  const match = searched?.match ?? null;
  const [matched, fewCreated, fewDue] = await Promise.all([
    match === null ? null : countMatchingRequests(database, match),
    fewInRange(database, range),
    deadline !== null && sort === "monto" ? fewDueIn(database, { status, deadline, now }) : false,
  ]);
  const through = sortedIndex({
    status,
    deadline,
    sort,
    fewMatches: matched !== null && matched <= SEARCH_COUNT_CAP,
    fewCreated,
    fewDue,
    searched: match !== null,
    ranged: hasRange(range),
  });
  const filtered = filteredAdminRequests(database, filters, through);
  let { base } = filtered;
  if (match !== null && !filtered.literal)
    base = base.where("qr.id", "in", matchingRequestIds(database, match));
  return {
    base,
    match,
    matched,
    literal: filtered.literal,
    nothing: Boolean(searched?.nothing),
  };
}

/**
 * Reads one keyset page of a sorted admin view; soonest deadline first and largest amount first
 * read over ties (readKeysetPageOverTies).
 */
function readSortedPage<D, TB extends keyof D, O>(
  database: DB,
  base: SelectQueryBuilder<D, TB, O>,
  sort: "recientes" | "antiguos" | "plazo" | "monto",
  page: PageRequest,
  pageSize: number,
) {
  return sort === "plazo"
    ? readKeysetPageOverTies(
        database,
        base,
        page,
        { key: "qr.quote_deadline", id: "qr.id", order: "asc" },
        { key: "quote_deadline", id: "id" },
        pageSize,
      )
    : sort === "monto"
      ? // Thousands of requests share "no amount yet": their tie is read as deadlines' are.
        readKeysetPageOverTies(
          database,
          base,
          page,
          { key: AMOUNT_KEY, id: "qr.id", numeric: true },
          { key: "total_amount_cents", id: "id" },
          pageSize,
        )
      : readKeysetPage(base, page, requestSortColumns(sort), pageSize);
}

const adminSortKey =
  (sort: "recientes" | "antiguos" | "plazo" | "monto") =>
  (row: {
    id: number;
    created_at: string;
    quote_deadline: string;
    total_amount_cents: number | null;
  }) => (sort === "plazo" ? { key: row.quote_deadline, id: row.id } : requestSortKey(sort)(row));

/** The admin list with a «Plazo» filter, a date range or a sort other than newest first. */
async function listAdminRequestsSorted(
  database: DB,
  filters: Required<AdminFilters> & {
    sort: "recientes" | "antiguos" | "plazo" | "monto";
    page: PageRequest;
    counts?: StatusCounts;
  },
) {
  const { status, deadline, now, range, sort, page, counts } = filters;
  // Only open requests have a deadline that counts: another status with «Plazo» shows nothing.
  if (deadline && status && !isOpenStatus(status)) return NO_ROWS;
  const { base, match, matched, literal, nothing } = await sortedSource(database, filters);
  if (nothing) return NO_ROWS;
  let total: Promise<number>;
  if (match !== null) {
    total =
      deadline || literal || hasRange(range)
        ? cappedCount(database, base.clearSelect().select("qr.id"))
        : Promise.resolve(matched!);
  } else if (hasRange(range)) {
    // Counted up to SEARCH_COUNT_CAP + 1 ("Más de 200"), through the creation index.
    total = cappedCount(
      database,
      filteredAdminRequests(database, filters).base.clearSelect().select("qr.id"),
    );
  } else if (deadline) {
    // Counted in the index alone (the open requests by deadline, by status and deadline), up to
    // SEARCH_COUNT_CAP + 1: every open request can be overdue, and a full count grows with them.
    total = cappedCount(database, dueRequestIds(database, { status, deadline, now }));
  } else {
    total = totalByStatus(database, null, status, counts);
  }
  const [read, count] = await Promise.all([
    readSortedPage(database, base, sort, page, REQUESTS_PAGE_SIZE),
    total,
  ]);
  const { rows, pageInfo } = finishPage(read, page, REQUESTS_PAGE_SIZE, adminSortKey(sort));
  return {
    rows: withCounts(rows),
    pageInfo,
    total: count,
    totalCapped:
      (match !== null || hasRange(range) || deadline !== null) && count > SEARCH_COUNT_CAP,
  };
}

/**
 * The request a search names by its number (utils/search requestReferenceIn), for the operator's
 * lists to offer it above the text matches: a transfer's reference is «Solicitud N.º 12».
 */
export function requestByReference(database: DB, id: number | null) {
  if (id === null) return Promise.resolve(null);
  return database
    .selectFrom("quote_requests as qr")
    .innerJoin("users as b", "b.id", "qr.buyer_id")
    .select([
      "qr.id",
      "qr.title",
      "qr.status",
      "b.first_name as buyer_first_name",
      "b.last_name as buyer_last_name",
      "b.company_name as buyer_company",
    ])
    .where("qr.id", "=", id)
    .executeTakeFirst()
    .then((row) => row ?? null);
}

/**
 * Every request the admin list shows with these filters, for the CSV export, in batches: newest
 * first read by id (one pass down the table), or in the list's own order when it is sorted
 * otherwise, batch by batch as the list's pages are read.
 */
export async function* exportAdminRequests(
  database: DB,
  filters: AdminFilters & { sort?: AdminSort },
) {
  const sort = adminSortOf(filters.sort ?? "recientes");
  const extra = [
    "b.email as buyer_email",
    "qr.updated_at",
    // The current official quote's commission: the desk's revenue, to reconcile from the file.
    sql<number | null>`(SELECT oq.commission_amount_cents FROM official_quotes oq
      WHERE oq.quote_request_id = qr.id AND oq.superseded_at IS NULL)`.as("commission_cents"),
  ] as const;
  if (sort !== "recientes") {
    const full = {
      q: filters.q,
      status: filters.status,
      deadline: filters.deadline ?? null,
      now: filters.now ?? new Date(),
      range: filters.range ?? { from: null, to: null },
      sort,
    };
    if (full.deadline && full.status && !isOpenStatus(full.status)) return;
    const { base, nothing } = await sortedSource(database, full);
    if (nothing) return;
    const query = base.select(extra);
    for await (const rows of inKeysetBatches(
      (request, size) => readSortedPage(database, query, sort, request, size),
      adminSortKey(sort),
    )) {
      yield withCounts(rows);
    }
    return;
  }
  // With a «Plazo» filter or a date range, one pass over the requests by id finds every batch.
  const { base, match, literal, nothing } = filteredAdminRequests(
    database,
    filters,
    filters.deadline || (filters.range && hasRange(filters.range)) ? "none" : null,
  );
  if (nothing) return;
  const query =
    match !== null && !literal
      ? base.where("qr.id", "in", matchingRequestIds(database, match))
      : base;
  for await (const rows of inBatches(query.select(extra), "qr.id")) {
    yield withCounts(rows);
  }
}

export async function getRequestForAdmin(database: DB, id: number) {
  const request = await database
    .selectFrom("quote_requests as qr")
    .innerJoin("users as b", "b.id", "qr.buyer_id")
    .select([
      ...requestColumns,
      "b.first_name as buyer_first_name",
      "b.last_name as buyer_last_name",
      "b.company_name as buyer_company",
      "b.email as buyer_email",
      "b.phone as buyer_phone",
      "b.deactivated_at as buyer_deactivated_at",
    ])
    .where("qr.id", "=", id)
    .executeTakeFirst();
  if (!request) return undefined;
  const [details, assignments] = await Promise.all([
    requestDetails(database, id),
    database
      .selectFrom("partner_assignments as pa")
      .innerJoin("users as p", "p.id", "pa.partner_id")
      .select([
        "pa.id",
        "pa.partner_id",
        "pa.assigned_at",
        "pa.state",
        "pa.decline_reason",
        "pa.state_changed_at",
        "p.first_name",
        "p.last_name",
        "p.company_name",
        "p.deactivated_at",
        "p.role",
      ])
      .where("pa.quote_request_id", "=", id)
      .orderBy("pa.assigned_at")
      .execute(),
  ]);
  return { request, ...details, assignments };
}

/**
 * Partners an admin may still assign to a request: active, and not on it, or on it only as an
 * invitation the operator withdrew (assigning them again renews it, see assignPartners).
 */
export function listAssignablePartners(database: DB, requestId: number) {
  return database
    .selectFrom("users as p")
    .select(["p.id", "p.first_name", "p.last_name", "p.company_name"])
    .where("p.role", "=", "partner")
    .where("p.deactivated_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("partner_assignments as pa")
            .select("pa.id")
            .whereRef("pa.partner_id", "=", "p.id")
            .where("pa.quote_request_id", "=", requestId)
            .where("pa.state", "!=", "withdrawn"),
        ),
      ),
    )
    .orderBy("p.company_name")
    .orderBy("p.first_name")
    .limit(500)
    .execute();
}

export { REQUEST_STATUSES };
