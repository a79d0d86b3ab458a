import { describe, expect, it } from "vitest";
import {
  approvePartnerQuote,
  assignPartner,
  assignPartners,
  buyerRejectQuote,
  createManualOfficialQuote,
  recordBuyerApproval,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import {
  declineAssignment,
  extendDeadline,
  reopenRequest,
  withdrawAssignment,
} from "~/models/sourcing-round.server";
import { requestFileFor } from "~/models/file-access.server";
import { listAssignableRequests } from "~/models/partner-admin.server";
import { getPartnerCounters } from "~/models/partner-assignment.server";
import { deactivateUser } from "~/models/admin-user.server";
import { listAssignablePartners } from "~/models/quote-request.server";
import { db } from "~/services/db.server";
import { makeRequest, makeUser, snapshot } from "./factories";

const HOUR = 3600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

/** A request assigned to two partners, with a deadline two days ahead. */
async function invitedRound() {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer");
  const first = await makeUser("partner", { companyName: "Aceros del Norte" });
  const second = await makeUser("partner", { companyName: "Válvulas del Sur" });
  const requestId = await makeRequest(buyer, "pending", "Válvulas de compuerta");
  await setDeadline(requestId, inHours(48));
  for (const partnerId of [first, second]) {
    expect((await assignPartner(db, { requestId, partnerId, adminId: admin })).ok).toBe(true);
  }
  return { admin, buyer, first, second, requestId };
}

/** Time is driven through the data, never by waiting. */
async function setDeadline(requestId: number, deadline: string) {
  await db
    .updateTable("quote_requests")
    .set({ quote_deadline: deadline })
    .where("id", "=", requestId)
    .execute();
}

const offer = (requestId: number, partnerId: number, amountCents = 150_000) =>
  submitPartnerQuote(db, { requestId, partnerId, amountCents, notes: null, file: null });

async function stateOf(requestId: number, partnerId: number) {
  const row = await db
    .selectFrom("partner_assignments")
    .select(["state", "decline_reason"])
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .executeTakeFirstOrThrow();
  return row;
}

async function notificationsOf(userId: number) {
  const rows = await db
    .selectFrom("notifications")
    .select(["title", "message"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows;
}

async function historyOf(requestId: number) {
  return db
    .selectFrom("request_status_history")
    .select(["from_status", "to_status", "event", "note", "actor_id"])
    .where("quote_request_id", "=", requestId)
    .orderBy("id")
    .execute();
}

async function partnerQuoteId(requestId: number, partnerId: number) {
  const row = await db
    .selectFrom("partner_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("a partner declines", () => {
  it("with a reason the operators read; afterwards they cannot offer or open the file", async () => {
    const { admin, first, requestId } = await invitedRound();
    const result = await declineAssignment(db, {
      requestId,
      partnerId: first,
      reason: "Sin stock hasta marzo",
    });
    expect(result.ok).toBe(true);
    expect(await stateOf(requestId, first)).toEqual({
      state: "declined",
      decline_reason: "Sin stock hasta marzo",
    });
    expect((await historyOf(requestId)).at(-1)).toMatchObject({
      event: "declined",
      from_status: "assigned",
      to_status: "assigned",
      actor_id: first,
      note: "Aceros del Norte declinó: Sin stock hasta marzo",
    });
    expect((await notificationsOf(admin)).at(-1)).toMatchObject({
      title: "Un socio declinó una solicitud",
    });

    const before = await snapshot(requestId);
    expect(await offer(requestId, first)).toMatchObject({
      ok: false,
      code: "locked",
      message: "Declinaste esta solicitud: ya no puedes enviar una oferta.",
    });
    expect(
      await declineAssignment(db, { requestId, partnerId: first, reason: "otra vez" }),
    ).toMatchObject({ ok: false, message: "Ya declinaste esta solicitud." });
    expect(await snapshot(requestId)).toEqual(before);
    const partner = { id: first, role: "partner" as const };
    expect(await requestFileFor(db, partner as never, requestId)).toBeUndefined();
  });

  it("only an invitation without an offer, and only their own", async () => {
    const { first, second, requestId } = await invitedRound();
    expect((await offer(requestId, first)).ok).toBe(true);
    const stranger = await makeUser("partner");
    const before = await snapshot(requestId);
    expect(
      await declineAssignment(db, { requestId, partnerId: first, reason: "Me arrepentí" }),
    ).toMatchObject({ ok: false, code: "locked" });
    expect(
      await declineAssignment(db, { requestId, partnerId: stranger, reason: "No es mía" }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(await snapshot(requestId)).toEqual(before);
    expect((await stateOf(requestId, second)).state).toBe("invited");
  });
});

describe("the operator withdraws an invitation", () => {
  it("before an offer: the partner is told and can no longer offer", async () => {
    const { admin, first, requestId } = await invitedRound();
    expect((await withdrawAssignment(db, { requestId, partnerId: first, adminId: admin })).ok).toBe(
      true,
    );
    expect((await stateOf(requestId, first)).state).toBe("withdrawn");
    expect((await notificationsOf(first)).at(-1)).toMatchObject({ title: "Asignación retirada" });
    expect((await historyOf(requestId)).at(-1)).toMatchObject({ event: "withdrawn" });
    const before = await snapshot(requestId);
    expect(await offer(requestId, first)).toMatchObject({
      ok: false,
      message: "Tu asignación fue retirada: ya no puedes enviar una oferta.",
    });
    expect(await snapshot(requestId)).toEqual(before);
  });

  it("never once the partner has offered", async () => {
    const { admin, second, requestId } = await invitedRound();
    expect((await offer(requestId, second)).ok).toBe(true);
    const before = await snapshot(requestId);
    expect(
      await withdrawAssignment(db, { requestId, partnerId: second, adminId: admin }),
    ).toMatchObject({
      ok: false,
      message: "Este socio ya envió su oferta: una asignación con oferta no se retira.",
    });
    expect(await snapshot(requestId)).toEqual(before);
  });
});

describe("a withdrawn invitation is renewed by assigning the partner again", () => {
  it("the partner is invited again and may offer; a declined partner is not offered again", async () => {
    const { admin, buyer, first, second, requestId } = await invitedRound();
    expect(
      (await declineAssignment(db, { requestId, partnerId: second, reason: "Sin stock" })).ok,
    ).toBe(true);
    expect((await withdrawAssignment(db, { requestId, partnerId: first, adminId: admin })).ok).toBe(
      true,
    );

    const assignable = (await listAssignablePartners(db, requestId)).map((p) => p.id);
    expect(assignable).toContain(first);
    expect(assignable).not.toContain(second);
    expect((await listAssignableRequests(db, first)).map((r) => r.id)).toContain(requestId);
    expect((await listAssignableRequests(db, second)).map((r) => r.id)).not.toContain(requestId);

    const declinedBefore = await snapshot(requestId);
    expect(await assignPartner(db, { requestId, partnerId: second, adminId: admin })).toMatchObject(
      {
        ok: false,
        code: "conflict",
      },
    );
    expect(await snapshot(requestId)).toEqual(declinedBefore);

    expect((await assignPartner(db, { requestId, partnerId: first, adminId: admin })).ok).toBe(
      true,
    );
    expect(await stateOf(requestId, first)).toEqual({ state: "invited", decline_reason: null });
    expect((await getPartnerCounters(db, first)).pending).toBe(1);
    expect((await historyOf(requestId)).at(-1)).toMatchObject({
      event: "assigned",
      note: "Aceros del Norte (invitado de nuevo)",
    });
    expect((await notificationsOf(buyer)).at(-1)?.message).toBe(
      "Sumamos un socio verificado más a «Válvulas de compuerta»: tendrás más ofertas para comparar.",
    );
    expect((await notificationsOf(first)).at(-1)).toMatchObject({
      title: "Nueva solicitud de cotización asignada",
    });
    expect((await offer(requestId, first)).ok).toBe(true);
    expect((await stateOf(requestId, first)).state).toBe("offered");
    // Still one row per partner and request.
    const rows = await db
      .selectFrom("partner_assignments")
      .select("id")
      .where("quote_request_id", "=", requestId)
      .execute();
    expect(rows).toHaveLength(2);
  });
});

describe("deactivating a partner", () => {
  it("withdraws their invitations still waiting for an offer, keeps sent offers, and tells nobody", async () => {
    const { admin, first, second, requestId } = await invitedRound();
    expect((await offer(requestId, second)).ok).toBe(true);
    const notificationsBefore = (await notificationsOf(first)).length;
    expect(await deactivateUser(db, { userId: first, adminId: admin })).toMatchObject({
      ok: true,
      value: { withdrawnInvitations: 1 },
    });
    expect((await stateOf(requestId, first)).state).toBe("withdrawn");
    expect((await stateOf(requestId, second)).state).toBe("offered");
    expect((await historyOf(requestId)).at(-1)).toMatchObject({
      event: "withdrawn",
      note: expect.stringMatching(/retirada: cuenta desactivada$/),
    });
    expect(await notificationsOf(first)).toHaveLength(notificationsBefore);
    // An offer sent before is withdrawn by nobody: deactivating the other partner changes no state.
    expect(await deactivateUser(db, { userId: second, adminId: admin })).toMatchObject({
      ok: true,
      value: { withdrawnInvitations: 0 },
    });
    expect((await stateOf(requestId, second)).state).toBe("offered");
  });
});

describe("the deadline", () => {
  it("refuses new and edited offers once passed, until the operator extends it", async () => {
    const { admin, first, second, requestId } = await invitedRound();
    expect((await offer(requestId, first, 200_000)).ok).toBe(true);
    await setDeadline(requestId, inHours(-1));
    const before = await snapshot(requestId);
    const late = await offer(requestId, first, 180_000);
    expect(late).toMatchObject({ ok: false, code: "locked" });
    expect(!late.ok && late.message).toMatch(/^El plazo para cotizar venció el .+ UTC\. /);
    expect(await offer(requestId, second)).toMatchObject({ ok: false, code: "locked" });
    expect(await snapshot(requestId)).toEqual(before);

    // Never earlier than now, never earlier than the current deadline.
    expect(
      await extendDeadline(db, { requestId, adminId: admin, deadline: inHours(-0.5) }),
    ).toMatchObject({ ok: false, code: "invalid" });
    expect(await snapshot(requestId)).toEqual(before);

    const deadline = inHours(24);
    expect((await extendDeadline(db, { requestId, adminId: admin, deadline })).ok).toBe(true);
    expect((await historyOf(requestId)).at(-1)).toMatchObject({ event: "deadline_extended" });
    for (const partnerId of [first, second]) {
      expect((await notificationsOf(partnerId)).at(-1)).toMatchObject({
        title: "Plazo ampliado",
      });
    }
    expect((await offer(requestId, first, 180_000)).ok).toBe(true);
    const stored = await db
      .selectFrom("partner_quotes")
      .select("quoted_amount_cents")
      .where("quote_request_id", "=", requestId)
      .where("partner_id", "=", first)
      .executeTakeFirstOrThrow();
    expect(stored.quoted_amount_cents).toBe(180_000);
    expect(
      await extendDeadline(db, { requestId, adminId: admin, deadline: inHours(12) }),
    ).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { quote_deadline: [expect.any(String)] },
    });
  });
});

describe("selection", () => {
  it("marks the chosen offer selected and the others not selected, and tells them", async () => {
    const { admin, first, second, requestId } = await invitedRound();
    expect((await offer(requestId, first, 200_000)).ok).toBe(true);
    expect((await offer(requestId, second, 210_000)).ok).toBe(true);
    const chosen = await partnerQuoteId(requestId, first);
    expect(
      (await approvePartnerQuote(db, { requestId, partnerQuoteId: chosen, adminId: admin })).ok,
    ).toBe(true);
    expect((await stateOf(requestId, first)).state).toBe("selected");
    expect((await stateOf(requestId, second)).state).toBe("not_selected");
    expect((await notificationsOf(second)).at(-1)).toMatchObject({
      title: "Oferta no seleccionada",
    });
    expect((await notificationsOf(first)).at(-1)).toMatchObject({
      title: "¡Tu cotización fue seleccionada!",
    });
  });

  it("a manual official quote closes every offer as not selected", async () => {
    const { admin, first, second, requestId } = await invitedRound();
    expect((await offer(requestId, first)).ok).toBe(true);
    expect(
      (await createManualOfficialQuote(db, { requestId, amountCents: 300_000, adminId: admin })).ok,
    ).toBe(true);
    expect((await stateOf(requestId, first)).state).toBe("not_selected");
    // An invitation that never became an offer stays an invitation (shown as closed), and that
    // partner is told the round closed.
    expect((await stateOf(requestId, second)).state).toBe("invited");
    expect((await notificationsOf(second)).at(-1)).toMatchObject({ title: "Ronda cerrada" });
    expect((await notificationsOf(first)).at(-1)).toMatchObject({
      title: "Oferta no seleccionada",
    });
  });
});

describe("reject, reopen, re-offer, re-approve", () => {
  it("keeps the old official quote as a superseded version and runs a new round", async () => {
    const { admin, buyer, first, second, requestId } = await invitedRound();
    expect((await offer(requestId, first, 200_000)).ok).toBe(true);
    expect((await offer(requestId, second, 210_000)).ok).toBe(true);
    const firstQuote = await partnerQuoteId(requestId, first);
    expect(
      (await approvePartnerQuote(db, { requestId, partnerQuoteId: firstQuote, adminId: admin })).ok,
    ).toBe(true);
    expect(
      (await recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" })).ok,
    ).toBe(true);
    expect((await buyerRejectQuote(db, { requestId, buyerId: buyer, reason: "Muy caro" })).ok).toBe(
      true,
    );
    expect((await notificationsOf(first)).at(-1)).toMatchObject({
      title: "El comprador rechazó la cotización",
    });

    // Reopening needs a future deadline; a refusal changes nothing.
    const before = await snapshot(requestId);
    expect(
      await reopenRequest(db, { requestId, adminId: admin, deadline: inHours(-2) }),
    ).toMatchObject({ ok: false, code: "invalid" });
    expect(await snapshot(requestId)).toEqual(before);

    expect((await reopenRequest(db, { requestId, adminId: admin, deadline: inHours(30) })).ok).toBe(
      true,
    );
    const request = await db
      .selectFrom("quote_requests")
      .select(["status", "total_amount_cents"])
      .where("id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(request).toEqual({ status: "assigned", total_amount_cents: null });
    expect((await stateOf(requestId, first)).state).toBe("offered");
    expect((await stateOf(requestId, second)).state).toBe("offered");
    expect((await historyOf(requestId)).at(-1)).toMatchObject({
      from_status: "rejected",
      to_status: "assigned",
    });

    // The second partner revises; the operator approves it; the buyer gets a new official quote.
    expect((await offer(requestId, second, 190_000)).ok).toBe(true);
    const secondQuote = await partnerQuoteId(requestId, second);
    expect(
      (await approvePartnerQuote(db, { requestId, partnerQuoteId: secondQuote, adminId: admin }))
        .ok,
    ).toBe(true);
    const versions = await db
      .selectFrom("official_quotes")
      .select(["final_amount_cents", "superseded_at"])
      .where("quote_request_id", "=", requestId)
      .orderBy("id")
      .execute();
    expect(versions.map((v) => [v.final_amount_cents, v.superseded_at === null])).toEqual([
      [200_000, false],
      [190_000, true],
    ]);
    expect((await stateOf(requestId, second)).state).toBe("selected");
    expect((await stateOf(requestId, first)).state).toBe("not_selected");
    expect(
      (await recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" })).ok,
    ).toBe(true);
    const pending = await db
      .selectFrom("payments")
      .select(["amount_cents", "status"])
      .where("quote_request_id", "=", requestId)
      .orderBy("id")
      .execute();
    expect(pending).toEqual([
      { amount_cents: 200_000, status: "rejected" },
      { amount_cents: 190_000, status: "pending" },
    ]);
  });

  it("only a rejected request can be reopened", async () => {
    const { admin, requestId } = await invitedRound();
    const before = await snapshot(requestId);
    expect(
      await reopenRequest(db, { requestId, adminId: admin, deadline: inHours(30) }),
    ).toMatchObject({ ok: false, code: "conflict" });
    expect(await snapshot(requestId)).toEqual(before);
  });
});

describe("assigning a batch of partners", () => {
  it("tells the buyer once per batch and each partner once", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const partners = [
      await makeUser("partner"),
      await makeUser("partner"),
      await makeUser("partner"),
    ];
    const requestId = await makeRequest(buyer);
    const result = await assignPartners(db, { requestId, partnerIds: partners, adminId: admin });
    expect(result.ok).toBe(true);
    expect((await notificationsOf(buyer)).map((n) => n.title)).toEqual([
      "Socio asignado a tu solicitud",
    ]);
    expect((await notificationsOf(buyer))[0]!.message).toContain("Asignamos 3 socios verificados");
    for (const partner of partners) {
      expect((await notificationsOf(partner)).map((n) => n.title)).toEqual([
        "Nueva solicitud de cotización asignada",
      ]);
    }
    expect((await historyOf(requestId)).map((h) => h.note)).toEqual(["3 socios asignados"]);
  });

  it("invites the rest of a batch when a partner is already in the round, and names them", async () => {
    const { admin, buyer, first, requestId } = await invitedRound();
    const fresh = await makeUser("partner");
    const stateOf = async (partnerId: number) =>
      (
        await db
          .selectFrom("partner_assignments")
          .select("state")
          .where("quote_request_id", "=", requestId)
          .where("partner_id", "=", partnerId)
          .executeTakeFirst()
      )?.state;
    const firstState = await stateOf(first);
    const firstNotifications = (await notificationsOf(first)).length;
    const buyerNotifications = (await notificationsOf(buyer)).length;
    // Another tab assigned `first` already: the batch still invites `fresh`.
    const result = await assignPartners(db, {
      requestId,
      partnerIds: [fresh, first],
      adminId: admin,
    });
    expect(result).toEqual({
      ok: true,
      value: { invited: 1, alreadyAssigned: [expect.any(String)] },
    });
    expect(await stateOf(first)).toBe(firstState);
    expect(await stateOf(fresh)).toBe("invited");
    expect((await notificationsOf(fresh)).map((n) => n.title)).toEqual([
      "Nueva solicitud de cotización asignada",
    ]);
    expect((await notificationsOf(first)).length).toBe(firstNotifications);
    expect((await notificationsOf(buyer)).length).toBe(buyerNotifications + 1);
  });

  it("refuses a batch whose partners are all in the round already, storing nothing", async () => {
    const { admin, buyer, first, requestId } = await invitedRound();
    const before = await snapshot(requestId);
    const buyerNotifications = (await notificationsOf(buyer)).length;
    expect(
      await assignPartners(db, { requestId, partnerIds: [first], adminId: admin }),
    ).toMatchObject({ ok: false, message: "Este partner ya está asignado a esta cotización" });
    expect(await snapshot(requestId)).toEqual(before);
    expect((await notificationsOf(buyer)).length).toBe(buyerNotifications);
  });
});
