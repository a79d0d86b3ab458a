/**
 * Times the list queries behind the main pages on a large database (no HTTP, no rendering).
 * Usage: DATABASE_PATH=db/large.sqlite npm run seed:large && DATABASE_PATH=db/large.sqlite npx tsx bench/queries.ts
 */
import { db } from "../app/services/db.server";
import {
  adminStatusCounts,
  getRequestForAdmin,
  listAdminRequests,
  listBuyerRequests,
  buyerStatusCounts,
} from "../app/models/quote-request.server";
import {
  adminPaymentCounts,
  listPaymentsForAdmin,
  listBuyerPayments,
  buyerPaymentCounts,
} from "../app/models/payment.server";
import { loyaltySummary } from "../app/models/loyalty.server";

const buyer = await db
  .selectFrom("users")
  .select("id")
  .where("role", "=", "buyer")
  .orderBy("id")
  .executeTakeFirstOrThrow();

async function time(label: string, fn: () => Promise<unknown>) {
  await fn();
  const runs = 10;
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  console.log(
    `${label.padEnd(48)} ${((performance.now() - start) / runs).toFixed(1).padStart(7)} ms`,
  );
}

await time("adminStatusCounts", () => adminStatusCounts(db));
await time("listAdminRequests page 1", () =>
  listAdminRequests(db, { q: "", status: null, page: 1 }),
);
await time("listAdminRequests page 2000", () =>
  listAdminRequests(db, { q: "", status: null, page: 2000 }),
);
await time("listAdminRequests q+status", () =>
  listAdminRequests(db, { q: "lote 12", status: "paid", page: 1 }),
);
await time("listAdminRequests q", () =>
  listAdminRequests(db, { q: "válvulas", status: null, page: 1 }),
);
await time("getRequestForAdmin", () => getRequestForAdmin(db, 50_000));
await time("adminPaymentCounts", () => adminPaymentCounts(db));
await time("listPaymentsForAdmin", () =>
  listPaymentsForAdmin(db, { q: "", status: null, page: 1 }),
);
await time("buyerStatusCounts", () => buyerStatusCounts(db, buyer.id));
await time("listBuyerRequests", () =>
  listBuyerRequests(db, { buyerId: buyer.id, q: "", status: null, page: 1 }),
);
await time("listBuyerPayments + counts", () =>
  Promise.all([
    listBuyerPayments(db, { buyerId: buyer.id, q: "", page: 1 }),
    buyerPaymentCounts(db, buyer.id),
  ]),
);
await time("loyaltySummary", () => loyaltySummary(db, buyer.id));
await db.destroy();
