import {
  sql,
  type ExpressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";
import { offerItems } from "./quote-items.server";
import type { Database } from "../../db/schema";
import type { PartnerFilter } from "~/domain/quote-status";
import { db as appDb, type DB } from "~/services/db.server";
import { notFound } from "~/services/respond.server";
import { idFrom } from "~/utils/ids";
import { requireRole } from "./auth.server";
import { finishPage, pageWindow, type Cursor, type PageRequest } from "~/utils/keyset";
import { pageStartsWithin, readKeysetPage } from "./keyset.server";
import {
  matchExpression,
  needsLiteralMatch,
  scopedMatch,
  scopeHas,
  scopeToken,
} from "~/utils/search";
import {
  countMatchingRequests,
  matchingPageIds,
  matchingRequestIds,
  SEARCH_COUNT_CAP,
} from "./quote-request.server";

/**
 * What a partner sees of the requests assigned to them. Every query starts from the partner's own
 * assignments (index `partner_assignments_partner`), so nothing here can reach another partner's
 * request or quote, and the cost grows with the partner's assignments, not with the whole table.
 */

const ASSIGNMENTS_PAGE_SIZE = 20;
const PARTNER_QUOTES_PAGE_SIZE = 20;
const LATEST_ASSIGNMENTS = 10;

const PARTNER_FILTERS = [
  "all",
  "pending",
  "quoted",
  "won",
] as const satisfies readonly PartnerFilter[];

export function isPartnerFilter(value: unknown): value is PartnerFilter {
  return typeof value === "string" && (PARTNER_FILTERS as readonly string[]).includes(value);
}

type Scope = ExpressionBuilder<
  Database & {
    pa: Database["partner_assignments"];
    qr: Database["quote_requests"];
    pq: Database["partner_quotes"];
  },
  "pa" | "qr" | "pq"
>;

/** Assignments joined with the request, its buyer and the partner's own quote. */
function assignmentRows(database: DB) {
  return database
    .selectFrom("partner_assignments as pa")
    .innerJoin("quote_requests as qr", "qr.id", "pa.quote_request_id")
    .innerJoin("users as b", "b.id", "qr.buyer_id")
    .leftJoin("partner_quotes as pq", (join) =>
      join
        .onRef("pq.quote_request_id", "=", "pa.quote_request_id")
        .onRef("pq.partner_id", "=", "pa.partner_id"),
    );
}

/** The partner's assignments joined with the request, its buyer and the partner's own quote. */
function assignmentsOf(database: DB, partnerId: number) {
  return assignmentRows(database).where("pa.partner_id", "=", partnerId);
}

/**
 * Some of the partner's assignments, by id, with what assignmentsOf joins. The partner is checked
 * on each row read by id (`+` keeps the term out of index choice): searched through an index on
 * partner_id, as the planner chose without statistics, every assignment of the partner was read.
 */
function assignmentsById(database: DB, partnerId: number, ids: number[]) {
  return assignmentRows(database)
    .where("pa.id", "in", ids)
    .where(sql<SqlBool>`+${sql.ref("pa.partner_id")} = ${partnerId}`);
}

/**
 * SPEC §4 partner filters: pending = still invited (not declined, withdrawn or offered), no own
 * quote, and the request still assigned, as the partner's "pending" counter counts; quoted; won =
 * selected.
 */
function filterCondition(eb: Scope, filter: PartnerFilter) {
  switch (filter) {
    case "pending":
      return eb.and([
        eb("pa.state", "=", "invited"),
        eb("pq.id", "is", null),
        eb("qr.status", "=", "assigned"),
      ]);
    case "quoted":
      return eb("pq.id", "is not", null);
    case "won":
      return eb("pq.is_selected", "=", 1);
    default:
      return sql<SqlBool>`1 = 1`;
  }
}

/** `%` and `_` typed by the user match themselves, not any text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The same filters as scope conditions of the search index (the tokens its triggers keep), so a
 * search with a filter is one MATCH. Must say what filterCondition says: "pending" is assigned,
 * not quoted and not closed (declined or withdrawn), which is "invited" as the states move
 * (an assignment is offered, selected or not selected only with an offer).
 */
function filterScope(partnerId: number, filter: PartnerFilter): string[] {
  switch (filter) {
    case "pending":
      return [
        scopeHas(
          scopeToken.status("assigned"),
          scopeToken.quoted(partnerId),
          scopeToken.closed(partnerId),
        ),
      ];
    case "quoted":
      return [scopeHas(scopeToken.quoted(partnerId))];
    case "won":
      return [scopeHas(scopeToken.won(partnerId))];
    default:
      return [];
  }
}

/** Text with LIKE's wildcards must also appear literally (see needsLiteralMatch). */
function literalCondition(eb: Scope, search: string) {
  const pattern = likePattern(search);
  return eb.or([
    sql<SqlBool>`${eb.ref("qr.title")} LIKE ${pattern} ESCAPE '\\'`,
    sql<SqlBool>`${eb.ref("qr.description")} LIKE ${pattern} ESCAPE '\\'`,
    eb.exists(
      eb
        .selectFrom("users as b")
        .select("b.id")
        .whereRef("b.id", "=", "qr.buyer_id")
        .where(sql<SqlBool>`b.company_name LIKE ${pattern} ESCAPE '\\'`),
    ),
  ]);
}

interface PartnerCounters {
  total: number;
  /** Assignments still invited, without an own quote, on requests still assigned. */
  pending: number;
  submitted: number;
  selected: number;
  /** Own quoted amounts still in play: under evaluation, or selected and not rejected or cancelled later. */
  potentialRevenueCents: number;
  /** Sum of the partner's selected quotes. */
  selectedRevenueCents: number;
}

/** The partner's figures, kept current by the writing transactions (one row per partner). */
export async function getPartnerCounters(
  database: DB,
  partnerId: number,
): Promise<PartnerCounters> {
  const row = await database
    .selectFrom("partner_counters")
    .selectAll()
    .where("partner_id", "=", partnerId)
    .executeTakeFirst();
  return {
    total: Number(row?.assigned ?? 0),
    pending: Number(row?.pending ?? 0),
    submitted: Number(row?.submitted ?? 0),
    selected: Number(row?.selected ?? 0),
    potentialRevenueCents: Number(row?.potential_cents ?? 0),
    selectedRevenueCents: Number(row?.selected_cents ?? 0),
  };
}

interface PartnerPerformance {
  /** submitted / assigned, 0-100, or null with nothing assigned. */
  responseRate: number | null;
  /** selected / submitted, 0-100, or null with nothing submitted. */
  successRate: number | null;
  /** Average amount of a selected quote, or null with none selected. */
  revenuePerSelectedCents: number | null;
}

export function performanceFrom(counters: PartnerCounters): PartnerPerformance {
  const percent = (part: number, whole: number) =>
    whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
  return {
    responseRate: percent(counters.submitted, counters.total),
    successRate: percent(counters.selected, counters.submitted),
    revenuePerSelectedCents:
      counters.selected === 0
        ? null
        : Math.round(counters.selectedRevenueCents / counters.selected),
  };
}

/** The assignment and request columns both the list and the detail read. */
const ASSIGNMENT_COLUMNS = [
  "pa.id as assignment_id",
  "pa.assigned_at",
  "qr.id",
  "qr.title",
  "qr.description",
  "qr.status",
  "qr.file_name",
] as const;

const LIST_COLUMNS = [
  ...ASSIGNMENT_COLUMNS,
  "pa.state",
  "qr.quote_deadline",
  "qr.created_at",
  "b.company_name as buyer_company",
  "pq.id as quote_id",
  "pq.quoted_amount_cents",
  "pq.is_selected",
] as const;

export function listLatestAssignments(database: DB, partnerId: number, limit = LATEST_ASSIGNMENTS) {
  return assignmentsOf(database, partnerId)
    .select(LIST_COLUMNS)
    .orderBy("pa.assigned_at", "desc")
    .orderBy("pa.id", "desc")
    .limit(limit)
    .execute();
}

interface AssignmentSearch {
  partnerId: number;
  search?: string;
  filter?: PartnerFilter;
  page?: PageRequest;
  pageSize?: number;
  /** The instant that tells open deadlines from passed ones (now, unless a test says otherwise). */
  now?: Date;
}

/** How many of the partner's assignments each filter shows, from the maintained counters. */
const FILTER_COUNTER: Record<PartnerFilter, keyof PartnerCounters> = {
  all: "total",
  pending: "pending",
  quoted: "submitted",
  won: "selected",
};

/**
 * The partner's assignments with the request and the partner's own quote, as the list filters and
 * sorts them (no buyer: their name is read only for the rows of the page). The assignments are
 * read first (CROSS JOIN keeps that order) and through partner_assignments_partner_state, which
 * holds their state and request: with statistics the planner may prefer the index by date and
 * then read every assignment row for its state. For a page's few requests (`ofFewRequests`, a
 * search's ids) they are read by request and partner instead, not all 4,000 of the busiest
 * partner's probed against the ids (1.4 → 1.0 ms for «acero» with «Cotizadas»).
 */
function ownAssignments(database: DB, partnerId: number, { ofFewRequests = false } = {}) {
  // The same table and columns: SQLite flattens the subquery and keeps only its index clause.
  const index = sql.raw(ofFewRequests ? "" : "INDEXED BY partner_assignments_partner_state");
  const assignments = database.selectFrom(
    sql<Database["partner_assignments"]>`(SELECT * FROM partner_assignments ${index})`.as("pa"),
  ) as unknown as SelectQueryBuilder<
    Database & { pa: Database["partner_assignments"] },
    "pa",
    Record<never, never>
  >;
  return assignments
    .crossJoin("quote_requests as qr")
    .whereRef("qr.id", "=", "pa.quote_request_id")
    .leftJoin("partner_quotes as pq", (join) =>
      join
        .onRef("pq.quote_request_id", "=", "pa.quote_request_id")
        .onRef("pq.partner_id", "=", "pa.partner_id"),
    )
    .where("pa.partner_id", "=", partnerId);
}

/**
 * The default order of a partner's assignments: first those they can still offer on (invited or
 * offered, request assigned, deadline not passed: offerRefusal's rule), soonest deadline first;
 * then the rest, latest deadline first, so what closed last comes before what closed long ago;
 * ties by assignment id. Whether a deadline has passed is decided at `now`, so an assignment may
 * move to the second part between two pages.
 *
 * Each part is read from index ranges stopped at the page's end (migration
 * 2026-11-27T10-00_partner_list_order keeps the request's deadline and "open" on the assignment):
 * the first part is the open assignments after now (partner_assignments_open_deadline, ascending);
 * the second, the closed ones and the open ones up to now (partner_assignments_list_order, two
 * ranges read by deadline descending). A page costs the same with 40 or 40,000 assignments.
 */
type OrderPart = 0 | 1;

interface OrderRow {
  assignment_id: number;
  /** The request's id. */
  id: number;
  deadline: string;
  part: OrderPart;
}

/** A cursor's key: the part, then the request's deadline ("02026-12-01T10:00:00.000Z"). */
function orderKey(row: OrderRow) {
  return { key: `${row.part}${row.deadline}`, id: row.assignment_id };
}

/**
 * The cursor's part, deadline and id, or null for a key that is not one of this order's (a search
 * page's, or the former computed key of the second part, "1" and a number).
 */
function orderCursor(cursor: Cursor): { part: OrderPart; deadline: string; id: number } | null {
  const part = cursor.key.charAt(0);
  const deadline = cursor.key.slice(1);
  if ((part !== "0" && part !== "1") || !/^\d{4}-\d{2}-\d{2}T/.test(deadline)) return null;
  return { part: part === "0" ? 0 : 1, deadline, id: cursor.id };
}

/** The list's order (reversed when reading back a page): part, deadline as the part says, id. */
function compareOrder(reversed: boolean) {
  const sign = reversed ? -1 : 1;
  return (a: OrderRow, b: OrderRow) => {
    if (a.part !== b.part) return sign * (a.part - b.part);
    if (a.deadline !== b.deadline)
      return sign * (a.deadline < b.deadline ? -1 : 1) * (a.part === 0 ? 1 : -1);
    return sign * (a.assignment_id - b.assignment_id);
  };
}

type Comparison = "<" | "<=" | "=" | ">";

/** One index range of a part: open or not, and bounds on the deadline. */
interface OrderRange {
  open: 0 | 1;
  deadline: [Comparison, string][];
}

/** The index each part is read through (won assignments have their own, see orderFilter). */
const RANGE_INDEX = {
  all: { 0: "partner_assignments_open_deadline", 1: "partner_assignments_list_order" },
  won: { 0: "partner_assignments_won_open", 1: "partner_assignments_won" },
} as const;

/**
 * The filters as conditions on the assignment (pending ones are all open: request_open = 1). Won
 * ones are read through their own indexes: almost no open assignment is won, and through the
 * others every open one would be read before the first won.
 */
function orderFilter(filter: PartnerFilter) {
  const ownQuote = sql<SqlBool>`EXISTS (SELECT 1 FROM partner_quotes pq
    WHERE pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id)`;
  switch (filter) {
    case "pending":
      return sql<SqlBool>`pa.state = 'invited' AND NOT ${ownQuote}`;
    case "quoted":
      return ownQuote;
    case "won":
      return sql<SqlBool>`pa.quote_selected = 1`;
    default:
      return sql<SqlBool>`1 = 1`;
  }
}

/**
 * The first `limit` rows of a page of the list by deadline (after `offset` rows, for the numbered
 * pages): each part's ranges beyond the cursor, read in the page's direction and stopped at
 * `offset + limit` rows, then merged. A cursor on a row's key is split into the rows of its
 * deadline beyond its id and the rows of the next deadlines: a row-value range would be sought on
 * the deadline alone and step over every row sharing it (a migration gave hundreds one deadline).
 */
async function readByDeadline(
  database: DB,
  partnerId: number,
  filter: PartnerFilter,
  request: PageRequest,
  pageSize: number,
  now: string,
): Promise<OrderRow[]> {
  const { reversed, limit, offset } = pageWindow(request, pageSize);
  const cursor = request.kind === "numbered" ? null : orderCursor(request.cursor);
  const parts: Record<OrderPart, OrderRange[]> = {
    0: [{ open: 1, deadline: [[">", now]] }],
    1: [
      { open: 0, deadline: [] },
      { open: 1, deadline: [["<=", now]] },
    ],
  };
  const reads: RawBuilder<OrderRow>[] = [];
  const read = (part: OrderPart, range: OrderRange, id: [Comparison, number] | null) => {
    // Pending assignments are open: their filter never matches a closed range.
    if (filter === "pending" && range.open === 0) return;
    const ascending = (part === 0) !== reversed;
    const conditions = [
      sql<SqlBool>`pa.partner_id = ${partnerId}`,
      sql<SqlBool>`pa.request_open = ${sql.lit(range.open)}`,
      ...range.deadline.map(
        ([op, value]) => sql<SqlBool>`pa.request_deadline ${sql.raw(op)} ${value}`,
      ),
      ...(id ? [sql<SqlBool>`pa.id ${sql.raw(id[0])} ${id[1]}`] : []),
      orderFilter(filter),
    ];
    const index = RANGE_INDEX[filter === "won" ? "won" : "all"][part];
    reads.push(sql<OrderRow>`SELECT * FROM (SELECT pa.id AS assignment_id,
        pa.quote_request_id AS id, pa.request_deadline AS deadline, ${sql.lit(part)} AS part
      FROM partner_assignments AS pa INDEXED BY ${sql.raw(index)}
      WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY pa.request_deadline ${sql.raw(ascending ? "ASC" : "DESC")},
        pa.id ${sql.raw(reversed ? "DESC" : "ASC")}
      LIMIT ${offset + limit})`);
  };
  const inReadingOrder: OrderPart[] = reversed ? [1, 0] : [0, 1];
  for (const part of inReadingOrder) {
    if (cursor && cursor.part !== part) {
      // A part before the cursor's in the reading direction has no row beyond it.
      if (inReadingOrder.indexOf(part) < inReadingOrder.indexOf(cursor.part)) continue;
      for (const range of parts[part]) read(part, range, null);
      continue;
    }
    for (const range of parts[part]) {
      if (!cursor) {
        read(part, range, null);
        continue;
      }
      const later: Comparison = (part === 0) !== reversed ? ">" : "<";
      read(part, { ...range, deadline: [...range.deadline, ["=", cursor.deadline]] }, [
        reversed ? "<" : ">",
        cursor.id,
      ]);
      read(part, { ...range, deadline: [...range.deadline, [later, cursor.deadline]] }, null);
    }
  }
  if (reads.length === 0) return [];
  const { rows } = await sql<OrderRow>`${sql.join(reads, sql` UNION ALL `)}`.execute(database);
  return rows.sort(compareOrder(reversed)).slice(offset, offset + limit);
}

/**
 * The partner's assignments, one page: by deadline (see readByDeadline), or, when searching,
 * newest request first (the search index's own order, see matchingPageIds). The page's rows are
 * found from narrow rows, then read in full.
 */
export async function listAssignments(
  database: DB,
  {
    partnerId,
    search = "",
    filter = "all",
    page = { kind: "numbered", page: 1 },
    pageSize = ASSIGNMENTS_PAGE_SIZE,
    now = new Date(),
  }: AssignmentSearch,
) {
  const text = search.trim();
  // A link from another order (a search's, or an older page's) starts the list over.
  if (!text && page.kind !== "numbered" && !orderCursor(page.cursor))
    page = { kind: "numbered", page: 1 };
  const [found, counters] = await Promise.all([
    text
      ? searchAssignments(database, { partnerId, text, filter, page, pageSize })
      : readByDeadline(database, partnerId, filter, page, pageSize, now.toISOString()).then(
          (read) => ({ ...finishPage(read, page, pageSize, orderKey), matched: null }),
        ),
    getPartnerCounters(database, partnerId),
  ]);
  const { rows, pageInfo, matched } = found;
  const details =
    rows.length === 0
      ? []
      : await assignmentsById(
          database,
          partnerId,
          rows.map((row) => row.assignment_id),
        )
          .select(LIST_COLUMNS)
          .execute();
  const byId = new Map(details.map((item) => [item.assignment_id, item]));
  const total = matched ?? counters[FILTER_COUNTER[filter]];
  return {
    items: rows.flatMap((row) => byId.get(row.assignment_id) ?? []),
    matched: total,
    matchedCapped: matched !== null && total > SEARCH_COUNT_CAP,
    overall: counters.total,
    /** The partner's counters, read once for the totals and the page's filter tabs. */
    counters,
    pageInfo,
    pageSize,
  };
}

/** One page of the partner's assignments matching `text`, newest request first. */
async function searchAssignments(
  database: DB,
  {
    partnerId,
    text,
    filter,
    page,
    pageSize,
  }: {
    partnerId: number;
    text: string;
    filter: PartnerFilter;
    page: PageRequest;
    pageSize: number;
  },
) {
  let matched: Promise<number> | null = null;
  // The partner's own token keeps the search to their assignments; the filter is in it too.
  const expression = matchExpression(text, ["title", "description", "buyer"]);
  const literal = !expression || needsLiteralMatch(text);
  let matching = ownAssignments(database, partnerId, { ofFewRequests: !literal }).where((eb) =>
    filterCondition(eb, filter),
  );
  if (expression) {
    const match = scopedMatch(
      expression,
      scopeHas(scopeToken.assigned(partnerId)),
      ...filterScope(partnerId, filter),
    );
    matching = matching.where(
      "pa.quote_request_id",
      "in",
      literal
        ? matchingRequestIds(database, match)
        : matchingPageIds(database, match, page, pageSize),
    );
    matched = countMatchingRequests(database, match);
  }
  if (literal) {
    matching = matching.where((eb) => literalCondition(eb, text));
    matched = matching
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }
  const keys = database
    .selectFrom(matching.select(["pa.id as assignment_id", "qr.id"]).as("l"))
    .selectAll();
  const [read, count] = await Promise.all([
    readKeysetPage(keys, page, { key: null, id: "l.id" }, pageSize),
    matched,
  ]);
  return {
    ...finishPage(read, page, pageSize, (item) => ({ key: "", id: item.id })),
    matched: count,
  };
}

/**
 * One request as its assigned partner sees it: the request, the buyer's contact details and the
 * partner's own quote. Undefined when the request does not exist or is not assigned to the partner.
 */
export async function getAssignmentForPartner(
  database: DB,
  { requestId, partnerId }: { requestId: number; partnerId: number },
) {
  const row = await assignmentsOf(database, partnerId)
    .where("pa.quote_request_id", "=", requestId)
    .select([
      ...ASSIGNMENT_COLUMNS,
      "pa.state",
      "pa.decline_reason",
      "pa.state_changed_at",
      "qr.file_type",
      "qr.created_at",
      "qr.quote_deadline",
      "qr.needed_by",
      "b.first_name as buyer_first_name",
      "b.last_name as buyer_last_name",
      "b.company_name as buyer_company",
      "b.email as buyer_email",
      "b.phone as buyer_phone",
      "pq.id as quote_id",
      "pq.quoted_amount_cents",
      "pq.subtotal_cents",
      "pq.tax_rate",
      "pq.tax_cents",
      "pq.lead_time_days",
      "pq.valid_until",
      "pq.payment_terms",
      "pq.notes as quote_notes",
      "pq.file_name as quote_file_name",
      "pq.file_key as quote_file_key",
      "pq.is_selected",
      "pq.created_at as quote_created_at",
      "pq.updated_at as quote_updated_at",
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const lines =
    row.quote_id === null
      ? []
      : ((await offerItems(database, [row.quote_id])).get(row.quote_id) ?? []);
  return {
    assignmentId: row.assignment_id,
    assignedAt: row.assigned_at,
    state: row.state,
    declineReason: row.decline_reason,
    stateChangedAt: row.state_changed_at,
    request: {
      id: row.id,
      title: row.title,
      description: row.description,
      status: row.status,
      fileName: row.file_name,
      fileType: row.file_type,
      createdAt: row.created_at,
      quoteDeadline: row.quote_deadline,
      neededBy: row.needed_by,
    },
    buyer: {
      firstName: row.buyer_first_name,
      lastName: row.buyer_last_name,
      company: row.buyer_company,
      email: row.buyer_email,
      phone: row.buyer_phone,
    },
    quote:
      row.quote_id === null
        ? undefined
        : {
            id: row.quote_id,
            amountCents: row.quoted_amount_cents!,
            subtotalCents: row.subtotal_cents!,
            taxRate: row.tax_rate!,
            taxCents: row.tax_cents!,
            leadTimeDays: row.lead_time_days,
            validUntil: row.valid_until,
            paymentTerms: row.payment_terms,
            lines,
            notes: row.quote_notes,
            fileName: row.quote_file_name,
            hasFile: row.quote_file_key !== null,
            isSelected: row.is_selected!,
            createdAt: row.quote_created_at!,
            updatedAt: row.quote_updated_at!,
          },
  };
}

/**
 * The partner's own quotes, newest first (index `partner_quotes_partner`), with the state of their
 * assignment and the request's deadline, for the badge and the edit link; their number from the
 * partner's counters.
 */
export async function listPartnerQuotes(
  database: DB,
  {
    partnerId,
    page = 1,
    pageSize = PARTNER_QUOTES_PAGE_SIZE,
  }: { partnerId: number; page?: number; pageSize?: number },
) {
  // Every quote is on an assignment, so the counter of assignments with a quote counts them
  // (a count over the partner's quotes grew with them: 1.1 ms for 20,000).
  const total = (await getPartnerCounters(database, partnerId)).submitted;
  if (!pageStartsWithin(page, pageSize, total)) return { items: [], total, page, pageSize };
  const items = await database
    .selectFrom("partner_quotes as pq")
    .innerJoin("quote_requests as qr", "qr.id", "pq.quote_request_id")
    // A quote exists only on an assignment of its partner (submitPartnerQuote requires it).
    .innerJoin("partner_assignments as pa", (join) =>
      join
        .onRef("pa.quote_request_id", "=", "pq.quote_request_id")
        .onRef("pa.partner_id", "=", "pq.partner_id"),
    )
    .select([
      "pq.id",
      "pq.quote_request_id as request_id",
      "pq.quoted_amount_cents",
      "pq.is_selected",
      "pq.file_name",
      "pq.created_at",
      "pq.updated_at",
      "qr.title",
      "qr.status",
      "qr.quote_deadline",
      "pa.state",
    ])
    .where("pq.partner_id", "=", partnerId)
    .orderBy("pq.created_at", "desc")
    .orderBy("pq.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { items, total, page, pageSize };
}

/**
 * The signed-in partner and their assignment for the request in the URL, or the SPEC's not-found
 * page when the id is not a request assigned to them. Every partner request route starts here.
 */
export async function requirePartnerAssignment(request: Request, rawId: string | undefined) {
  const user = await requireRole(request, "partner");
  const requestId = idFrom(rawId);
  const assignment = requestId
    ? await getAssignmentForPartner(appDb, { requestId, partnerId: user.id })
    : undefined;
  if (!assignment) throw notFound();
  return { user, assignment };
}
