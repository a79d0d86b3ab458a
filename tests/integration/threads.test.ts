import { afterEach, describe, expect, it, vi } from "vitest";
import { TEAM_NAME, THREAD_WINDOW } from "~/domain/thread";
import { getRequestForBuyer } from "~/models/quote-request.server";
import { assignPartner, submitPartnerQuote } from "~/models/quote-lifecycle.server";
import { JOB_HANDLERS } from "~/models/scheduled-jobs.server";
import { withdrawAssignment } from "~/models/sourcing-round.server";
import {
  forwardToBuyer,
  loadRequestThreads,
  messageFileFor,
  postMessage,
  relayToPartners,
  unreadCountsFor,
} from "~/models/thread.server";
import { db } from "~/services/db.server";
import { runDueJobs } from "~/services/jobs.server";
import { makeRequest, makeUser } from "./factories";

const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** Time is driven by a fake clock (Date only), never by waiting. */
function clockAt(at: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(at));
}

/** A request with its buyer, two operators and two partners in the round (one of them offered). */
async function round() {
  const admin = await makeUser("admin");
  const otherAdmin = await makeUser("admin");
  const buyer = await makeUser("buyer", { companyName: "Compradora Secreta SA" });
  const first = await makeUser("partner", { companyName: "Aceros del Norte" });
  const second = await makeUser("partner", { companyName: "Válvulas del Sur" });
  const requestId = await makeRequest(buyer, "pending", "Válvulas de compuerta");
  for (const partnerId of [first, second]) {
    expect((await assignPartner(db, { requestId, partnerId, adminId: admin })).ok).toBe(true);
  }
  const offered = await submitPartnerQuote(db, {
    requestId,
    partnerId: second,
    amountCents: 100_000,
    notes: null,
    file: null,
  });
  expect(offered.ok).toBe(true);
  return { admin, otherAdmin, buyer, first, second, requestId };
}

const as = (id: number, role: "admin" | "buyer" | "partner") => ({ id, role });

async function messagesOf(requestId: number) {
  return db
    .selectFrom("thread_messages as m")
    .innerJoin("threads as t", "t.id", "m.thread_id")
    .leftJoin("partner_assignments as pa", "pa.id", "t.assignment_id")
    .select(["m.id", "m.body", "m.kind", "m.author_id", "m.author_role", "t.kind as thread"])
    .select(["pa.partner_id", "m.file_key", "m.relayed_from_message_id"])
    .where("t.quote_request_id", "=", requestId)
    .orderBy("m.id")
    .execute();
}

/**
 * Every job due now, as the poller runs them over its ticks (50 a tick): the earlier tests' rounds
 * leave due digests for their operators, so one tick may not reach this test's.
 */
async function runAllDueJobs() {
  while ((await runDueJobs(db, JOB_HANDLERS)) > 0);
}

async function mailTo(userId: number) {
  const { email } = await db
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return (
    db
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", email)
      // Only the conversation's digests, not the round's other notices.
      .where("subject", "like", "%mensaje%")
      .orderBy("id")
      .execute()
  );
}

const attachment = {
  key: "2026/12/plano-de-prueba.pdf",
  name: "plano.pdf",
  type: "application/pdf",
  size: 1234,
};

describe("posting", () => {
  it("stores a partner's question with its attachment, tells the operators in the app and logs it for them", async () => {
    const { admin, buyer, first, requestId } = await round();
    const posted = await postMessage(db, {
      viewer: as(first, "partner"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body: "¿El plano es la revisión B?\nLínea dos.",
      file: attachment,
    });
    expect(posted.ok).toBe(true);

    const [message] = await messagesOf(requestId);
    expect(message).toMatchObject({
      body: "¿El plano es la revisión B?\nLínea dos.",
      author_id: first,
      author_role: "partner",
      thread: "partner",
      partner_id: first,
      file_key: attachment.key,
    });
    const notices = await db
      .selectFrom("notifications")
      .select(["title", "link"])
      .where("user_id", "=", admin)
      .where("title", "like", "Nuevo mensaje%")
      .execute();
    expect(notices).toEqual([
      { title: "Nuevo mensaje sobre «Válvulas de compuerta»", link: `/admin/quotes/${requestId}` },
    ]);
    // In the app at once; e-mail only through the digest job.
    expect(await mailTo(admin)).toEqual([]);

    const history = await db
      .selectFrom("request_status_history")
      .select(["event", "note"])
      .where("quote_request_id", "=", requestId)
      .where("event", "=", "message")
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]!.note).toContain("¿El plano es la revisión B?");
    expect(history[0]!.note).toContain("plano.pdf");
    // The buyer's timeline leaves the conversations' log out.
    const forBuyer = await getRequestForBuyer(db, { id: requestId, buyerId: buyer });
    expect(forBuyer!.history.some((h) => h.event === "message")).toBe(false);
  });

  it("refuses anyone outside the thread with not-found and stores nothing", async () => {
    const { first, second, requestId, admin } = await round();
    const otherBuyer = await makeUser("buyer");
    const outsider = await makeUser("partner");
    expect((await withdrawAssignment(db, { requestId, partnerId: first, adminId: admin })).ok).toBe(
      true,
    );
    const attempts = [
      { viewer: as(otherBuyer, "buyer"), ref: { kind: "buyer" as const } },
      { viewer: as(outsider, "partner"), ref: { kind: "partner" as const, partnerId: outsider } },
      { viewer: as(outsider, "partner"), ref: { kind: "partner" as const, partnerId: second } },
      { viewer: as(second, "partner"), ref: { kind: "buyer" as const } },
      { viewer: as(first, "partner"), ref: { kind: "partner" as const, partnerId: first } },
    ];
    for (const { viewer, ref } of attempts) {
      const result = await postMessage(db, { viewer, requestId, ref, body: "Hola", file: null });
      expect(result).toMatchObject({ ok: false, code: "not_found" });
      expect(await loadRequestThreads(db, viewer, requestId, { only: ref })).toBeUndefined();
    }
    expect(await messagesOf(requestId)).toEqual([]);
    // An operator cannot write to the withdrawn partner either.
    const closed = await postMessage(db, {
      viewer: as(admin, "admin"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body: "¿Sigues ahí?",
      file: null,
    });
    expect(closed).toMatchObject({ ok: false, code: "conflict" });
    expect(await messagesOf(requestId)).toEqual([]);
  });

  it("keeps one message when the same text is sent twice at once (a double submit)", async () => {
    const { buyer, requestId } = await round();
    const send = (file: typeof attachment | null) =>
      postMessage(db, {
        viewer: as(buyer, "buyer"),
        requestId,
        ref: { kind: "buyer" },
        body: "Necesitamos 40 unidades",
        file,
      });
    const first = await send(null);
    expect(await send(null)).toEqual(first);
    expect(await send(attachment)).toMatchObject({ ok: false, code: "conflict" });
    expect(await messagesOf(requestId)).toHaveLength(1);
  });

  it("closes every thread of a cancelled request", async () => {
    const { buyer, requestId } = await round();
    await db
      .updateTable("quote_requests")
      .set({ status: "cancelled" })
      .where("id", "=", requestId)
      .execute();
    const result = await postMessage(db, {
      viewer: as(buyer, "buyer"),
      requestId,
      ref: { kind: "buyer" },
      body: "Una cosa más",
      file: null,
    });
    expect(result).toMatchObject({ ok: false, code: "conflict" });
    const [thread] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    expect(thread!.closedReason).toMatch(/cancelada/);
  });
});

describe("relays and forwards", () => {
  it("publishes an operator's answer to every partner still in the round, as the team", async () => {
    const { admin, buyer, first, second, requestId } = await round();
    const third = await makeUser("partner");
    await assignPartner(db, { requestId, partnerId: third, adminId: admin });
    await withdrawAssignment(db, { requestId, partnerId: third, adminId: admin });
    await postMessage(db, {
      viewer: as(buyer, "buyer"),
      requestId,
      ref: { kind: "buyer" },
      body: "Soy Beatriz de Compradora Secreta SA: ¿pueden entregar en Monterrey?",
      file: null,
    });
    const [question] = await messagesOf(requestId);

    const relayed = await relayToPartners(db, {
      adminId: admin,
      requestId,
      body: "La entrega es en Monterrey.",
      sourceId: question!.id,
    });
    expect(relayed).toEqual({ ok: true, value: { partners: 2 } });

    const relays = (await messagesOf(requestId)).filter((m) => m.kind === "relay");
    expect(relays.map((m) => m.partner_id).sort()).toEqual([first, second].sort());
    for (const relay of relays) {
      expect(relay).toMatchObject({
        body: "La entrega es en Monterrey.",
        author_role: "admin",
        relayed_from_message_id: question!.id,
      });
    }
    for (const partner of [first, second]) {
      const threads = (await loadRequestThreads(db, as(partner, "partner"), requestId))!;
      expect(threads).toHaveLength(1);
      const shown = JSON.stringify(threads);
      expect(shown).not.toContain("Beatriz");
      expect(shown).not.toContain("Compradora Secreta");
      expect(threads[0]!.messages[0]).toMatchObject({
        author: TEAM_NAME,
        kindLabel: "Respuesta del equipo para todos los socios",
      });
    }
    const history = await db
      .selectFrom("request_status_history")
      .select("note")
      .where("quote_request_id", "=", requestId)
      .where("event", "=", "relay")
      .execute();
    expect(history).toHaveLength(1);
  });

  it("forwards a partner's question to the buyer without the partner's name", async () => {
    const { admin, buyer, first, requestId } = await round();
    await postMessage(db, {
      viewer: as(first, "partner"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body: "¿Aceptan acero inoxidable 304?",
      file: attachment,
    });
    const [question] = await messagesOf(requestId);
    const forwarded = await forwardToBuyer(db, {
      adminId: admin,
      requestId,
      body: question!.body,
      sourceId: question!.id,
    });
    expect(forwarded.ok).toBe(true);

    const threads = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    expect(threads.map((t) => t.kind)).toEqual(["buyer"]);
    const [message] = threads[0]!.messages;
    expect(message).toMatchObject({
      author: TEAM_NAME,
      kindLabel: "Pregunta de un socio",
      body: "¿Aceptan acero inoxidable 304?",
      file: null,
    });
    const shown = JSON.stringify(threads);
    expect(shown).not.toContain("Aceros del Norte");
    expect(shown).not.toContain("Pedro");

    // Only a partner's message can be forwarded; a buyer's or another request's is not found.
    await postMessage(db, {
      viewer: as(buyer, "buyer"),
      requestId,
      ref: { kind: "buyer" },
      body: "Sí",
      file: null,
    });
    const buyerMessage = (await messagesOf(requestId)).find((m) => m.author_role === "buyer")!;
    expect(
      await forwardToBuyer(db, { adminId: admin, requestId, body: "x", sourceId: buyerMessage.id }),
    ).toMatchObject({ ok: false, code: "not_found" });
    const elsewhere = await makeRequest(buyer);
    expect(
      await forwardToBuyer(db, {
        adminId: admin,
        requestId: elsewhere,
        body: "x",
        sourceId: question!.id,
      }),
    ).toMatchObject({ ok: false, code: "not_found" });
  });
});

describe("forwarding a partner's message that carries contact details", () => {
  it("gives the operator the message with them marked and a copy with them hidden; nobody else gets either", async () => {
    const { admin, buyer, first, requestId } = await round();
    const { last_name: lastName } = await db
      .selectFrom("users")
      .select("last_name")
      .where("id", "=", first)
      .executeTakeFirstOrThrow();
    const body =
      `¿Aceptan acero 304? Soy Pedro ${lastName}, de Aceros del Norte.\n` +
      "Escríbanme a pedro@acerosnorte.mx, al +52 81 1234 5678 o vean acerosnorte.com.mx.";
    await postMessage(db, {
      viewer: as(first, "partner"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body,
      file: null,
    });
    const [question] = await messagesOf(requestId);

    const ref = { kind: "partner" as const, partnerId: first };
    const [thread] = (await loadRequestThreads(db, as(admin, "admin"), requestId, { only: ref }))!;
    const shown = thread!.messages.find((m) => m.id === question!.id)!;
    expect(shown.body).toBe(body);
    expect(shown.forward).not.toBeNull();
    const { copy, hidden, parts } = shown.forward!;
    expect(copy).toBe(
      "¿Aceptan acero 304? Soy [dato de contacto oculto], de [dato de contacto oculto].\n" +
        "Escríbanme a [dato de contacto oculto], al [dato de contacto oculto] o vean [dato de contacto oculto].",
    );
    expect(hidden).toBe(5);
    for (const secret of ["Pedro", lastName, "Aceros del Norte", "acerosnorte", "1234"]) {
      expect(copy).not.toContain(secret);
    }
    expect(parts.map((p) => p.text).join("")).toBe(body);

    // The partner sees their own message as written, the buyer does not see the thread at all.
    const [own] = (await loadRequestThreads(db, as(first, "partner"), requestId))!;
    expect(own!.messages.map((m) => m.forward)).toEqual([null]);
    const buyerThreads = (await loadRequestThreads(db, as(buyer, "buyer"), requestId)) ?? [];
    expect(JSON.stringify(buyerThreads)).not.toContain("acerosnorte");

    // Forwarded as pre-filled, the buyer reads none of it.
    expect(
      (await forwardToBuyer(db, { adminId: admin, requestId, body: copy, sourceId: question!.id }))
        .ok,
    ).toBe(true);
    const [buyerThread] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    expect(buyerThread!.messages.map((m) => m.body)).toEqual([copy]);
  });
});

describe("reading", () => {
  it("counts unread messages per request for the lists and clears them once shown", async () => {
    const { admin, otherAdmin, buyer, first, requestId } = await round();
    const quiet = await makeRequest(buyer);
    await postMessage(db, {
      viewer: as(admin, "admin"),
      requestId,
      ref: { kind: "buyer" },
      body: "¿Qué cantidad exacta necesitas?",
      file: null,
    });
    await postMessage(db, {
      viewer: as(first, "partner"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body: "Pregunta",
      file: null,
    });
    expect(await unreadCountsFor(db, as(buyer, "buyer"), [requestId, quiet])).toEqual({
      [requestId]: 1,
    });
    // The operator who wrote has read their own message; the partner's is new to both operators.
    expect(await unreadCountsFor(db, as(admin, "admin"), [requestId])).toEqual({ [requestId]: 1 });
    expect(await unreadCountsFor(db, as(otherAdmin, "admin"), [requestId])).toEqual({
      [requestId]: 1,
    });
    // Another buyer's list never counts this request.
    const stranger = await makeUser("buyer");
    expect(await unreadCountsFor(db, as(stranger, "buyer"), [requestId])).toEqual({});

    const bell = () =>
      db
        .selectFrom("notifications")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", buyer)
        .where("read_at", "is", null)
        .where("title", "like", "Nuevo mensaje sobre%")
        .executeTakeFirstOrThrow();
    expect(await bell()).toEqual({ n: 1 });
    const [shown] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    // Reading the conversation reads its notice in the bell too.
    expect(await bell()).toEqual({ n: 0 });
    expect(shown!.unread).toBe(1);
    expect(shown!.messages[0]!.unread).toBe(true);
    expect(await unreadCountsFor(db, as(buyer, "buyer"), [requestId])).toEqual({});
    const [again] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    expect(again!.messages[0]!.unread).toBe(false);

    await loadRequestThreads(db, as(otherAdmin, "admin"), requestId);
    expect(await unreadCountsFor(db, as(otherAdmin, "admin"), [requestId])).toEqual({});
    expect(await unreadCountsFor(db, as(admin, "admin"), [requestId])).toEqual({ [requestId]: 1 });
  });

  it("shows the latest 50 messages and pages older ones by id", async () => {
    const { buyer, requestId } = await round();
    for (let n = 1; n <= 120; n++) {
      await postMessage(db, {
        viewer: as(buyer, "buyer"),
        requestId,
        ref: { kind: "buyer" },
        body: `Mensaje ${n}`,
        file: null,
      });
    }
    const [latest] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId))!;
    expect(latest!.messages).toHaveLength(THREAD_WINDOW);
    expect(latest!.messages[0]!.body).toBe("Mensaje 71");
    expect(latest!.messages.at(-1)!.body).toBe("Mensaje 120");
    expect(latest!.olderThan).toBe(latest!.messages[0]!.id);

    const [older] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId, {
      only: { kind: "buyer" },
      before: latest!.olderThan,
    }))!;
    expect(older!.messages.map((m) => m.body)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Mensaje ${21 + i}`),
    );
    const [oldest] = (await loadRequestThreads(db, as(buyer, "buyer"), requestId, {
      only: { kind: "buyer" },
      before: older!.olderThan,
    }))!;
    expect(oldest!.messages).toHaveLength(20);
    expect(oldest!.olderThan).toBeNull();
  });

  it("serves an attachment only to the thread's participants", async () => {
    const { admin, buyer, first, second, requestId } = await round();
    await postMessage(db, {
      viewer: as(first, "partner"),
      requestId,
      ref: { kind: "partner", partnerId: first },
      body: "Adjunto el plano",
      file: attachment,
    });
    const [message] = await messagesOf(requestId);
    expect(await messageFileFor(db, as(first, "partner"), message!.id)).toMatchObject({
      key: attachment.key,
      name: "plano.pdf",
    });
    expect(await messageFileFor(db, as(admin, "admin"), message!.id)).toBeDefined();
    expect(await messageFileFor(db, as(buyer, "buyer"), message!.id)).toBeUndefined();
    expect(await messageFileFor(db, as(second, "partner"), message!.id)).toBeUndefined();
    await withdrawAssignment(db, { requestId, partnerId: first, adminId: admin });
    // Withdrawn before any offer: the partner no longer sees their thread, nor its files.
    expect(await messageFileFor(db, as(first, "partner"), message!.id)).toBeUndefined();
  });
});

describe("the e-mail digest", () => {
  // Now, so the round's deadline (days ahead) is still open on the fake clock.
  const T0 = Date.now();

  it("mails each recipient at most once per thread every 10 minutes, and loses nothing", async () => {
    clockAt(T0);
    const { admin, otherAdmin, first, requestId } = await round();
    const ask = (body: string) =>
      postMessage(db, {
        viewer: as(first, "partner"),
        requestId,
        ref: { kind: "partner", partnerId: first },
        body,
        file: null,
      });

    await ask("Primera pregunta");
    await runAllDueJobs();
    for (const operator of [admin, otherAdmin]) {
      const mails = await mailTo(operator);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Nuevo mensaje sobre «Válvulas de compuerta»");
      expect(mails[0]!.text_body).toContain("Primera pregunta");
    }

    vi.setSystemTime(new Date(T0 + 2 * MINUTE));
    await ask("Segunda pregunta");
    vi.setSystemTime(new Date(T0 + 4 * MINUTE));
    await ask("Tercera pregunta");
    vi.setSystemTime(new Date(T0 + 9 * MINUTE));
    await runAllDueJobs();
    expect(await mailTo(admin)).toHaveLength(1);

    vi.setSystemTime(new Date(T0 + 10 * MINUTE + 1000));
    await runAllDueJobs();
    for (const operator of [admin, otherAdmin]) {
      const mails = await mailTo(operator);
      expect(mails).toHaveLength(2);
      expect(mails[1]!.subject).toBe("2 mensajes nuevos sobre «Válvulas de compuerta»");
      expect(mails[1]!.text_body).toContain("Segunda pregunta");
      expect(mails[1]!.text_body).toContain("Tercera pregunta");
    }

    // Nothing more to say: no more mail, however long we wait.
    vi.setSystemTime(new Date(T0 + 60 * MINUTE));
    await runAllDueJobs();
    expect(await mailTo(admin)).toHaveLength(2);

    // Read in the app before the digest went: no e-mail for what was already read.
    await ask("Cuarta pregunta");
    await loadRequestThreads(db, as(admin, "admin"), requestId);
    await runAllDueJobs();
    expect(await mailTo(admin)).toHaveLength(2);
    expect(await mailTo(otherAdmin)).toHaveLength(3);
  });

  it("mails the buyer and each partner only about their own thread, and never a partner who left", async () => {
    clockAt(T0);
    const { admin, buyer, first, second, requestId } = await round();
    await postMessage(db, {
      viewer: as(buyer, "buyer"),
      requestId,
      ref: { kind: "buyer" },
      body: "¿Entregan en Monterrey?",
      file: null,
    });
    const [question] = await messagesOf(requestId);
    await relayToPartners(db, {
      adminId: admin,
      requestId,
      body: "Sí, la entrega es en Monterrey.",
      sourceId: question!.id,
    });
    // The first partner leaves before the digest runs.
    await withdrawAssignment(db, { requestId, partnerId: first, adminId: admin });
    await runAllDueJobs();

    expect(await mailTo(first)).toEqual([]);
    const toSecond = await mailTo(second);
    expect(toSecond).toHaveLength(1);
    expect(toSecond[0]!.text_body).toContain("Sí, la entrega es en Monterrey.");
    expect(toSecond[0]!.text_body).toContain(TEAM_NAME);
    expect(toSecond[0]!.text_body).not.toContain("Compradora Secreta");
    expect(await mailTo(buyer)).toEqual([]);
  });
});
