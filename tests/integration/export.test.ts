import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { EXPORT_BATCH_SIZE } from "~/models/keyset.server";
import { exportAdminRequests } from "~/models/quote-request.server";
import { db } from "~/services/db.server";
import { makeRequest, makeUser } from "./factories";

/** The admin quotes export: every row the list's filters show, in batches, newest first. */

async function exported(filters: { q: string; status: "paid" | "pending" | null }) {
  const batches: number[] = [];
  const ids: number[] = [];
  for await (const rows of exportAdminRequests(db, filters)) {
    batches.push(rows.length);
    ids.push(...rows.map((r) => r.id));
  }
  return { batches, ids };
}

describe("exportación CSV de solicitudes", () => {
  it("lee todo por lotes, del más nuevo al más antiguo, con los filtros de la lista", async () => {
    const buyer = await makeUser("buyer", { companyName: "Ferretería Ñandú" });
    const total = EXPORT_BATCH_SIZE * 2 + 5;
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${total})
      INSERT INTO quote_requests (buyer_id, title, file_name, file_type, file_key, file_size, status, created_at, updated_at)
      SELECT ${buyer}, 'Tornillos lote ' || i, 'r.pdf', 'application/pdf', 'k' || i, 1,
        CASE WHEN i % 2 = 0 THEN 'paid' ELSE 'pending' END, datetime('now'), datetime('now') FROM n`.execute(
      db,
    );
    const valves = await makeRequest(buyer, "paid", "Válvulas de bola");

    const all = await exported({ q: "", status: null });
    expect(all.batches).toEqual([EXPORT_BATCH_SIZE, EXPORT_BATCH_SIZE, 6]);
    expect(all.ids).toEqual([...all.ids].sort((a, b) => b - a));
    expect(new Set(all.ids).size).toBe(total + 1);

    const paid = await exported({ q: "", status: "paid" });
    expect(paid.ids).toHaveLength(Math.floor(total / 2) + 1);

    expect((await exported({ q: "valvulas", status: "paid" })).ids).toEqual([valves]);
    expect((await exported({ q: "valvulas", status: "pending" })).ids).toEqual([]);
    expect((await exported({ q: "ñandu tornillos", status: "pending" })).ids).toHaveLength(
      Math.ceil(total / 2),
    );
    expect((await exported({ q: "***", status: null })).ids).toEqual([]);
  });
});
