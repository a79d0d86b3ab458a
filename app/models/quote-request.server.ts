import { sql, type Expression } from "kysely";
import { offerItems } from "./quote-items.server";
import type { Database, RequestStatus } from "../../db/schema";
import { REQUESTS_PAGE_SIZE } from "~/domain/pagination";
import { finishPage, pageWindow, type PageRequest } from "~/utils/keyset";
import {
  inBatches,
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
  requestSortFrom,
  type DeadlineFilter,
  type RequestSort,
} from "~/domain/deadline";
import type { DB } from "~/services/db.server";

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
export function searchFromUrl(url: URL): string {
  return (url.searchParams.get("q") ?? "").trim().slice(0, 100);
}

export function statusFromUrl(url: URL): RequestStatus | null {
  const status = url.searchParams.get("status");
  return isRequestStatus(status) ? status : null;
}

/** The desk's «Plazo» filter from ?deadline= (anything else: no filter). */
export function deadlineFromUrl(url: URL): DeadlineFilter | null {
  const deadline = url.searchParams.get("deadline");
  return isDeadlineFilter(deadline) ? deadline : null;
}

/** ?sort=deadline, or the default newest first. */
export function sortFromUrl(url: URL): RequestSort {
  return requestSortFrom(url.searchParams.get("sort"));
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

const buyerListColumns = [
  "qr.id",
  "qr.title",
  "qr.description",
  "qr.status",
  "qr.total_amount_cents",
  "qr.created_at",
  "qr.updated_at",
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

/** The rows `query` selects, counted up to SEARCH_COUNT_CAP + 1. */
async function cappedCount(
  database: DB,
  query: { limit(n: number): Expression<unknown> },
): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM (${query.limit(
    SEARCH_COUNT_CAP + 1,
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

export async function listBuyerRequests(
  database: DB,
  {
    buyerId,
    q,
    status,
    page,
  }: { buyerId: number; q: string; status: RequestStatus | null; page: PageRequest },
) {
  let base = database.selectFrom("quote_requests as qr").where("qr.buyer_id", "=", buyerId);
  if (status) base = base.where("qr.status", "=", status);
  let total: Promise<number> = countByStatus(database, buyerId).then((c) =>
    status ? c[status] : c.total,
  );
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
        literal
          ? matchingRequestIds(database, match)
          : matchingPageIds(database, match, page, REQUESTS_PAGE_SIZE),
      );
      total = countMatchingRequests(database, match);
    }
    if (literal) {
      const pattern = likePattern(q);
      base = base.where((eb) =>
        eb.or([
          sql<boolean>`qr.title LIKE ${pattern} ESCAPE '\\'`,
          sql<boolean>`coalesce(qr.description, '') LIKE ${pattern} ESCAPE '\\'`,
        ]),
      );
      total = cappedCount(database, base.select("qr.id"));
    }
  }
  const [read, count] = await Promise.all([
    readKeysetPage(base.select(buyerListColumns), page, byCreated(q), REQUESTS_PAGE_SIZE),
    total,
  ]);
  const { rows, pageInfo } = finishPage(read, page, REQUESTS_PAGE_SIZE, keyOfRequest(q));
  return { rows, pageInfo, total: count, totalCapped: count > SEARCH_COUNT_CAP };
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
  return { request, ...details, history };
}

// ---- Admin

interface AdminCounts extends StatusCounts {
  /** `assigned` requests that already have at least one partner quote ("Cotización Recibida"). */
  withQuotes: number;
}

export async function adminStatusCounts(database: DB): Promise<AdminCounts> {
  const [counts, assigned] = await Promise.all([
    countByStatus(database, null),
    database
      .selectFrom("request_status_counts")
      .select("with_quotes")
      .where("status", "=", "assigned")
      .executeTakeFirst(),
  ]);
  return { ...counts, withQuotes: Number(assigned?.with_quotes ?? 0) };
}

/**
 * An index a list names instead of leaving the choice to the planner, which without statistics
 * (a new database, or a table rebuilt by a migration) starts from the status index and sorts every
 * open request; "none" reads the table by id only (a few search matches, or an export in id order).
 * The deadline indexes: quote_requests_deadline and quote_requests_open_deadline (migration
 * 2026-11-26T04-00_sourcing_round), quote_requests_open_created and quote_requests_status_deadline
 * (2026-11-26T06-00_round_summaries).
 */
type RequestIndex =
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
  { q, status, deadline = null, now = new Date() }: AdminFilters,
  through: RequestIndex | null = null,
) {
  let base = adminRequestColumns(database, through);
  if (status) base = base.where("qr.status", "=", status);
  if (deadline) {
    // The partial index of open requests by creation needs the open statuses written out.
    const open = status === null || through === "quote_requests_open_created";
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
    sort = "newest",
    page,
    now = new Date(),
  }: AdminFilters & { sort?: RequestSort; page: PageRequest },
) {
  if (deadline || sort === "deadline")
    return listAdminRequestsByDeadline(database, { q, status, deadline, sort, page, now });
  const filtered = filteredAdminRequests(database, { q, status });
  if (filtered.nothing) return NO_ROWS;
  let { base } = filtered;
  const { match, literal } = filtered;
  let total: Promise<number>;
  if (match === null) {
    total = countByStatus(database, null).then((c) => (status ? c[status] : c.total));
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
 * The index a deadline view reads (RequestIndex), chosen from its filters, so every page is one
 * index range read in the list's order and stopped at the page's end:
 * - «Plazo» filter, newest first: the open requests by creation (their deadline and status are in
 *   the index, so a filter that matches few rows still reads no table row it throws away);
 * - «Plazo» filter, soonest first: the open requests by deadline (by status and deadline when a
 *   status is chosen);
 * - soonest first without «Plazo»: every request by deadline (by status and deadline with a status);
 * - a search that matches at most SEARCH_COUNT_CAP requests: those requests, by id ("none").
 */
function deadlineIndex({
  status,
  deadline,
  sort,
  fewMatches,
}: {
  status: RequestStatus | null;
  deadline: DeadlineFilter | null;
  sort: RequestSort;
  fewMatches: boolean;
}): RequestIndex {
  if (fewMatches) return "none";
  if (deadline && sort === "newest") return "quote_requests_open_created";
  if (status) return "quote_requests_status_deadline";
  return deadline ? "quote_requests_open_deadline" : "quote_requests_deadline";
}

/** The admin list with a «Plazo» filter, or sorted by deadline (see deadlineIndex). */
async function listAdminRequestsByDeadline(
  database: DB,
  {
    q,
    status,
    deadline,
    sort,
    page,
    now,
  }: Required<AdminFilters> & { sort: RequestSort; page: PageRequest },
) {
  // Only open requests have a deadline that counts: another status with «Plazo» shows nothing.
  if (deadline && status && !isOpenStatus(status)) return NO_ROWS;
  const searched = q ? filteredAdminRequests(database, { q, status, deadline, now }) : null;
  if (searched?.nothing) return NO_ROWS;
  const match = searched?.match ?? null;
  const matched = match === null ? null : await countMatchingRequests(database, match);
  const through = deadlineIndex({
    status,
    deadline,
    sort,
    fewMatches: matched !== null && matched <= SEARCH_COUNT_CAP,
  });
  const filtered = filteredAdminRequests(database, { q, status, deadline, now }, through);
  let { base } = filtered;
  if (match !== null && !filtered.literal)
    base = base.where("qr.id", "in", matchingRequestIds(database, match));
  let total: Promise<number>;
  if (match !== null) {
    total =
      deadline || filtered.literal
        ? cappedCount(database, base.clearSelect().select("qr.id"))
        : Promise.resolve(matched!);
  } else if (deadline) {
    // Counted in the index alone: the open requests by deadline (by status and deadline).
    total = requestsFrom(
      database,
      status ? "quote_requests_status_deadline" : "quote_requests_open_deadline",
    )
      .$if(status !== null, (qb) => qb.where("qr.status", "=", status!))
      .where(deadlineCondition(deadline, now, status === null))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  } else {
    total = countByStatus(database, null).then((c) => (status ? c[status] : c.total));
  }
  const byDeadline = sort === "deadline";
  const [read, count] = await Promise.all([
    byDeadline
      ? readKeysetPageOverTies(
          database,
          base,
          page,
          { key: "qr.quote_deadline", id: "qr.id", order: "asc" },
          { key: "quote_deadline", id: "id" },
          REQUESTS_PAGE_SIZE,
        )
      : readKeysetPage(base, page, { key: "qr.created_at", id: "qr.id" }, REQUESTS_PAGE_SIZE),
    total,
  ]);
  const { rows, pageInfo } = finishPage(read, page, REQUESTS_PAGE_SIZE, (row) => ({
    key: byDeadline ? row.quote_deadline : row.created_at,
    id: row.id,
  }));
  return {
    rows: withCounts(rows),
    pageInfo,
    total: count,
    totalCapped: match !== null && count > SEARCH_COUNT_CAP,
  };
}

/**
 * Every request the admin list shows with these filters, for the CSV export, in batches (newest
 * first, whatever the list's sort: the export is read by id).
 */
export async function* exportAdminRequests(database: DB, filters: AdminFilters) {
  // With a «Plazo» filter, one pass over the requests by id finds every batch.
  const { base, match, literal, nothing } = filteredAdminRequests(
    database,
    filters,
    filters.deadline ? "none" : null,
  );
  if (nothing) return;
  const query =
    match !== null && !literal
      ? base.where("qr.id", "in", matchingRequestIds(database, match))
      : base;
  for await (const rows of inBatches(
    query.select(["b.email as buyer_email", "qr.updated_at"]),
    "qr.id",
  )) {
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
      ])
      .where("pa.quote_request_id", "=", id)
      .orderBy("pa.assigned_at")
      .execute(),
  ]);
  return { request, ...details, assignments };
}

/** Partners an admin may still assign to a request (active, and not yet assigned to it). */
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
            .where("pa.quote_request_id", "=", requestId),
        ),
      ),
    )
    .orderBy("p.company_name")
    .orderBy("p.first_name")
    .limit(500)
    .execute();
}

export { REQUEST_STATUSES };
