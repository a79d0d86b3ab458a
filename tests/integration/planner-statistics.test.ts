import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db, openDatabase } from "~/services/db.server";
import { env } from "~/services/env.server";
import { makeUser, requestRow } from "./factories";

/** `count` requests of one buyer, a minute apart, in one statement. */
async function addRequests(buyerId: number, count: number) {
  const start = Date.now();
  await db
    .insertInto("quote_requests")
    .values(
      Array.from({ length: count }, (_, i) =>
        requestRow(buyerId, {
          title: `Solicitud ${i}`,
          createdAt: new Date(start - i * 60_000).toISOString(),
        }),
      ),
    )
    .execute();
}

/**
 * A migration that adds an index to an analyzed table leaves that index without statistics, and
 * SQLite then takes it for better than it is: the busiest buyer's newest requests were read
 * through quote_requests_buyer_amount and sorted. The connection measures what is missing when it
 * opens (openDatabase), so the next server start plans with every index measured.
 */
describe("planner statistics", () => {
  it("an index added after ANALYZE is measured when the database is next opened", async () => {
    const busiest = await makeUser("buyer");
    await addRequests(busiest, 300);
    for (let b = 0; b < 40; b++) await addRequests(await makeUser("buyer"), 12);
    await sql`ANALYZE`.execute(db);
    // As on a database analyzed before migration 2026-11-27T04-00_list_sorting added the indexes.
    for (const table of ["sqlite_stat1", "sqlite_stat4"]) {
      await sql`DELETE FROM ${sql.table(table)} WHERE idx IN ('quote_requests_amount',
        'quote_requests_open_amount', 'quote_requests_buyer_amount')`.execute(db);
    }

    const reopened = openDatabase(env.databasePath);
    try {
      const measured = await sql<{ idx: string }>`SELECT idx FROM sqlite_stat1
        WHERE idx = 'quote_requests_buyer_amount'`.execute(reopened);
      expect(measured.rows).toHaveLength(1);

      // The buyer's newest requests (listBuyerRequests) are read in order, not sorted.
      const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN
        SELECT id, title FROM quote_requests WHERE buyer_id = ${busiest}
        ORDER BY created_at DESC, id DESC LIMIT ${20}`.execute(reopened);
      expect(plan.rows.map((row) => row.detail)).toEqual([
        "SEARCH quote_requests USING INDEX quote_requests_buyer_created (buyer_id=?)",
      ]);
    } finally {
      await reopened.destroy();
    }
  });
});
