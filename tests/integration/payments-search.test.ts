/**
 * The Pagos list searched by a word that matches many requests (more than BROAD_SEARCH_REQUESTS:
 * it is read down the list's own index) and by one that matches a few (their payments are read and
 * sorted): both list exactly the matching payments, in the review queue's order and in every sort,
 * page by page forwards and back, and the CSV export holds the same rows in the same order.
 */
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { PaymentStatus } from "../../db/schema";
import { makeRequest, makeUser } from "./factories";
import { byDesc, expectPages, inQueueOrder, reversed, sentAt } from "./pages";
import {
  BROAD_SEARCH_REQUESTS,
  exportAdminPayments,
  listPaymentsForAdmin,
} from "~/models/payment.server";
import { db } from "~/services/db.server";
import type { PageRequest } from "~/utils/keyset";

interface PaymentRow {
  id: number;
  created: string;
  submitted: string | null;
  amount: number;
  status: PaymentStatus;
}
const screws: PaymentRow[] = [];
const valves: PaymentRow[] = [];

const ids = (rows: PaymentRow[]) => rows.map((p) => p.id);

async function addPayment(requestId: number, buyer: number, i: number) {
  const statuses: PaymentStatus[] = ["pending", "pending", "confirmed", "rejected"];
  const status = statuses[i % statuses.length]!;
  const created = new Date(Date.UTC(2031, 0, 1 + (i % 20), i % 24)).toISOString();
  // Some pending payments still wait for their proof; two share one instant (ties by id).
  const submitted =
    status === "pending" && i % 3 === 0
      ? null
      : new Date(Date.UTC(2031, 1, 1 + (i % 9), 0, i % 2)).toISOString();
  const amount = 10_000 + ((i * 7_919) % 50_000);
  const { id: quoteId } = await db
    .insertInto("official_quotes")
    .values({
      quote_request_id: requestId,
      final_amount_cents: amount,
      commission_percentage: 5,
      commission_amount_cents: Math.round(amount * 0.05),
      currency: "USD",
      valid_until: "2099-01-01",
      created_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto("payments")
    .values({
      quote_request_id: requestId,
      official_quote_id: quoteId,
      buyer_id: buyer,
      amount_cents: amount,
      method: submitted ? "transfer" : null,
      status,
      proof_key: submitted ? `comprobante-${requestId}.pdf` : null,
      proof_name: submitted ? "comprobante.pdf" : null,
      proof_type: submitted ? "application/pdf" : null,
      submitted_at: submitted,
      confirmed_at: status === "confirmed" ? submitted : null,
      created_at: created,
      updated_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, created, submitted, amount, status };
}

beforeAll(async () => {
  const buyer = await makeUser("buyer", { companyName: "Ferretería Ñandú S.A." });
  const other = await makeUser("buyer", { companyName: "Hidráulica del Golfo" });
  // More requests about screws than a narrow search reads; every 20th has a payment.
  const first = await makeRequest(buyer, "approved", "Tornillería para planta");
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BROAD_SEARCH_REQUESTS + 200})
    INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, created_at, updated_at)
    SELECT buyer_id, 'Tornillería lote ' || i, description, file_name, file_type, file_key || '-' || i, file_size, status, created_at, updated_at
    FROM quote_requests, n WHERE id = ${first}`.execute(db);
  const screwRequests = await db
    .selectFrom("quote_requests")
    .select("id")
    .where("buyer_id", "=", buyer)
    .orderBy("id")
    .execute();
  for (const [i, { id }] of screwRequests.entries())
    if (i % 20 === 0) screws.push(await addPayment(id, buyer, screws.length));
  // A few valve requests of another buyer, and their payments.
  for (let i = 0; i < 7; i++) {
    const id = await makeRequest(other, "approved", `Válvulas de compuerta ${i}`);
    valves.push(await addPayment(id, other, i));
  }
});

const read =
  (q: string, sort: "cola" | "recientes" | "antiguos" | "monto", status: PaymentStatus | null) =>
  (page: PageRequest) =>
    listPaymentsForAdmin(db, { q, status, page, sort });

async function exported(q: string, status: PaymentStatus | null = null) {
  const rows: number[] = [];
  for await (const batch of exportAdminPayments(db, { q, status }))
    rows.push(...batch.map((p) => p.id));
  return rows;
}

describe("Pagos: una búsqueda amplia y una estrecha", () => {
  it("una palabra de muchas solicitudes lista sus pagos en el orden de la cola, en cada orden y en el CSV", async () => {
    const matching = await db
      .selectFrom("quote_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("title", "like", "Tornillería%")
      .executeTakeFirstOrThrow();
    expect(Number(matching.n)).toBeGreaterThan(BROAD_SEARCH_REQUESTS);
    expect(new Set(screws.map((p) => p.status))).toEqual(
      new Set(["pending", "confirmed", "rejected"]),
    );

    await expectPages(read("tornilleria", "cola", null), ids(inQueueOrder(screws)));
    await expectPages(read("Ñandú", "cola", null), ids(inQueueOrder(screws)));
    await expectPages(
      read("tornilleria", "cola", "rejected"),
      ids(inQueueOrder(screws.filter((p) => p.status === "rejected"))),
    );
    const sentNewest = byDesc<PaymentRow>(sentAt, (p) => p.id);
    await expectPages(read("tornilleria", "recientes", null), ids([...screws].sort(sentNewest)));
    await expectPages(
      read("tornilleria", "antiguos", null),
      ids([...screws].sort(reversed(sentNewest))),
    );
    await expectPages(
      read("tornilleria", "monto", null),
      ids(
        [...screws].sort(
          byDesc(
            (p) => p.amount,
            (p) => p.id,
          ),
        ),
      ),
    );
    expect(await exported("tornilleria")).toEqual(ids(inQueueOrder(screws)));
    expect(await exported("tornilleria", "pending")).toEqual(
      ids(inQueueOrder(screws.filter((p) => p.status === "pending"))),
    );

    // Counted up to the cap, as every search: «Más de 200» when there are more.
    const { total, totalCapped } = await read(
      "tornilleria",
      "cola",
      null,
    )({
      kind: "numbered",
      page: 1,
    });
    expect(total).toBe(screws.length);
    expect(totalCapped).toBe(false);
  });

  it("una palabra de pocas solicitudes lista solo sus pagos, igual", async () => {
    await expectPages(read("valvulas", "cola", null), ids(inQueueOrder(valves)));
    await expectPages(
      read("golfo", "cola", "pending"),
      ids(inQueueOrder(valves.filter((p) => p.status === "pending"))),
    );
    expect(await exported("valvulas")).toEqual(ids(inQueueOrder(valves)));
  });

  it("el número de una solicitud, como lo escribe la transferencia, lista sus pagos", async () => {
    const [payment] = valves;
    const { quote_request_id: requestId } = await db
      .selectFrom("payments")
      .select("quote_request_id")
      .where("id", "=", payment!.id)
      .executeTakeFirstOrThrow();
    for (const q of [String(requestId), `#${requestId}`, `Solicitud N.º ${requestId}`]) {
      await expectPages(read(q, "cola", null), [payment!.id]);
      await expectPages(read(q, "recientes", null), [payment!.id]);
      expect(await exported(q)).toEqual([payment!.id]);
    }
    await expectPages(read("99999999", "cola", null), []);
  });
});
