/**
 * Times the queries behind the main pages on a large database (no HTTP, no rendering), for the
 * admin, the busiest buyer and the busiest partner, analytics included.
 * Usage: DATABASE_PATH=/tmp/large.sqlite npm run bench:queries
 */
import { sql } from "kysely";
import { db } from "../app/services/db.server";
import { getAnalytics } from "../app/models/analytics.server";
import { loyaltySummary } from "../app/models/loyalty.server";
import {
  getAssignmentForPartner,
  getPartnerCounters,
  listAssignments,
  listLatestAssignments,
  listPartnerQuotes,
} from "../app/models/partner-assignment.server";
import {
  adminPaymentCounts,
  buyerPaymentCounts,
  listBuyerPayments,
  listPaymentsForAdmin,
} from "../app/models/payment.server";
import {
  adminStatusCounts,
  buyerStatusCounts,
  getRequestForAdmin,
  getRequestForBuyer,
  latestAdminRequests,
  listAdminRequests,
  listBuyerRequests,
} from "../app/models/quote-request.server";
import { listUsersForAdmin } from "../app/models/admin-user.server";
import { decodeCursor, encodeCursor, type PageRequest } from "../app/utils/keyset";
import { benchUsers } from "./server";

const { buyer, partner } = await benchUsers();
const first: PageRequest = { kind: "numbered", page: 1 };
const oldest = await db
  .selectFrom("quote_requests")
  .select(["id", "created_at"])
  .orderBy("created_at")
  .orderBy("id")
  .limit(1)
  .offset(20)
  .executeTakeFirstOrThrow();
const deep: PageRequest = {
  kind: "after",
  cursor: { page: 4999, key: oldest.created_at, id: oldest.id },
};
const buyerRequest = await db
  .selectFrom("quote_requests")
  .select("id")
  .where("buyer_id", "=", buyer.id)
  .orderBy("id", "desc")
  .executeTakeFirstOrThrow();
const partnerRequest = await db
  .selectFrom("partner_assignments")
  .select("quote_request_id as id")
  .where("partner_id", "=", partner.id)
  .orderBy("id", "desc")
  .executeTakeFirstOrThrow();

/**
 * Instants for the «Plazo» filters' worst case: just after the latest open deadline every open
 * request is overdue, and 23 h before it most of them are due within 24 h (a migrated database
 * gives its open requests one deadline, three days after the migration).
 */
const lastOpen = await db
  .selectFrom("quote_requests")
  .select((eb) => eb.fn.max("quote_deadline").as("deadline"))
  .where("status", "in", ["pending", "assigned"])
  .executeTakeFirstOrThrow();
const lastOpenAt = lastOpen.deadline ? Date.parse(lastOpen.deadline) : Date.now();
const overdueAt = new Date(lastOpenAt + 1000);
const dueAt = new Date(lastOpenAt - 23 * 3600_000);
const latestDeadline = await db
  .selectFrom("quote_requests")
  .select(["id", "quote_deadline"])
  .orderBy("quote_deadline", "desc")
  .orderBy("id", "desc")
  .limit(1)
  .offset(20)
  .executeTakeFirstOrThrow();
const deepByDeadline: PageRequest = {
  kind: "after",
  cursor: { page: 4999, key: latestDeadline.quote_deadline, id: latestDeadline.id },
};

/**
 * Date ranges for the lists' «Desde / Hasta» (issue 14): one week in the middle of the data, and a
 * range holding every row; and a deep cursor for the amount sort.
 */
const span = await db
  .selectFrom("quote_requests")
  .select((eb) => [eb.fn.min("created_at").as("first"), eb.fn.max("created_at").as("last")])
  .executeTakeFirstOrThrow();
const middle = (Date.parse(span.first!) + Date.parse(span.last!)) / 2;
const week = {
  from: new Date(middle).toISOString().slice(0, 10),
  to: new Date(middle + 6 * 86_400_000).toISOString().slice(0, 10),
};
const everything = { from: span.first!.slice(0, 10), to: span.last!.slice(0, 10) };
const cheapest = await db
  .selectFrom("quote_requests")
  .select(["id", sql<number>`coalesce(total_amount_cents, -1)`.as("amount")])
  .orderBy(sql`coalesce(total_amount_cents, -1)`)
  .orderBy("id")
  .limit(1)
  .offset(20)
  .executeTakeFirstOrThrow();
const deepByAmount: PageRequest = {
  kind: "after",
  cursor: { page: 4999, key: String(cheapest.amount), id: cheapest.id },
};

/** The busiest partner's last page, reached by following the pages' own `after` links. */
async function lastAssignmentsPage(): Promise<PageRequest> {
  let page: PageRequest = { kind: "numbered", page: 1 };
  let previous: PageRequest = page;
  for (;;) {
    const { pageInfo } = await listAssignments(db, { partnerId: partner.id, page });
    if (!pageInfo.next) return previous;
    previous = page;
    page = { kind: "after", cursor: decodeCursor(pageInfo.next)! };
  }
}
const deepAssignments = await lastAssignmentsPage();

async function time(label: string, fn: () => Promise<unknown>) {
  await fn();
  const runs = 10;
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  console.log(
    `${label.padEnd(52)} ${((performance.now() - start) / runs).toFixed(2).padStart(8)} ms`,
  );
}

await time("getAnalytics", () => getAnalytics(db));
await time("adminStatusCounts", () => adminStatusCounts(db));
await time("adminPaymentCounts", () => adminPaymentCounts(db));
await time("latestAdminRequests", () => latestAdminRequests(db));
await time("listAdminRequests page 1", () =>
  listAdminRequests(db, { q: "", status: null, page: first }),
);
await time("listAdminRequests page 5 (offset)", () =>
  listAdminRequests(db, { q: "", status: null, page: { kind: "numbered", page: 5 } }),
);
await time("listAdminRequests deep (keyset, page ~5000)", () =>
  listAdminRequests(db, { q: "", status: null, page: deep }),
);
await time("listAdminRequests q=lote 12", () =>
  listAdminRequests(db, { q: "lote 12", status: null, page: first }),
);
await time("listAdminRequests q=válvulas status=paid", () =>
  listAdminRequests(db, { q: "válvulas", status: "paid", page: first }),
);
await time("listAdminRequests deadline=due24h (most open due)", () =>
  listAdminRequests(db, { q: "", status: null, deadline: "due24h", page: first, now: dueAt }),
);
await time("listAdminRequests deadline=overdue (every open)", () =>
  listAdminRequests(db, { q: "", status: null, deadline: "overdue", page: first, now: overdueAt }),
);
await time("listAdminRequests deadline=overdue, none overdue", () =>
  listAdminRequests(db, { q: "", status: null, deadline: "overdue", page: first }),
);
await time("listAdminRequests deadline=overdue status=assigned", () =>
  listAdminRequests(db, {
    q: "",
    status: "assigned",
    deadline: "overdue",
    page: first,
    now: overdueAt,
  }),
);
await time("listAdminRequests deadline=due24h sort=deadline", () =>
  listAdminRequests(db, {
    q: "",
    status: null,
    deadline: "due24h",
    sort: "deadline",
    page: first,
    now: dueAt,
  }),
);
await time("listAdminRequests sort=deadline page 1", () =>
  listAdminRequests(db, { q: "", status: null, sort: "deadline", page: first }),
);
await time("listAdminRequests sort=deadline deep (keyset)", () =>
  listAdminRequests(db, { q: "", status: null, sort: "deadline", page: deepByDeadline }),
);
await time("listAdminRequests sort=deadline status=paid", () =>
  listAdminRequests(db, { q: "", status: "paid", sort: "deadline", page: first }),
);
await time("listAdminRequests q=válvulas deadline=overdue", () =>
  listAdminRequests(db, {
    q: "válvulas",
    status: null,
    deadline: "overdue",
    page: first,
    now: overdueAt,
  }),
);
await time("listAdminRequests q=lote 12 sort=deadline", () =>
  listAdminRequests(db, { q: "lote 12", status: null, sort: "deadline", page: first }),
);
await time("listAdminRequests orden=antiguos page 1", () =>
  listAdminRequests(db, { q: "", status: null, sort: "antiguos", page: first }),
);
await time("listAdminRequests orden=monto page 1", () =>
  listAdminRequests(db, { q: "", status: null, sort: "monto", page: first }),
);
await time("listAdminRequests orden=monto deep (keyset)", () =>
  listAdminRequests(db, { q: "", status: null, sort: "monto", page: deepByAmount }),
);
await time("listAdminRequests orden=monto status=paid", () =>
  listAdminRequests(db, { q: "", status: "paid", sort: "monto", page: first }),
);
await time("listAdminRequests desde/hasta (a week)", () =>
  listAdminRequests(db, { q: "", status: null, range: week, page: first }),
);
await time("listAdminRequests desde/hasta (a week) orden=monto", () =>
  listAdminRequests(db, { q: "", status: null, range: week, sort: "monto", page: first }),
);
await time("listAdminRequests desde/hasta (a week) orden=plazo", () =>
  listAdminRequests(db, { q: "", status: null, range: week, sort: "plazo", page: first }),
);
await time("listAdminRequests desde/hasta (everything) orden=monto", () =>
  listAdminRequests(db, { q: "", status: null, range: everything, sort: "monto", page: first }),
);
await time("listAdminRequests desde/hasta (everything) orden=antiguos", () =>
  listAdminRequests(db, {
    q: "",
    status: null,
    range: everything,
    sort: "antiguos",
    page: first,
  }),
);
await time("listAdminRequests deadline=overdue (every open) orden=monto", () =>
  listAdminRequests(db, {
    q: "",
    status: null,
    deadline: "overdue",
    sort: "monto",
    page: first,
    now: overdueAt,
  }),
);
await time("listAdminRequests deadline=overdue, none overdue, orden=monto", () =>
  listAdminRequests(db, { q: "", status: null, deadline: "overdue", sort: "monto", page: first }),
);
await time("listAdminRequests q=válvulas desde/hasta (a week)", () =>
  listAdminRequests(db, { q: "válvulas", status: null, range: week, page: first }),
);
await time("getRequestForAdmin", () => getRequestForAdmin(db, oldest.id));
await time("listPaymentsForAdmin page 1", () =>
  listPaymentsForAdmin(db, { q: "", status: null, page: first }),
);
await time("listPaymentsForAdmin desde/hasta (a week), queue", () =>
  listPaymentsForAdmin(db, { q: "", status: null, range: week, page: first }),
);
await time("listPaymentsForAdmin orden=recientes", () =>
  listPaymentsForAdmin(db, { q: "", status: null, sort: "recientes", page: first }),
);
await time("listPaymentsForAdmin orden=antiguos", () =>
  listPaymentsForAdmin(db, { q: "", status: null, sort: "antiguos", page: first }),
);
await time("listPaymentsForAdmin orden=monto status=confirmed", () =>
  listPaymentsForAdmin(db, { q: "", status: "confirmed", sort: "monto", page: first }),
);
await time("listPaymentsForAdmin desde/hasta (a week) orden=monto", () =>
  listPaymentsForAdmin(db, { q: "", status: null, range: week, sort: "monto", page: first }),
);
await time("listPaymentsForAdmin desde/hasta (everything) orden=monto", () =>
  listPaymentsForAdmin(db, {
    q: "",
    status: null,
    range: everything,
    sort: "monto",
    page: first,
  }),
);
await time("listUsersForAdmin orden=antiguos", () =>
  listUsersForAdmin(db, { q: "", role: null, sort: "antiguos", page: first }),
);
await time("listUsersForAdmin desde/hasta (a week)", () =>
  listUsersForAdmin(db, { q: "", role: null, range: week, page: first }),
);
await time("listUsersForAdmin page 1", () =>
  listUsersForAdmin(db, { q: "", role: null, page: first }),
);
await time("listUsersForAdmin q=garcía 99", () =>
  listUsersForAdmin(db, { q: "garcía 99", role: null, page: first }),
);
await time(`buyerStatusCounts (${buyer.requests} solicitudes)`, () =>
  buyerStatusCounts(db, buyer.id),
);
await time("listBuyerRequests", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "", status: null, page: first }),
);
await time("listBuyerRequests q=lote", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "lote", status: null, page: first }),
);
await time("listBuyerRequests orden=antiguos", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "", status: null, sort: "antiguos", page: first }),
);
await time("listBuyerRequests orden=monto", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "", status: null, sort: "monto", page: first }),
);
await time("listBuyerRequests desde/hasta (a week)", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "", status: null, range: week, page: first }),
);
await time("listBuyerRequests desde/hasta (everything) orden=monto", () =>
  listBuyerRequests(db, {
    buyerId: buyer.id,
    q: "",
    status: null,
    range: everything,
    sort: "monto",
    page: first,
  }),
);
await time("listBuyerRequests q=lote desde/hasta (a week)", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "lote", status: null, range: week, page: first }),
);
await time("getRequestForBuyer", () =>
  getRequestForBuyer(db, { id: buyerRequest.id, buyerId: buyer.id }),
);
await time("listBuyerPayments + counts", () =>
  Promise.all([
    listBuyerPayments(db, { buyerId: buyer.id, q: "", page: first }),
    buyerPaymentCounts(db, buyer.id),
  ]),
);
await time("listBuyerPayments orden=antiguos", () =>
  listBuyerPayments(db, { buyerId: buyer.id, q: "", sort: "antiguos", page: first }),
);
await time("listBuyerPayments orden=monto", () =>
  listBuyerPayments(db, { buyerId: buyer.id, q: "", sort: "monto", page: first }),
);
await time("listBuyerPayments desde/hasta (a week)", () =>
  listBuyerPayments(db, { buyerId: buyer.id, q: "", range: week, page: first }),
);
await time("listBuyerPayments desde/hasta (everything) orden=monto", () =>
  listBuyerPayments(db, {
    buyerId: buyer.id,
    q: "",
    range: everything,
    sort: "monto",
    page: first,
  }),
);
await time("loyaltySummary", () => loyaltySummary(db, buyer.id));
await time(`getPartnerCounters (${partner.assigned} asignaciones)`, () =>
  getPartnerCounters(db, partner.id),
);
await time("listLatestAssignments", () => listLatestAssignments(db, partner.id));
await time("listAssignments (by deadline) page 1", () =>
  listAssignments(db, { partnerId: partner.id }),
);
await time("listAssignments (by deadline) page 5 (offset)", () =>
  listAssignments(db, { partnerId: partner.id, page: { kind: "numbered", page: 5 } }),
);
await time("listAssignments (by deadline) last page (keyset)", () =>
  listAssignments(db, { partnerId: partner.id, page: deepAssignments }),
);
for (const filter of ["pending", "quoted", "won"] as const)
  await time(`listAssignments filter=${filter}`, () =>
    listAssignments(db, { partnerId: partner.id, filter }),
  );
await time("listAssignments q=acero filter=quoted", () =>
  listAssignments(db, { partnerId: partner.id, search: "acero", filter: "quoted" }),
);
await time("listAssignments q=lote (every title)", () =>
  listAssignments(db, { partnerId: partner.id, search: "lote" }),
);
await time("getAssignmentForPartner", () =>
  getAssignmentForPartner(db, { requestId: partnerRequest.id, partnerId: partner.id }),
);
await time("listPartnerQuotes", () => listPartnerQuotes(db, { partnerId: partner.id }));
console.log(`\nCursor profundo de ejemplo: /admin/quotes?after=${encodeCursor(deep.cursor)}`);
await db.destroy();
