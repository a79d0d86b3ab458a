import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import { dayOf, parseDeadlineInput, toDeadlineInput } from "~/domain/request-dates";
import type { Result } from "~/domain/result";
import { confirmPayment, submitPaymentProof } from "~/models/payment.server";
import {
  approvePartnerQuote,
  assignPartner,
  buyerRejectQuote,
  createQuoteRequest,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import {
  cancelRequest,
  editRequest,
  OFFER_EXISTS_MESSAGE,
  PAID_MESSAGE,
  PAYMENT_VOIDED_REASON,
} from "~/models/request-changes.server";
import { scheduleDeadlineReminders } from "~/models/deadline-reminder.server";
import { db } from "~/services/db.server";
import { env } from "~/services/env.server";
import { startSession } from "~/services/session.server";
import { getSettings, saveSettings } from "~/services/settings.server";
import { stageBytes, storedFileExists, storeUpload } from "~/services/storage.server";
import { makeUser, snapshot, approveAsBuyer } from "./factories";

// The scheduled-work change fills the reminders in; here only the call is observed.
vi.mock("~/models/deadline-reminder.server", () => ({
  scheduleDeadlineReminders: vi.fn(async () => {}),
}));

const DAY = 86_400_000;
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

function must<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`Paso refusado: ${result.message}`);
  return result.value;
}

/** A `datetime-local` value `days` from now, and the instant the server reads from it. */
function deadlineIn(days: number) {
  const input = toDeadlineInput(new Date(Date.now() + days * DAY));
  return { input, iso: parseDeadlineInput(input)! };
}

const dayIn = (days: number) => dayOf(new Date(Date.now() + days * DAY));

async function stagedPdf(name: string) {
  return { ...(await stageBytes(PDF, "pdf")), originalName: name, mime: "application/pdf" };
}

/** A request created as the new-request action creates it, with its file really stored. */
async function newRequest(
  buyerId: number,
  dates: { quoteDeadline?: string | null; neededBy?: string | null } = {},
) {
  return storeUpload(await stagedPdf("requisitos.pdf"), (file) =>
    createQuoteRequest(db, {
      buyerId,
      title: "Válvulas de compuerta",
      description: "120 unidades",
      file: file!,
      ...dates,
    }),
  );
}

async function requestRow(id: number) {
  return db
    .selectFrom("quote_requests")
    .select([
      "title",
      "description",
      "status",
      "quote_deadline",
      "needed_by",
      "file_key",
      "file_name",
      "cancellation_reason",
      "updated_at",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function requestCount() {
  const { n } = await db
    .selectFrom("quote_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function titlesFor(userId: number) {
  const rows = await db
    .selectFrom("notifications")
    .select("title")
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.title);
}

async function notificationCount() {
  const { n } = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function lastHistory(requestId: number) {
  return db
    .selectFrom("request_status_history")
    .select(["from_status", "to_status", "event", "note", "actor_id"])
    .where("quote_request_id", "=", requestId)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

async function setState(requestId: number, partnerId: number, state: AssignmentState) {
  await db
    .updateTable("partner_assignments")
    .set({ state })
    .where("quote_request_id", "=", requestId)
    .where("partner_id", "=", partnerId)
    .execute();
}

/** Every file under the uploads folder (staging included), to see that nothing is left behind. */
function uploadedFiles(): string[] {
  if (!fs.existsSync(env.uploadsDir)) return [];
  return (fs.readdirSync(env.uploadsDir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(env.uploadsDir, f)).isFile())
    .sort();
}

/** A request of a new buyer in `status`, reached through the lifecycle's own steps. */
async function requestIn(status: RequestStatus) {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer");
  const partner = await makeUser("partner");
  const { id: requestId } = must(await newRequest(buyer));
  const ctx = { admin, buyer, partner, requestId };
  if (status === "pending") return ctx;
  must(await assignPartner(db, { requestId, partnerId: partner, adminId: admin }));
  if (status === "cancelled") {
    must(await cancelRequest(db, { requestId, buyerId: buyer, reason: "Ya no lo necesitamos" }));
    return ctx;
  }
  if (status === "assigned") return ctx;
  must(
    await submitPartnerQuote(db, {
      requestId,
      partnerId: partner,
      amountCents: 250_000,
      notes: null,
      file: null,
    }),
  );
  const { id: partnerQuoteId } = await db
    .selectFrom("partner_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  must(await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin }));
  if (status === "quoted") return ctx;
  if (status === "rejected") {
    must(await buyerRejectQuote(db, { requestId, buyerId: buyer, reason: null }));
    return ctx;
  }
  must(await approveAsBuyer(requestId, buyer));
  if (status === "approved") return ctx;
  const { paymentId } = must(
    await submitPaymentProof(db, {
      requestId,
      buyerId: buyer,
      amountCents: 250_000,
      method: "transfer",
      proof: { key: `comprobante-${requestId}.pdf`, name: "c.pdf", type: "application/pdf" },
    }),
  );
  must(await confirmPayment(db, { paymentId, adminId: admin }));
  return ctx;
}

/** An edit that changes nothing but what `change` says. */
async function editOf(requestId: number, buyerId: number, change: Partial<EditFields> = {}) {
  const row = await requestRow(requestId);
  return {
    requestId,
    buyerId,
    title: row.title,
    description: row.description,
    quoteDeadline: row.quote_deadline,
    neededBy: row.needed_by,
    file: null,
    ...change,
  };
}
type EditFields = Parameters<typeof editRequest>[1];

beforeEach(() => {
  vi.mocked(scheduleDeadlineReminders).mockClear();
});

describe("the new request's deadline and needed-by date", () => {
  afterEach(async () => {
    await saveSettings(db, { ...(await getSettings(db)), quoteDays: 3 });
  });

  it("without a deadline, the request gets now + «días para cotizar» (the setting is followed)", async () => {
    const buyer = await makeUser("buyer");
    await saveSettings(db, { ...(await getSettings(db)), quoteDays: 5 });
    const before = Date.now();
    const { id } = must(await newRequest(buyer));
    const row = await requestRow(id);
    expect(row.quote_deadline).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const deadline = Date.parse(row.quote_deadline);
    expect(deadline).toBeGreaterThanOrEqual(before + 5 * DAY);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 5 * DAY);
    expect(row.needed_by).toBeNull();
  });

  it("stores a typed deadline as the UTC instant typed and the needed-by day as a date", async () => {
    const buyer = await makeUser("buyer");
    const deadline = deadlineIn(10);
    const neededBy = dayIn(20);
    const { id } = must(await newRequest(buyer, { quoteDeadline: deadline.iso, neededBy }));
    const row = await requestRow(id);
    expect(row.quote_deadline).toBe(`${deadline.input}:00.000Z`);
    expect(row.needed_by).toBe(neededBy);
  });

  it.each([
    [
      "a past deadline",
      { quoteDeadline: deadlineIn(-1).iso },
      "quote_deadline",
      /posterior a este momento/,
    ],
    [
      "a deadline past 90 days",
      { quoteDeadline: deadlineIn(91).iso },
      "quote_deadline",
      /no puede superar 90 días/,
    ],
    ["a needed-by day before today", { neededBy: dayIn(-1) }, "needed_by", /anterior a hoy/],
    [
      "a needed-by day before the deadline's day",
      { quoteDeadline: deadlineIn(10).iso, neededBy: dayIn(5) },
      "needed_by",
      /anterior al día del plazo/,
    ],
    // The default deadline (3 days) counts too: goods needed tomorrow cannot wait for offers.
    [
      "a needed-by day before the default deadline",
      { neededBy: dayIn(1) },
      "needed_by",
      /anterior al día del plazo/,
    ],
  ])("refuses %s next to the field and stores nothing", async (_, dates, field, message) => {
    const buyer = await makeUser("buyer");
    const before = { requests: await requestCount(), files: uploadedFiles() };
    const result = await newRequest(buyer, dates);
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    expect(!result.ok && result.fieldErrors?.[field]?.[0]).toMatch(message);
    expect(await requestCount()).toBe(before.requests);
    expect(uploadedFiles()).toEqual(before.files);
  });
});

describe("the buyer edits a request", () => {
  it("before any offer: stores the changes, writes one history line, tells the invited partners and reschedules the reminders", async () => {
    const { admin, buyer, partner, requestId } = await requestIn("assigned");
    const declined = await makeUser("partner");
    must(await assignPartner(db, { requestId, partnerId: declined, adminId: admin }));
    await setState(requestId, declined, "declined");
    const before = await requestRow(requestId);
    const deadline = deadlineIn(7);
    // Assigning scheduled reminders too; only the edit's own call is counted below.
    vi.mocked(scheduleDeadlineReminders).mockClear();

    const result = await editRequest(
      db,
      await editOf(requestId, buyer, {
        title: "Válvulas de compuerta de 6 pulgadas",
        quoteDeadline: deadline.iso,
        neededBy: dayIn(30),
      }),
    );

    // The invited partner is told; the one who declined is not.
    expect(result).toMatchObject({ ok: true, value: { replacedFileKey: null, partnersTold: 1 } });
    const row = await requestRow(requestId);
    expect(row).toMatchObject({
      title: "Válvulas de compuerta de 6 pulgadas",
      description: before.description,
      status: "assigned",
      quote_deadline: deadline.iso,
      needed_by: dayIn(30),
      file_key: before.file_key,
    });
    const line = await lastHistory(requestId);
    expect(line).toMatchObject({
      from_status: "assigned",
      to_status: "assigned",
      event: "edited",
      actor_id: buyer,
    });
    expect(line.note).toMatch(
      /^Editada por el comprador: título, plazo para cotizar \(ahora .+ UTC\) y fecha requerida \(ahora .+\)\.$/,
    );
    expect(await titlesFor(partner)).toContain("Solicitud actualizada por el comprador");
    expect(await titlesFor(declined)).not.toContain("Solicitud actualizada por el comprador");
    expect(scheduleDeadlineReminders).toHaveBeenCalledTimes(1);
    expect(vi.mocked(scheduleDeadlineReminders).mock.calls[0]![1]).toBe(requestId);

    // A change that leaves the deadline alone does not touch the reminders.
    must(await editRequest(db, await editOf(requestId, buyer, { description: "150 unidades" })));
    expect(scheduleDeadlineReminders).toHaveBeenCalledTimes(1);
    expect((await lastHistory(requestId)).note).toBe("Editada por el comprador: descripción.");
  });

  it("replaces the file: the request points to the new one and the old one is deleted after the commit", async () => {
    const { buyer, requestId } = await requestIn("pending");
    const old = await requestRow(requestId);
    expect(await storedFileExists(old.file_key)).toBe(true);

    const result = await storeUpload(
      await stagedPdf("requisitos-v2.pdf"),
      async (file) => editRequest(db, await editOf(requestId, buyer, { file })),
      { replaced: (saved) => saved.replacedFileKey },
    );

    expect(result).toMatchObject({ ok: true, value: { replacedFileKey: old.file_key } });
    const row = await requestRow(requestId);
    expect(row.file_name).toBe("requisitos-v2.pdf");
    expect(row.file_key).not.toBe(old.file_key);
    expect(await storedFileExists(row.file_key)).toBe(true);
    expect(await storedFileExists(old.file_key)).toBe(false);
    expect((await lastHistory(requestId)).note).toBe(
      "Editada por el comprador: archivo de requerimientos.",
    );
  });

  it("once a partner has offered: refused with a clear message, nothing stored, the old file kept and the new one removed", async () => {
    const { buyer, partner, requestId } = await requestIn("assigned");
    must(
      await submitPartnerQuote(db, {
        requestId,
        partnerId: partner,
        amountCents: 120_000,
        notes: null,
        file: null,
      }),
    );
    const before = {
      row: await requestRow(requestId),
      state: await snapshot(requestId),
      notifications: await notificationCount(),
    };
    vi.mocked(scheduleDeadlineReminders).mockClear();
    let newKey: string | undefined;

    const result = await storeUpload(
      await stagedPdf("requisitos-v2.pdf"),
      async (file) => {
        newKey = file!.key;
        return editRequest(
          db,
          await editOf(requestId, buyer, {
            title: "Otro título",
            quoteDeadline: deadlineIn(8).iso,
            file,
          }),
        );
      },
      { replaced: (saved) => saved.replacedFileKey },
    );

    expect(result).toEqual({ ok: false, code: "locked", message: OFFER_EXISTS_MESSAGE });
    expect(await requestRow(requestId)).toEqual(before.row);
    expect(await snapshot(requestId)).toEqual(before.state);
    expect(await notificationCount()).toBe(before.notifications);
    expect(await storedFileExists(before.row.file_key)).toBe(true);
    expect(await storedFileExists(newKey!)).toBe(false);
    expect(scheduleDeadlineReminders).not.toHaveBeenCalled();
  });

  it("an assignment marked as offered locks the request too", async () => {
    const { buyer, partner, requestId } = await requestIn("assigned");
    await setState(requestId, partner, "offered");
    expect(
      await editRequest(db, await editOf(requestId, buyer, { title: "Otro título" })),
    ).toMatchObject({ ok: false, code: "locked" });
  });

  it.each(["quoted", "approved", "paid", "rejected", "cancelled"] as const)(
    "is refused once the request is %s",
    async (status) => {
      const { buyer, requestId } = await requestIn(status);
      const before = { row: await requestRow(requestId), state: await snapshot(requestId) };
      const result = await editRequest(db, await editOf(requestId, buyer, { title: "Otro" }));
      expect(result).toMatchObject({ ok: false, code: "conflict" });
      expect(await requestRow(requestId)).toEqual(before.row);
      expect(await snapshot(requestId)).toEqual(before.state);
    },
  );

  it("another buyer's request is not found and stays as it was", async () => {
    const { buyer, requestId } = await requestIn("pending");
    const stranger = await makeUser("buyer");
    const before = { row: await requestRow(requestId), state: await snapshot(requestId) };
    const input = await editOf(requestId, buyer, { title: "Mío ahora" });
    expect(await editRequest(db, { ...input, buyerId: stranger })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    expect(await requestRow(requestId)).toEqual(before.row);
    expect(await snapshot(requestId)).toEqual(before.state);
  });

  it("checks the dates it changes: a new deadline in the future, the needed-by day not before it", async () => {
    const { buyer, requestId } = await requestIn("pending");
    const before = await requestRow(requestId);
    const past = await editRequest(
      db,
      await editOf(requestId, buyer, { quoteDeadline: deadlineIn(-2).iso }),
    );
    expect(past).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { quote_deadline: ["El plazo para cotizar debe ser posterior a este momento."] },
    });
    const tooFar = await editRequest(
      db,
      await editOf(requestId, buyer, { quoteDeadline: deadlineIn(120).iso }),
    );
    expect(tooFar).toMatchObject({
      ok: false,
      fieldErrors: { quote_deadline: [expect.any(String)] },
    });
    const early = await editRequest(
      db,
      await editOf(requestId, buyer, { quoteDeadline: deadlineIn(20).iso, neededBy: dayIn(10) }),
    );
    expect(early).toMatchObject({ ok: false, fieldErrors: { needed_by: [expect.any(String)] } });
    expect(await requestRow(requestId)).toEqual(before);

    // A deadline that has passed but is left as it is does not stop a change of title.
    const lapsed = new Date(Date.now() - DAY).toISOString();
    await db
      .updateTable("quote_requests")
      .set({ quote_deadline: lapsed })
      .where("id", "=", requestId)
      .execute();
    must(await editRequest(db, await editOf(requestId, buyer, { title: "Título corregido" })));
    expect(await requestRow(requestId)).toMatchObject({
      title: "Título corregido",
      quote_deadline: lapsed,
    });
  });

  it("an edit that changes nothing stores nothing", async () => {
    const { buyer, partner, requestId } = await requestIn("assigned");
    const before = {
      row: await requestRow(requestId),
      state: await snapshot(requestId),
      partner: await titlesFor(partner),
    };
    // The deadline as the form shows it (to the minute) is the same deadline.
    const input = await editOf(requestId, buyer);
    const shown = parseDeadlineInput(toDeadlineInput(input.quoteDeadline))!;
    expect(await editRequest(db, { ...input, quoteDeadline: shown })).toEqual({
      ok: true,
      value: { changes: [], replacedFileKey: null, partnersTold: 0 },
    });
    expect(await requestRow(requestId)).toEqual(before.row);
    expect(await snapshot(requestId)).toEqual(before.state);
    expect(await titlesFor(partner)).toEqual(before.partner);
  });
});

describe("the buyer cancels a request", () => {
  it.each(["pending", "assigned", "quoted", "approved"] as const)(
    "from %s: cancelled with the reason, in the history, pending payments voided, the operators and the partner told",
    async (status) => {
      const { admin, buyer, partner, requestId } = await requestIn(status);
      if (status === "quoted" || status === "approved")
        await setState(requestId, partner, "selected");
      const result = await cancelRequest(db, {
        requestId,
        buyerId: buyer,
        reason: "  El proyecto se pospuso  ",
      });
      expect(result.ok).toBe(true);
      expect(await requestRow(requestId)).toMatchObject({
        status: "cancelled",
        cancellation_reason: "El proyecto se pospuso",
      });
      expect(await lastHistory(requestId)).toMatchObject({
        from_status: status,
        to_status: "cancelled",
        actor_id: buyer,
        note: "Cancelada por el comprador. Motivo: El proyecto se pospuso",
      });
      const payments = await db
        .selectFrom("payments")
        .select(["status", "rejection_reason"])
        .where("quote_request_id", "=", requestId)
        .execute();
      expect(payments).toEqual(
        status === "approved"
          ? [{ status: "rejected", rejection_reason: PAYMENT_VOIDED_REASON }]
          : [],
      );
      // The buyer's confirmation names the partners only when one was told.
      expect(result).toEqual({
        ok: true,
        value: { voidedPayments: payments.length, partnersTold: status === "pending" ? 0 : 1 },
      });
      const told = await db
        .selectFrom("notifications")
        .select("message")
        .where("user_id", "=", admin)
        .where("title", "=", "Solicitud cancelada por el comprador")
        .executeTakeFirstOrThrow();
      expect(told.message).toContain("Motivo: «El proyecto se pospuso».");
      expect(await titlesFor(partner)).toEqual(
        status === "pending"
          ? []
          : expect.arrayContaining(["Solicitud cancelada por el comprador"]),
      );
    },
  );

  it("tells each partner still part of it (invited, offered, selected), not those who left or lost", async () => {
    const { admin, buyer, requestId } = await requestIn("pending");
    const partners = {} as Record<AssignmentState, number>;
    for (const state of [
      "invited",
      "offered",
      "selected",
      "declined",
      "withdrawn",
      "not_selected",
    ] as const) {
      partners[state] = await makeUser("partner");
      must(await assignPartner(db, { requestId, partnerId: partners[state], adminId: admin }));
      await setState(requestId, partners[state], state);
    }
    must(await cancelRequest(db, { requestId, buyerId: buyer, reason: "Compra cancelada" }));
    for (const [state, id] of Object.entries(partners)) {
      const told = (await titlesFor(id)).includes("Solicitud cancelada por el comprador");
      expect(told, state).toBe(["invited", "offered", "selected"].includes(state));
    }
    // Partners read that it was cancelled, not the buyer's own words.
    const message = await db
      .selectFrom("notifications")
      .select("message")
      .where("user_id", "=", partners.invited)
      .where("title", "=", "Solicitud cancelada por el comprador")
      .executeTakeFirstOrThrow();
    expect(message.message).not.toContain("Compra cancelada");
  });

  it.each(["paid", "cancelled", "rejected"] as const)(
    "is refused once the request is %s, and nothing is stored",
    async (status) => {
      const { buyer, requestId } = await requestIn(status);
      const before = {
        row: await requestRow(requestId),
        state: await snapshot(requestId),
        notifications: await notificationCount(),
      };
      const result = await cancelRequest(db, { requestId, buyerId: buyer, reason: "Otro motivo" });
      expect(result).toMatchObject({ ok: false, code: "conflict" });
      expect(await requestRow(requestId)).toEqual(before.row);
      expect(await snapshot(requestId)).toEqual(before.state);
      expect(await notificationCount()).toBe(before.notifications);
    },
  );

  it("is refused when a payment is confirmed even if an operator set the status back to approved", async () => {
    const { buyer, requestId } = await requestIn("paid");
    await db
      .updateTable("quote_requests")
      .set({ status: "approved" })
      .where("id", "=", requestId)
      .execute();
    const before = await snapshot(requestId);
    expect(await cancelRequest(db, { requestId, buyerId: buyer, reason: "Otro motivo" })).toEqual({
      ok: false,
      code: "conflict",
      message: PAID_MESSAGE,
    });
    expect(await snapshot(requestId)).toEqual(before);
  });

  it.each([
    ["empty", "   "],
    ["too short", "no"],
    ["too long", "x".repeat(1001)],
  ])("refuses a reason that is %s, next to the field", async (_, reason) => {
    const { buyer, requestId } = await requestIn("assigned");
    const before = { row: await requestRow(requestId), state: await snapshot(requestId) };
    const result = await cancelRequest(db, { requestId, buyerId: buyer, reason });
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { reason: [expect.any(String)] },
    });
    expect(await requestRow(requestId)).toEqual(before.row);
    expect(await snapshot(requestId)).toEqual(before.state);
  });

  it("another buyer's request is not found and stays as it was", async () => {
    const { requestId } = await requestIn("approved");
    const stranger = await makeUser("buyer");
    const before = {
      row: await requestRow(requestId),
      state: await snapshot(requestId),
      notifications: await notificationCount(),
    };
    expect(
      await cancelRequest(db, { requestId, buyerId: stranger, reason: "No es mía" }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(await requestRow(requestId)).toEqual(before.row);
    expect(await snapshot(requestId)).toEqual(before.state);
    expect(await notificationCount()).toBe(before.notifications);
  });
});

describe("the buyer's pages", () => {
  const BASE = "http://localhost:3999";
  const args = (request: Request, id: number) => ({
    request,
    params: { id: String(id) },
    context: {},
  });

  async function signedIn(userId: number) {
    const setCookie = await startSession(db, new Request(BASE), userId);
    return setCookie.split(";")[0]!;
  }
  const get = (path: string, cookie: string) =>
    new Request(BASE + path, { headers: { Cookie: cookie } });
  const post = (path: string, cookie: string, body: FormData | URLSearchParams) =>
    new Request(BASE + path, { method: "POST", headers: { Cookie: cookie }, body });

  /** What a loader or an action answered: a Response (redirect, 404) or its data and status. */
  async function answer(run: () => Promise<unknown>) {
    try {
      const value = await run();
      if (value instanceof Response) return value;
      const wrapped = value as { data?: unknown; init?: { status?: number } };
      if (wrapped && typeof wrapped === "object" && "init" in wrapped)
        return { status: wrapped.init?.status ?? 200, data: wrapped.data };
      return { status: 200, data: value };
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }
  type Reply = { status: number; data: { result: { error?: Record<string, string[]> } } };

  it("the new-request form starts at the default deadline and answers a bad date next to its field, storing nothing", async () => {
    const page = await import("~/routes/buyer.quotes.new");
    const buyer = await makeUser("buyer");
    const cookie = await signedIn(buyer);
    const view = (await answer(() =>
      page.loader({ request: get("/buyer/quotes/new", cookie), params: {}, context: {} }),
    )) as { data: Awaited<ReturnType<typeof page.loader>> };
    const shown = Date.parse(`${view.data.deadline}:00Z`);
    expect(Math.abs(shown - (Date.now() + 3 * DAY))).toBeLessThan(2 * 60_000);

    const before = { requests: await requestCount(), files: uploadedFiles() };
    for (const [deadline, neededBy, field, message] of [
      ["2020-01-01T10:00", "", "quote_deadline", /posterior a este momento/],
      ["mañana", "", "quote_deadline", /fecha y hora válidas/],
      ["", "2026-02-30", "needed_by", /fecha válida/],
    ] as const) {
      const form = new FormData();
      form.set("title", "Válvulas");
      form.set("quote_deadline", deadline);
      form.set("needed_by", neededBy);
      form.set("file", new Blob([PDF], { type: "application/pdf" }), "requisitos.pdf");
      const reply = (await answer(() =>
        page.action({ request: post("/buyer/quotes/new", cookie, form), params: {}, context: {} }),
      )) as Reply;
      expect(reply.status).toBe(400);
      expect(reply.data.result.error?.[field]?.[0]).toMatch(message);
    }
    expect(await requestCount()).toBe(before.requests);
    expect(uploadedFiles()).toEqual(before.files);
  });

  it("edit page and action: the form is offered before any offer, the file replaced, then «Editar» goes away", async () => {
    const edit = await import("~/routes/buyer.quotes.$id_.edit");
    const detail = await import("~/routes/buyer.quotes.$id");
    const { buyer, partner, requestId } = await requestIn("assigned");
    const cookie = await signedIn(buyer);
    const path = `/buyer/quotes/${requestId}/edit`;

    const view = (await answer(() => edit.loader(args(get(path, cookie), requestId)))) as {
      data: Awaited<ReturnType<typeof edit.loader>>;
    };
    expect(view.data.refusal).toBeNull();
    const shownBefore = (await answer(() =>
      detail.loader(args(get(`/buyer/quotes/${requestId}`, cookie), requestId)),
    )) as { data: Awaited<ReturnType<typeof detail.loader>> };
    expect(shownBefore.data).toMatchObject({ editable: true, cancellable: true });
    expect(shownBefore.data.dates.timeLeft).toMatch(/^Quedan? /);

    const form = new FormData();
    for (const [name, value] of Object.entries(view.data.request.values)) form.set(name, value);
    form.set("title", "Válvulas de 6 pulgadas");
    form.set("file", new Blob([PDF], { type: "application/pdf" }), "requisitos-v2.pdf");
    const done = (await answer(() =>
      edit.action(args(post(path, cookie, form), requestId)),
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/buyer/quotes/${requestId}`);
    expect(await requestRow(requestId)).toMatchObject({
      title: "Válvulas de 6 pulgadas",
      file_name: "requisitos-v2.pdf",
    });

    must(
      await submitPartnerQuote(db, {
        requestId,
        partnerId: partner,
        amountCents: 120_000,
        notes: null,
        file: null,
      }),
    );
    const locked = (await answer(() =>
      edit.loader(args(get(path, cookie), requestId)),
    )) as typeof view;
    expect(locked.data.refusal).toBe(OFFER_EXISTS_MESSAGE);
    const shownAfter = (await answer(() =>
      detail.loader(args(get(`/buyer/quotes/${requestId}`, cookie), requestId)),
    )) as typeof shownBefore;
    expect(shownAfter.data).toMatchObject({ editable: false, offersLockEdit: true });
    const refused = (await answer(() =>
      edit.action(args(post(path, cookie, form), requestId)),
    )) as Reply;
    expect(refused.status).toBe(423);
    expect(refused.data.result.error?.[""]).toEqual([OFFER_EXISTS_MESSAGE]);
  });

  it("cancel page and action: a reason is required; then the detail shows it cancelled with the reason; another buyer gets not found", async () => {
    const cancel = await import("~/routes/buyer.quotes.$id_.cancel");
    const detail = await import("~/routes/buyer.quotes.$id");
    const { buyer, requestId } = await requestIn("assigned");
    const cookie = await signedIn(buyer);
    const path = `/buyer/quotes/${requestId}/cancel`;

    const stranger = await signedIn(await makeUser("buyer"));
    const hidden = (await answer(() =>
      cancel.loader(args(get(path, stranger), requestId)),
    )) as Response;
    expect(hidden.status).toBe(404);
    const stolen = (await answer(() =>
      cancel.action(
        args(post(path, stranger, new URLSearchParams({ reason: "No es mía" })), requestId),
      ),
    )) as Response;
    expect(stolen.status).toBe(404);
    expect((await requestRow(requestId)).status).toBe("assigned");

    const view = (await answer(() => cancel.loader(args(get(path, cookie), requestId)))) as {
      data: Awaited<ReturnType<typeof cancel.loader>>;
    };
    expect(view.data.refusal).toBeNull();
    const missing = (await answer(() =>
      cancel.action(args(post(path, cookie, new URLSearchParams({ reason: "" })), requestId)),
    )) as Reply;
    expect(missing.status).toBe(400);
    expect(missing.data.result.error?.reason?.[0]).toMatch(/motivo de la cancelación/);
    expect((await requestRow(requestId)).status).toBe("assigned");

    const done = (await answer(() =>
      cancel.action(
        args(
          post(path, cookie, new URLSearchParams({ reason: "El proyecto se pospuso" })),
          requestId,
        ),
      ),
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/buyer/quotes/${requestId}`);
    expect(done.headers.get("Set-Cookie")).toBeTruthy();

    const shown = (await answer(() =>
      detail.loader(args(get(`/buyer/quotes/${requestId}`, cookie), requestId)),
    )) as { data: Awaited<ReturnType<typeof detail.loader>> };
    expect(shown.data.request.status).toBe("cancelled");
    expect(shown.data.cancellation).toMatchObject({ reason: "El proyecto se pospuso" });
    expect(shown.data.cancellation?.at).toBeTruthy();
    expect(shown.data).toMatchObject({ editable: false, cancellable: false });
    expect(shown.data.dates.timeLeft).toBeNull();
    const again = (await answer(() =>
      cancel.loader(args(get(path, cookie), requestId)),
    )) as typeof view;
    expect(again.data.refusal).toMatch(/ya no se puede cancelar/);
  });
});
