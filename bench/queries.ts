/**
 * Times the queries behind the main pages on a large database (no HTTP, no rendering), for the
 * admin, the busiest buyer and the busiest partner, analytics included.
 * Usage: DATABASE_PATH=/tmp/large.sqlite npm run bench:queries
 */
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
import { encodeCursor, type PageRequest } from "../app/utils/keyset";
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
await time("getRequestForAdmin", () => getRequestForAdmin(db, oldest.id));
await time("listPaymentsForAdmin page 1", () =>
  listPaymentsForAdmin(db, { q: "", status: null, page: first }),
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
await time("getRequestForBuyer", () =>
  getRequestForBuyer(db, { id: buyerRequest.id, buyerId: buyer.id }),
);
await time("listBuyerPayments + counts", () =>
  Promise.all([
    listBuyerPayments(db, { buyerId: buyer.id, q: "", page: first }),
    buyerPaymentCounts(db, buyer.id),
  ]),
);
await time("loyaltySummary", () => loyaltySummary(db, buyer.id));
await time(`getPartnerCounters (${partner.assigned} asignaciones)`, () =>
  getPartnerCounters(db, partner.id),
);
await time("listLatestAssignments", () => listLatestAssignments(db, partner.id));
await time("listAssignments", () => listAssignments(db, { partnerId: partner.id }));
await time("listAssignments deep (keyset)", async () => {
  const last = await db
    .selectFrom("partner_assignments")
    .select(["id", "assigned_at"])
    .where("partner_id", "=", partner.id)
    .orderBy("assigned_at")
    .limit(1)
    .offset(20)
    .executeTakeFirstOrThrow();
  return listAssignments(db, {
    partnerId: partner.id,
    page: { kind: "after", cursor: { page: 2, key: last.assigned_at, id: last.id } },
  });
});
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
