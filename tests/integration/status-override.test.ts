import { describe, expect, it } from "vitest";
import {
  adminSetStatus,
  assignPartner,
  createManualOfficialQuote,
  recordBuyerApproval,
} from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { makeRequest, makeUser, snapshot } from "./factories";

/** A request sent to its buyer: `approved`, with one pending payment waiting for the proof. */
async function approvedRequest() {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer");
  const partner = await makeUser("partner");
  const requestId = await makeRequest(buyer, "pending", "Tambores de lubricante");
  expect((await assignPartner(db, { requestId, partnerId: partner, adminId: admin })).ok).toBe(
    true,
  );
  expect(
    (await createManualOfficialQuote(db, { requestId, amountCents: 400_000, adminId: admin })).ok,
  ).toBe(true);
  expect(
    (await recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" })).ok,
  ).toBe(true);
  return { admin, buyer, requestId };
}

async function history(requestId: number) {
  return db
    .selectFrom("request_status_history")
    .select(["from_status", "to_status", "event", "note"])
    .where("quote_request_id", "=", requestId)
    .orderBy("id")
    .execute();
}

describe("el cambio manual de estado del operador", () => {
  it("sin cambio de estado y sin nota lo dice y no guarda nada; con nota, guarda la nota", async () => {
    const { admin, requestId } = await approvedRequest();
    const before = await snapshot(requestId);
    expect(
      await adminSetStatus(db, { requestId, status: "approved", adminId: admin, note: null }),
    ).toMatchObject({
      ok: false,
      code: "invalid",
      message: "La solicitud ya está en «Aprobado»: elige otro estado o escribe una nota.",
    });
    expect(await snapshot(requestId)).toEqual(before);

    const kept = await adminSetStatus(db, {
      requestId,
      status: "approved",
      adminId: admin,
      note: "El comprador pidió una semana más para pagar",
    });
    expect(kept).toEqual({ ok: true, value: { changed: false } });
    expect((await history(requestId)).at(-1)).toEqual({
      from_status: "approved",
      to_status: "approved",
      event: "note",
      note: "El comprador pidió una semana más para pagar",
    });
    expect((await snapshot(requestId)).payments).toEqual(before.payments);
  });

  it("no marca como pagada una solicitud con un pago pendiente: ese pago se confirma en Pagos", async () => {
    const { admin, requestId } = await approvedRequest();
    const before = await snapshot(requestId);
    const refused = await adminSetStatus(db, {
      requestId,
      status: "paid",
      adminId: admin,
      note: "Pagó por fuera",
    });
    expect(refused).toMatchObject({ ok: false, code: "conflict" });
    expect(!refused.ok && refused.message).toMatch(
      /^Esta solicitud tiene un pago pendiente \(N\.º\s\d+\): confírmalo en Pagos/,
    );
    expect(await snapshot(requestId)).toEqual(before);
  });

  it("al cancelar (o sacar de «Aprobado») anula el pago pendiente y se lo dice al comprador", async () => {
    const { admin, buyer, requestId } = await approvedRequest();
    expect(
      await adminSetStatus(db, { requestId, status: "cancelled", adminId: admin, note: null }),
    ).toEqual({ ok: true, value: { changed: true } });
    const payments = await db
      .selectFrom("payments")
      .select(["status", "rejection_reason"])
      .where("quote_request_id", "=", requestId)
      .execute();
    expect(payments).toEqual([
      {
        status: "rejected",
        rejection_reason: "Solicitud pasada a «Cancelado» por el equipo de CotizaHub.",
      },
    ]);
    const notice = await db
      .selectFrom("notifications")
      .select("message")
      .where("user_id", "=", buyer)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(notice.message).toBe(
      "«Tambores de lubricante» pasó a estado «Cancelado». Se anularon sus pagos pendientes.",
    );
    // Once no payment is pending, «Pagado» is the operator's to set (a payment made elsewhere).
    expect(
      (
        await adminSetStatus(db, {
          requestId,
          status: "paid",
          adminId: admin,
          note: "Transferencia directa",
        })
      ).ok,
    ).toBe(true);
  });

  it("sin cotización oficial, el operador puede igualmente pasarla a «Aprobado»: no hay pago que crear", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const requestId = await makeRequest(buyer, "pending", "Neumáticos para camiones");
    expect(
      await adminSetStatus(db, { requestId, status: "approved", adminId: admin, note: null }),
    ).toEqual({ ok: true, value: { changed: true } });
    expect((await snapshot(requestId)).payments).toEqual([]);
  });

  it("volver a «Aprobado» deja otra vez un único pago pendiente por el total de la cotización", async () => {
    const { admin, requestId } = await approvedRequest();
    const pendingPayments = () =>
      db
        .selectFrom("payments")
        .select("amount_cents")
        .where("quote_request_id", "=", requestId)
        .where("status", "=", "pending")
        .execute();
    expect(
      (await adminSetStatus(db, { requestId, status: "assigned", adminId: admin, note: null })).ok,
    ).toBe(true);
    expect(await pendingPayments()).toEqual([]);
    expect(
      (await adminSetStatus(db, { requestId, status: "approved", adminId: admin, note: null })).ok,
    ).toBe(true);
    expect(
      (await adminSetStatus(db, { requestId, status: "quoted", adminId: admin, note: null })).ok,
    ).toBe(true);
    expect(
      (await adminSetStatus(db, { requestId, status: "approved", adminId: admin, note: null })).ok,
    ).toBe(true);
    expect(await pendingPayments()).toEqual([{ amount_cents: 400_000 }]);
  });
});
