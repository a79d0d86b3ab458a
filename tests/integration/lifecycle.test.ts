import { describe, expect, it } from "vitest";
import {
  approvePartnerQuote,
  assignPartner,
  buyerApproveQuote,
  buyerRejectQuote,
  createManualOfficialQuote,
  recordBuyerApproval,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import { confirmPayment, rejectPayment, submitPaymentProof } from "~/models/payment.server";
import { redeemReward, pointsBalance } from "~/models/loyalty.server";
import { db } from "~/services/db.server";
import { makeRequest, makeUser, snapshot, officialVersion, approveAsBuyer } from "./factories";

async function quotedRequest() {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer");
  const partner = await makeUser("partner");
  const requestId = await makeRequest(buyer);
  expect((await assignPartner(db, { requestId, partnerId: partner, adminId: admin })).ok).toBe(
    true,
  );
  const quote = await submitPartnerQuote(db, {
    requestId,
    partnerId: partner,
    amountCents: 250_075,
    notes: "Entrega en 10 días",
    file: null,
  });
  expect(quote.ok).toBe(true);
  const pq = await db
    .selectFrom("partner_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  return { admin, buyer, partner, requestId, partnerQuoteId: pq.id };
}

describe("status machine", () => {
  it("assigning the same partner twice is refused with the SPEC notice", async () => {
    const { admin, partner, requestId } = await quotedRequest();
    const before = await snapshot(requestId);
    const again = await assignPartner(db, { requestId, partnerId: partner, adminId: admin });
    expect(again).toMatchObject({
      ok: false,
      message: "Este partner ya está asignado a esta cotización",
    });
    expect(await snapshot(requestId)).toEqual(before);
  });

  it("a partner cannot quote a request not assigned to them, nor outside `assigned`, nor after selection", async () => {
    const { admin, partner, requestId, partnerQuoteId } = await quotedRequest();
    const stranger = await makeUser("partner");
    const before = await snapshot(requestId);
    expect(
      await submitPartnerQuote(db, {
        requestId,
        partnerId: stranger,
        amountCents: 100_000,
        notes: null,
        file: null,
      }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(await snapshot(requestId)).toEqual(before);

    expect((await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin })).ok).toBe(
      true,
    );
    const afterApproval = await snapshot(requestId);
    const late = await submitPartnerQuote(db, {
      requestId,
      partnerId: partner,
      amountCents: 999_999,
      notes: "cambio",
      file: null,
    });
    expect(late).toMatchObject({
      ok: false,
      code: "locked",
      message: "Tu cotización ya fue seleccionada y no puede modificarse.",
    });
    expect(await snapshot(requestId)).toEqual(afterApproval);
  });

  it("amounts under the minimum setting are refused", async () => {
    const { requestId, partner } = await quotedRequest();
    expect(
      await submitPartnerQuote(db, {
        requestId,
        partnerId: partner,
        amountCents: 9_999,
        notes: null,
        file: null,
      }),
    ).toMatchObject({ ok: false, code: "invalid" });
  });

  it("approving a partner quote creates the official quote with the commission setting", async () => {
    const { admin, requestId, partnerQuoteId } = await quotedRequest();
    const offer = () =>
      db
        .selectFrom("partner_quotes")
        .select(["is_selected", "updated_at"])
        .where("id", "=", partnerQuoteId)
        .executeTakeFirstOrThrow();
    const sent = (await offer()).updated_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const result = await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin });
    expect(result.ok).toBe(true);
    // Selected, and still dated when the partner last changed it (the pages show that time).
    expect(await offer()).toEqual({ is_selected: 1, updated_at: sent });
    const official = await db
      .selectFrom("official_quotes")
      .selectAll()
      .where("quote_request_id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(official).toMatchObject({
      final_amount_cents: 250_075,
      commission_percentage: 5,
      commission_amount_cents: 12_504,
      partner_quote_id: partnerQuoteId,
    });
    const days = (Date.parse(official.valid_until) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(28);
    expect(days).toBeLessThan(31);
  });

  it("two concurrent approvals leave one official quote; double send and buyer approval leave one pending payment", async () => {
    const { admin, buyer, requestId, partnerQuoteId } = await quotedRequest();
    const results = await Promise.all([
      approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin }),
      approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin }),
      createManualOfficialQuote(db, { requestId, amountCents: 500_000, adminId: admin }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const version = await officialVersion(requestId);
    const sends = await Promise.all([
      recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" }),
      recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" }),
      buyerApproveQuote(db, { requestId, buyerId: buyer, version }),
    ]);
    expect(sends.filter((r) => r.ok)).toHaveLength(1);
    const state = await snapshot(requestId);
    expect(state.official).toBe(1);
    expect(state.payments).toEqual([
      expect.objectContaining({ status: "pending", amount_cents: 250_075 }),
    ]);
    expect(state.requests).toEqual([
      expect.objectContaining({ id: requestId, status: "approved" }),
    ]);
  });

  it("the operator records a buyer's approval only with a note saying how, kept in the history as the team's act", async () => {
    const { admin, requestId, partnerQuoteId } = await quotedRequest();
    expect((await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin })).ok).toBe(
      true,
    );
    expect(await recordBuyerApproval(db, { requestId, adminId: admin, note: "  " })).toEqual(
      expect.objectContaining({ ok: false, code: "invalid" }),
    );
    expect((await snapshot(requestId)).payments).toEqual([]);
    expect(
      (await recordBuyerApproval(db, { requestId, adminId: admin, note: " Orden firmada " })).ok,
    ).toBe(true);
    const history = await db
      .selectFrom("request_status_history")
      .select(["actor_id", "note"])
      .where("quote_request_id", "=", requestId)
      .where("to_status", "=", "approved")
      .execute();
    expect(history).toEqual([
      { actor_id: admin, note: "Aprobación del comprador registrada por el equipo: Orden firmada" },
    ]);
  });

  it("an offer the partner changed after the operator's page showed it is not approved unseen", async () => {
    const { admin, partner, requestId, partnerQuoteId } = await quotedRequest();
    const seenAt = async () =>
      (
        await db
          .selectFrom("partner_quotes")
          .select("updated_at")
          .where("id", "=", partnerQuoteId)
          .executeTakeFirstOrThrow()
      ).updated_at;
    const shown = await seenAt();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const raised = await submitPartnerQuote(db, {
      requestId,
      partnerId: partner,
      amountCents: 8_888_800,
      notes: null,
      file: null,
    });
    expect(raised.ok).toBe(true);
    const before = await snapshot(requestId);
    const stale = await approvePartnerQuote(db, {
      requestId,
      partnerQuoteId,
      adminId: admin,
      offerSeenAt: shown,
    });
    expect(stale).toMatchObject({ ok: false, code: "conflict" });
    expect(!stale.ok && stale.message).toMatch(
      /^El socio cambió esta oferta después de que abriste la página: ahora su total es USD\s88,888\.00\./,
    );
    expect(await snapshot(requestId)).toEqual(before);
    const approved = await approvePartnerQuote(db, {
      requestId,
      partnerQuoteId,
      adminId: admin,
      offerSeenAt: await seenAt(),
    });
    expect(approved.ok).toBe(true);
  });

  it("the buyer may approve only their own quoted request and reject it with a reason", async () => {
    const { admin, buyer, requestId } = await quotedRequest();
    const otherBuyer = await makeUser("buyer");
    expect(
      (await createManualOfficialQuote(db, { requestId, amountCents: 300_000, adminId: admin })).ok,
    ).toBe(true);
    const before = await snapshot(requestId);
    expect(await approveAsBuyer(requestId, otherBuyer)).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(
      await buyerRejectQuote(db, { requestId, buyerId: otherBuyer, reason: "x" }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(await snapshot(requestId)).toEqual(before);
    expect(
      (
        await buyerRejectQuote(db, {
          requestId,
          buyerId: buyer,
          reason: "Precio fuera de presupuesto",
        })
      ).ok,
    ).toBe(true);
    const row = await db
      .selectFrom("quote_requests")
      .select(["status", "rejection_reason"])
      .where("id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "rejected", rejection_reason: "Precio fuera de presupuesto" });
  });
});

describe("payments and loyalty", () => {
  async function approvedRequest() {
    const ctx = await quotedRequest();
    await approvePartnerQuote(db, {
      requestId: ctx.requestId,
      partnerQuoteId: ctx.partnerQuoteId,
      adminId: ctx.admin,
    });
    await approveAsBuyer(ctx.requestId, ctx.buyer);
    const payment = await db
      .selectFrom("payments")
      .select("id")
      .where("quote_request_id", "=", ctx.requestId)
      .executeTakeFirstOrThrow();
    return { ...ctx, paymentId: payment.id };
  }
  const proof = (key: string) => ({ key, name: "comprobante.pdf", type: "application/pdf" });

  it("the proof attaches to the pending payment; a wrong amount or another buyer is refused", async () => {
    const { buyer, requestId, paymentId } = await approvedRequest();
    const other = await makeUser("buyer");
    expect(
      await submitPaymentProof(db, {
        requestId,
        buyerId: other,
        amountCents: 250_075,
        method: "transfer",
        proof: proof("a"),
      }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(
      await submitPaymentProof(db, {
        requestId,
        buyerId: buyer,
        amountCents: 250_000,
        method: "transfer",
        proof: proof("a"),
      }),
    ).toMatchObject({ ok: false, code: "invalid" });
    const ok = await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "cash",
      proof: proof("b"),
    });
    expect(ok).toMatchObject({ ok: true, value: { paymentId } });
    const again = await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "cash",
      proof: proof("c"),
    });
    expect(again).toMatchObject({ ok: true, value: { paymentId, replacedProofKey: "b" } });
    // The replacement is on the history, and the operators are told it replaced one.
    const history = await db
      .selectFrom("request_status_history")
      .select(["event", "note"])
      .where("quote_request_id", "=", requestId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(history).toEqual({
      event: "proof_replaced",
      note: "«comprobante.pdf» reemplazado por «comprobante.pdf»",
    });
    const notice = await db
      .selectFrom("notifications")
      .select("title")
      .where("related_type", "=", "payment")
      .where("related_id", "=", paymentId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(notice.title).toBe("Comprobante de pago reemplazado");
    expect((await snapshot(requestId)).payments).toEqual([
      { id: paymentId, status: "pending", amount_cents: 250_075, proof_key: "c" },
    ]);
  });

  it("a proof the buyer replaced after the operator's page showed it is not confirmed unseen", async () => {
    const { admin, buyer, requestId, paymentId } = await approvedRequest();
    const send = (key: string) =>
      submitPaymentProof(db, {
        requestId,
        buyerId: buyer,
        amountCents: 250_075,
        method: "transfer",
        proof: proof(key),
      });
    expect((await send("visto")).ok).toBe(true);
    expect((await send("reemplazo")).ok).toBe(true);
    const before = await snapshot(requestId);
    expect(await confirmPayment(db, { paymentId, adminId: admin, proofSeen: "visto" })).toEqual({
      ok: false,
      code: "conflict",
      message:
        "El comprador envió otro comprobante después de que abriste la página: revísalo antes de confirmar el pago.",
    });
    expect(await snapshot(requestId)).toEqual(before);
    expect(
      (await confirmPayment(db, { paymentId, adminId: admin, proofSeen: "reemplazo" })).ok,
    ).toBe(true);
  });

  it("a payment received without a proof is recorded by the operator with how it was paid and a note", async () => {
    const { admin, requestId, paymentId } = await approvedRequest();
    const before = await snapshot(requestId);
    // «Confirmar pago» needs a proof; the record form says how the money came.
    expect(await confirmPayment(db, { paymentId, adminId: admin })).toMatchObject({
      ok: false,
      message: "El comprador aún no envió el comprobante de este pago.",
    });
    expect(await snapshot(requestId)).toEqual(before);
    const received = { method: "cash" as const, note: "Efectivo recibido en oficina, recibo 0142" };
    const recorded = await confirmPayment(db, {
      paymentId,
      adminId: admin,
      proofSeen: "",
      received,
    });
    expect(recorded).toMatchObject({ ok: true });
    const after = await snapshot(requestId);
    expect(after.requests).toMatchObject([{ id: requestId, status: "paid" }]);
    expect(after.payments).toEqual([
      { id: paymentId, status: "confirmed", amount_cents: 250_075, proof_key: null },
    ]);
    expect(after.commissions).toBe(before.commissions + 1);
    const payment = await db
      .selectFrom("payments")
      .select(["method", "reviewed_by", "confirmed_at"])
      .where("id", "=", paymentId)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ method: "cash", reviewed_by: admin });
    expect(payment.confirmed_at).not.toBeNull();
    const history = await db
      .selectFrom("request_status_history")
      .select(["to_status", "note"])
      .where("quote_request_id", "=", requestId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(history).toEqual({
      to_status: "paid",
      note: "Pago registrado sin comprobante (Efectivo): Efectivo recibido en oficina, recibo 0142",
    });
    // Recorded once: a second record or a confirmation finds it reviewed.
    expect(
      (await confirmPayment(db, { paymentId, adminId: admin, proofSeen: "", received })).ok,
    ).toBe(false);
    expect(await snapshot(requestId)).toEqual(after);
  });

  it("a proof sent after the operator's page showed none is looked at before the payment is recorded", async () => {
    const { admin, buyer, requestId, paymentId } = await approvedRequest();
    expect(
      (
        await submitPaymentProof(db, {
          requestId,
          buyerId: buyer,
          amountCents: 250_075,
          method: "transfer",
          proof: proof("llegó"),
        })
      ).ok,
    ).toBe(true);
    const before = await snapshot(requestId);
    expect(
      await confirmPayment(db, {
        paymentId,
        adminId: admin,
        proofSeen: "",
        received: { method: "cash", note: "En oficina" },
      }),
    ).toEqual({
      ok: false,
      code: "conflict",
      message:
        "El comprador envió su comprobante después de que abriste la página: revísalo antes de confirmar el pago.",
    });
    expect(await snapshot(requestId)).toEqual(before);
  });

  it("concurrent confirm, confirm and reject: one confirmed payment, points and commission once", async () => {
    const { admin, buyer, requestId, paymentId } = await approvedRequest();
    await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "transfer",
      proof: proof("p"),
    });
    const results = await Promise.all([
      confirmPayment(db, { paymentId, adminId: admin }),
      confirmPayment(db, { paymentId, adminId: admin }),
      rejectPayment(db, { paymentId, adminId: admin, reason: "ilegible" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const state = await snapshot(requestId);
    // Whichever review ran first wins; the rows must agree with it.
    const confirmed = results[0]!.ok || results[1]!.ok;
    expect(state.payments).toEqual([
      expect.objectContaining({ status: confirmed ? "confirmed" : "rejected" }),
    ]);
    expect(state.requests).toEqual([
      expect.objectContaining({ status: confirmed ? "paid" : "approved" }),
    ]);
    expect(state.ledger).toBe(confirmed ? 1 : 0);
    expect(state.commissions).toBe(confirmed ? 1 : 0);
    expect(await pointsBalance(db, buyer)).toBe(confirmed ? 2_500 : 0);
  });

  it("the operators are told who offered and for how much", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const partner = await makeUser("partner", { companyName: "Aceros Ficticios del Norte" });
    const requestId = await makeRequest(buyer);
    await assignPartner(db, { requestId, partnerId: partner, adminId: admin });
    const sent = await submitPartnerQuote(db, {
      requestId,
      partnerId: partner,
      amountCents: 250_075,
      notes: null,
      file: null,
    });
    expect(sent.ok).toBe(true);
    const told = await db
      .selectFrom("notifications")
      .select("message")
      .where("user_id", "=", admin)
      .where("title", "=", "Nueva cotización de socio")
      .executeTakeFirstOrThrow();
    expect(told.message).toMatch(
      /^Aceros Ficticios del Norte envió su cotización para «.+»: USD\s2,500\.75\.$/,
    );
  });

  it("a confirmed payment tells the partner whose offer was paid for, and no other", async () => {
    const { admin, buyer, partner, requestId, paymentId } = await approvedRequest();
    const other = await makeUser("partner");
    await db
      .insertInto("partner_assignments")
      .values({ partner_id: other, quote_request_id: requestId, assigned_by: admin })
      .execute();
    await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "transfer",
      proof: proof("w"),
    });
    expect((await confirmPayment(db, { paymentId, adminId: admin })).ok).toBe(true);
    const told = await db
      .selectFrom("notifications")
      .select(["user_id", "link"])
      .where("title", "=", "Pago confirmado: prepara la entrega")
      .where("user_id", "in", [partner, other, buyer])
      .execute();
    expect(told).toEqual([{ user_id: partner, link: `/partner/assignments/${requestId}` }]);
  });

  it("two concurrent confirmations award points once", async () => {
    const { admin, buyer, requestId, paymentId } = await approvedRequest();
    await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "transfer",
      proof: proof("q"),
    });
    const results = await Promise.all([
      confirmPayment(db, { paymentId, adminId: admin }),
      confirmPayment(db, { paymentId, adminId: admin }),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    const state = await snapshot(requestId);
    expect(state.payments).toEqual([expect.objectContaining({ status: "confirmed" })]);
    expect(state.requests).toEqual([expect.objectContaining({ status: "paid" })]);
    expect(state.ledger).toBe(1);
    expect(state.commissions).toBe(1);
    expect(await pointsBalance(db, buyer)).toBe(2_500);
  });

  it("a rejected proof leaves the request approved; a new proof opens a new pending payment", async () => {
    const { admin, buyer, requestId, paymentId } = await approvedRequest();
    await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "transfer",
      proof: proof("x"),
    });
    expect((await rejectPayment(db, { paymentId, adminId: admin, reason: "No coincide" })).ok).toBe(
      true,
    );
    expect((await snapshot(requestId)).requests[0]!.status).toBe("approved");
    const second = await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_075,
      method: "transfer",
      proof: proof("y"),
    });
    expect(second.ok && second.value.paymentId).not.toBe(paymentId);
    expect((await snapshot(requestId)).payments.map((p) => p.status)).toEqual([
      "rejected",
      "pending",
    ]);
  });

  it("a redemption beyond the balance is refused and changes nothing", async () => {
    const buyer = await makeUser("buyer");
    await db
      .insertInto("loyalty_ledger")
      .values({ buyer_id: buyer, points: 600, reason: "adjustment", description: "Ajuste" })
      .execute();
    const rewards = await db
      .selectFrom("rewards")
      .select(["id", "points_cost", "is_available"])
      .orderBy("points_cost")
      .execute();
    const cheap = rewards.find((r) => r.points_cost === 500)!;
    const pricey = rewards.find((r) => r.points_cost === 1000)!;
    const before = await snapshot();
    expect(await redeemReward(db, { buyerId: buyer, rewardId: pricey.id })).toMatchObject({
      ok: false,
      code: "conflict",
    });
    expect(await snapshot()).toEqual(before);
    const [a, b] = await Promise.all([
      redeemReward(db, { buyerId: buyer, rewardId: cheap.id }),
      redeemReward(db, { buyerId: buyer, rewardId: cheap.id }),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(await pointsBalance(db, buyer)).toBe(100);
  });
});
