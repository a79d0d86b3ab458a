import { describe, expect, it } from "vitest";
import { formatMoney } from "~/domain/money";
import {
  addDays,
  formatQuantity,
  parseOffer,
  utcDay,
  type OfferDraft,
  type OfferTerms,
} from "~/domain/offer";
import {
  expiredMessage,
  listOfficialQuoteVersions,
  requestRenewal,
  reviseOfficialQuote,
  type OfficialTerms,
} from "~/models/official-quote.server";
import { confirmPayment, submitPaymentProof } from "~/models/payment.server";
import {
  approvePartnerQuote,
  assignPartner,
  buyerApproveQuote,
  buyerRejectQuote,
  recordBuyerApproval,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import { db } from "~/services/db.server";
import { startSession } from "~/services/session.server";
import { getSettings, saveSettings } from "~/services/settings.server";
import { fileLinks } from "~/services/signed-url.server";
import { formatDate } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pdfText } from "../pdf-text";
import { makeRequest, makeUser, snapshot, approveAsBuyer } from "./factories";

/**
 * Structured official quotes (DECISIONS §7): versions, expiry and renewal, the arithmetic from the
 * partner's offer to the confirmed payment, and the PDF of each version.
 */

const BASE = "http://localhost:3999";
const today = utcDay();
const yesterday = addDays(today, -1);

/** An offer as the partner's form would send it, read by the real parser. */
function offerOf(fields: Partial<OfferDraft>): OfferTerms {
  const parsed = parseOffer(
    {
      items: [],
      amount: "",
      tax_rate: "",
      lead_time_days: "",
      valid_until: "",
      payment_terms: "",
      ...fields,
    },
    { today, defaultTaxRate: 0 },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.offer;
}

/** Two lines at 16 % IVA, delivered in 15 days: subtotal 2,550.00, IVA 408.00, total 2,958.00. */
const STEEL_OFFER = {
  items: [
    { description: "Tubo de acero DN50 cédula 40", quantity: "12,5", unit: "m", unit_price: "180" },
    { description: "Codo 90° DN50", quantity: "4", unit: "pieza", unit_price: "75" },
  ],
  tax_rate: "16",
  lead_time_days: "15",
  payment_terms: "50 % anticipo, 50 % contra entrega",
};

/** The terms of a new version: one amount with tax, valid for 30 days. */
function revisedTerms(amount: string, taxRate = "16"): OfficialTerms {
  return {
    ...offerOf({ amount, tax_rate: taxRate, lead_time_days: "20" }),
    validUntil: addDays(today, 30),
  };
}

/** A request with an official quote (version 1) issued from a partner's offer. */
async function quoted(offer: OfferTerms = offerOf(STEEL_OFFER)) {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer");
  const partner = await makeUser("partner");
  const requestId = await makeRequest(buyer, "pending", "Tubería para planta");
  expect((await assignPartner(db, { requestId, partnerId: partner, adminId: admin })).ok).toBe(
    true,
  );
  const submitted = await submitPartnerQuote(db, {
    requestId,
    partnerId: partner,
    offer,
    notes: null,
    file: null,
  });
  expect(submitted).toMatchObject({ ok: true });
  const { id: partnerQuoteId } = await db
    .selectFrom("partner_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  const approved = await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin });
  if (!approved.ok) throw new Error(approved.message);
  return {
    admin,
    buyer,
    partner,
    requestId,
    partnerQuoteId,
    officialQuoteId: approved.value.officialQuoteId,
  };
}

const proofFile = (requestId: number) => ({
  key: `comprobante-${requestId}-${Math.random()}.png`,
  name: "comprobante.png",
  type: "image/png",
});

async function pay(requestId: number, buyerId: number, amountCents: number) {
  return submitPaymentProof(db, {
    requestId,
    buyerId,
    amountCents,
    method: "transfer",
    proof: proofFile(requestId),
  });
}

async function versions(requestId: number) {
  return listOfficialQuoteVersions(db, requestId);
}

async function setOfficialValidity(officialQuoteId: number, validUntil: string) {
  await db
    .updateTable("official_quotes")
    .set({ valid_until: validUntil })
    .where("id", "=", officialQuoteId)
    .execute();
}

async function notificationsOf(userId: number, requestId: number, title: string) {
  return db
    .selectFrom("notifications")
    .select(["title", "message"])
    .where("user_id", "=", userId)
    .where("related_id", "=", requestId)
    .where("title", "=", title)
    .execute();
}

/** Everything a refused step could have written, beyond the snapshot: versions and payments. */
async function state(requestId: number) {
  return {
    snapshot: await snapshot(requestId),
    versions: await versions(requestId),
    payments: await db
      .selectFrom("payments")
      .selectAll()
      .where("quote_request_id", "=", requestId)
      .orderBy("id")
      .execute(),
    notifications: await db
      .selectFrom("notifications")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("related_id", "=", requestId)
      .executeTakeFirstOrThrow(),
  };
}

// ---- Files, through the real loaders (session, signed link, access rule)

async function cookieOf(userId: number) {
  const setCookie = await startSession(db, new Request(BASE), userId);
  return setCookie.split(";")[0]!;
}

/** What a loader answered, a thrown Response included. */
async function answer(run: () => Promise<unknown>): Promise<Response> {
  try {
    return (await run()) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** GET a file path with a link signed for `userId`, as `userId`. */
async function download(pathname: string, userId: number): Promise<Response> {
  const route = pathname.startsWith("/files/official-quote-versions/")
    ? await import("~/routes/files.official-quote-versions.$id")
    : await import("~/routes/files.official-quotes.$id");
  const link = (await fileLinks(pathname, userId)).download;
  const request = new Request(new URL(link, BASE), {
    headers: { Cookie: await cookieOf(userId) },
  });
  const id = pathname.split("/").pop()!;
  return answer(() => route.loader({ request, params: { id }, context: {} }));
}

async function pdfLines(pathname: string, userId: number): Promise<string[]> {
  const response = await download(pathname, userId);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/pdf");
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).split("\n");
}

/** An amount as the PDF reads back (its no-break space as a space). */
const money = (cents: number) => formatMoney(cents, "USD").replace(/[\u00a0\u202f]/g, " ");

async function pdfKey(officialQuoteId: number) {
  return (
    await db
      .selectFrom("official_quotes")
      .select("pdf_key")
      .where("id", "=", officialQuoteId)
      .executeTakeFirstOrThrow()
  ).pdf_key;
}

describe("cotización oficial en PDF", () => {
  it("shows the version, dates, lines, subtotal, IVA, total, commission on the subtotal and the terms", async () => {
    const { buyer, requestId } = await quoted();
    const lines = await pdfLines(paths.files.officialQuote(requestId), buyer);
    const validUntil = addDays(today, 30);
    expect(lines).toEqual(
      expect.arrayContaining([
        `Cotización oficial N.º ${requestId} · versión 1`,
        `Emitida el ${formatDate(new Date())} · Válida hasta el ${formatDate(validUntil)}`,
        `N.º ${requestId} · Tubería para planta`,
        "Tubo de acero DN50 cédula 40",
        "12.5 m",
        money(18_000),
        money(225_000),
        "Codo 90° DN50",
        "4 pieza",
        money(7_500),
        money(30_000),
        "Subtotal",
        money(255_000),
        "IVA (16 %)",
        money(40_800),
        "Total",
        money(295_800),
        // 5 % of the subtotal, not of the total.
        "Comisión incluida, a cargo del socio (5 % del subtotal)",
        money(12_750),
        "Plazo de entrega: 15 días",
        "Condiciones de pago: 50 % anticipo, 50 % contra entrega",
      ]),
    );
    expect(lines.some((line) => line.startsWith("Motivo de la versión"))).toBe(false);
  });

  it("a quote without lines shows only its totals, and no lead time reads «No indicado»", async () => {
    const { admin, buyer, requestId } = await quoted(offerOf({ amount: "1000" }));
    const lines = await pdfLines(paths.files.officialQuote(requestId), admin);
    expect(lines).toEqual(
      expect.arrayContaining([
        "Subtotal",
        money(100_000),
        "IVA (0 %)",
        money(0),
        "Total",
        "Plazo de entrega: No indicado",
        "Condiciones de pago: No indicadas",
      ]),
    );
    expect(lines).not.toContain("Precio unitario");
    expect((await pdfLines(paths.files.officialQuote(requestId), buyer)).length).toBe(lines.length);
  });

  it("many lines flow onto further pages under a continuation header, every line shown once", async () => {
    const items = Array.from({ length: 45 }, (_, i) => ({
      description: `Renglón ${i + 1}: válvula de compuerta bridada clase 150 con actuador manual y certificado de pruebas`,
      quantity: "1",
      unit: "pieza",
      unit_price: String(1000 + i),
    }));
    const { buyer, requestId } = await quoted(offerOf({ items }));
    const lines = await pdfLines(paths.files.officialQuote(requestId), buyer);
    const pages = lines.filter((line) => /^Página \d+ de \d+$/.test(line));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1)).toBe(`Página ${pages.length} de ${pages.length}`);
    expect(
      lines.filter(
        (line) => line === `Cotización oficial N.º ${requestId} · versión 1 (continuación)`,
      ),
    ).toHaveLength(pages.length - 1);
    for (let i = 0; i < 45; i++) {
      expect(lines.filter((line) => line.startsWith(`Renglón ${i + 1}:`))).toHaveLength(1);
      expect(lines).toContain(money(100_000 + i * 100));
    }
    // The header row opens the table on each page it continues on (each page's text ends with its
    // footer; the sections after the table may take a page of their own).
    const pageTexts: string[][] = [[]];
    for (const line of lines) {
      pageTexts.at(-1)!.push(line);
      if (/^Página \d+ de \d+$/.test(line)) pageTexts.push([]);
    }
    const tablePages = pageTexts.filter((page) => page.some((l) => l.startsWith("Renglón ")));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const page of tablePages)
      expect(page.filter((l) => l === "Precio unitario")).toHaveLength(1);
    expect(lines.filter((line) => line === "Precio unitario")).toHaveLength(tablePages.length);
  });
});

describe("versiones de la cotización oficial", () => {
  it("a revision supersedes the current version, keeps the old one readable, moves the pending payment and tells the buyer", async () => {
    const { admin, buyer, requestId, officialQuoteId: first } = await quoted();
    expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
    // Version 1's PDF is kept before the revision.
    const firstLines = await pdfLines(paths.files.officialQuoteVersion(first), buyer);
    const firstKey = await pdfKey(first);
    expect(firstKey).not.toBeNull();

    const revised = await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Ajuste del precio del acero",
      terms: revisedTerms("3000"),
    });
    if (!revised.ok) throw new Error(revised.message);
    expect(revised.value.version).toBe(2);
    const second = revised.value.officialQuoteId;

    const [current, previous] = await versions(requestId);
    expect(current).toMatchObject({
      id: second,
      version: 2,
      superseded_at: null,
      subtotal_cents: 300_000,
      tax_cents: 48_000,
      final_amount_cents: 348_000,
      revision_reason: "Ajuste del precio del acero",
    });
    expect(previous).toMatchObject({ id: first, version: 1, final_amount_cents: 295_800 });
    expect(previous!.superseded_at).not.toBeNull();
    expect(previous!.lines).toHaveLength(2);

    const payments = await db
      .selectFrom("payments")
      .select(["official_quote_id", "amount_cents", "status"])
      .where("quote_request_id", "=", requestId)
      .execute();
    expect(payments).toEqual([
      { official_quote_id: second, amount_cents: 348_000, status: "pending" },
    ]);
    expect((await snapshot(requestId)).requests[0]).toMatchObject({
      status: "approved",
      total_amount_cents: 348_000,
    });

    const told = await notificationsOf(buyer, requestId, "Nueva versión de tu cotización oficial");
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain("versión 2");
    expect(told[0]!.message).toContain("Motivo: Ajuste del precio del acero");

    // The current PDF is version 2's, with its reason; version 1 keeps its own kept PDF.
    const currentLines = await pdfLines(paths.files.officialQuote(requestId), buyer);
    expect(currentLines).toEqual(
      expect.arrayContaining([
        `Cotización oficial N.º ${requestId} · versión 2`,
        money(348_000),
        "Plazo de entrega: 20 días",
        "Motivo de la versión 2: Ajuste del precio del acero",
      ]),
    );
    expect(await pdfKey(second)).not.toBe(firstKey);
    expect(await pdfLines(paths.files.officialQuoteVersion(first), buyer)).toEqual(firstLines);
    expect(firstLines).toEqual(
      expect.arrayContaining([`Cotización oficial N.º ${requestId} · versión 1`, money(295_800)]),
    );
    expect(await pdfKey(first)).toBe(firstKey);

    // Only the new total is payable.
    expect(await pay(requestId, buyer, 295_800)).toMatchObject({ ok: false, code: "invalid" });
    expect(await pay(requestId, buyer, 348_000)).toMatchObject({ ok: true });
  });

  it("a client that sends no version (DECISIONS §4 lists none) approves the current one", async () => {
    const { buyer, requestId } = await quoted();
    expect(await buyerApproveQuote(db, { requestId, buyerId: buyer })).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it("a new version is valid for at most 30 days, as the first one", async () => {
    const { admin, requestId } = await quoted();
    const before = await state(requestId);
    const tooLong = await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Más plazo",
      terms: { ...revisedTerms("3000"), validUntil: addDays(today, 31) },
    });
    expect(tooLong).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: {
        valid_until: [expect.stringMatching(/^Una versión vale como máximo 30 días/)],
      },
    });
    expect(await state(requestId)).toEqual(before);
    expect(
      (
        await reviseOfficialQuote(db, {
          requestId,
          adminId: admin,
          reason: "Más plazo",
          terms: { ...revisedTerms("3000"), validUntil: addDays(today, 30) },
        })
      ).ok,
    ).toBe(true);
  });

  it("a buyer's approval of the version they read is refused once a newer one exists", async () => {
    const { admin, buyer, requestId } = await quoted();
    expect(
      (
        await reviseOfficialQuote(db, {
          requestId,
          adminId: admin,
          reason: "Ajuste del proveedor",
          terms: revisedTerms("3000"),
        })
      ).ok,
    ).toBe(true);
    const before = await state(requestId);
    // The page the buyer opened before the revision still says version 1.
    const stale = await buyerApproveQuote(db, { requestId, buyerId: buyer, version: 1 });
    expect(stale).toMatchObject({ ok: false, code: "conflict" });
    expect(!stale.ok && stale.message).toMatch(
      /^La cotización oficial cambió mientras la revisabas: ahora es la versión 2, por USD\s3,480\.00\. Revísala/,
    );
    expect(await state(requestId)).toEqual(before);
    expect((await buyerApproveQuote(db, { requestId, buyerId: buyer, version: 2 })).ok).toBe(true);
    // The operators' notice names the buyer's company, not «El comprador».
    const { company_name } = await db
      .selectFrom("users")
      .select("company_name")
      .where("id", "=", buyer)
      .executeTakeFirstOrThrow();
    const notice = await db
      .selectFrom("notifications as n")
      .innerJoin("users as u", "u.id", "n.user_id")
      .select("n.message")
      .where("u.role", "=", "admin")
      .where("n.title", "=", "Cotización aprobada por el comprador")
      .orderBy("n.id", "desc")
      .executeTakeFirstOrThrow();
    expect(notice.message.startsWith(`${company_name} aprobó la cotización oficial de «`)).toBe(
      true,
    );
  });

  it("is refused while a payment proof waits for review", async () => {
    const { admin, buyer, requestId } = await quoted();
    expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
    expect((await pay(requestId, buyer, 295_800)).ok).toBe(true);
    const before = await state(requestId);
    const refused = await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Otro precio",
      terms: revisedTerms("3000"),
    });
    expect(refused).toEqual({
      ok: false,
      code: "locked",
      message:
        "Hay un comprobante de pago en revisión: confírmalo o recházalo antes de emitir una nueva versión.",
    });
    expect(await state(requestId)).toEqual(before);
  });

  it("is refused once paid", async () => {
    const { admin, buyer, requestId } = await quoted();
    expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
    const proof = await pay(requestId, buyer, 295_800);
    if (!proof.ok) throw new Error(proof.message);
    expect(
      (await confirmPayment(db, { paymentId: proof.value.paymentId, adminId: admin })).ok,
    ).toBe(true);
    const before = await state(requestId);
    const refused = await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Otro precio",
      terms: revisedTerms("3000"),
    });
    expect(refused).toMatchObject({
      ok: false,
      message: "Esta acción no está disponible: la solicitud está en estado «Pagado».",
    });
    expect(await state(requestId)).toEqual(before);
  });

  it("is refused in a status other than quoted or approved", async () => {
    // Rejected by the buyer.
    const { admin, buyer, requestId } = await quoted();
    expect((await buyerRejectQuote(db, { requestId, buyerId: buyer, reason: null })).ok).toBe(true);
    const before = await state(requestId);
    const revise = () =>
      reviseOfficialQuote(db, {
        requestId,
        adminId: admin,
        reason: "Otro precio",
        terms: revisedTerms("3000"),
      });
    expect(await revise()).toMatchObject({
      ok: false,
      message: "Esta acción no está disponible: la solicitud está en estado «Rechazado».",
    });
    expect(await state(requestId)).toEqual(before);

    // Still assigned: no official quote yet.
    const pendingRequest = await makeRequest(buyer);
    const partner = await makeUser("partner");
    expect(
      (await assignPartner(db, { requestId: pendingRequest, partnerId: partner, adminId: admin }))
        .ok,
    ).toBe(true);
    const beforeAssigned = await state(pendingRequest);
    expect(
      await reviseOfficialQuote(db, {
        requestId: pendingRequest,
        adminId: admin,
        reason: "Otro precio",
        terms: revisedTerms("3000"),
      }),
    ).toMatchObject({
      ok: false,
      message: "Esta acción no está disponible: la solicitud está en estado «Asignado».",
    });
    expect(await state(pendingRequest)).toEqual(beforeAssigned);
  });
});

describe("vigencia y renovación", () => {
  it("an expired official quote cannot be approved, sent or paid, and nothing is stored", async () => {
    const { admin, buyer, requestId, officialQuoteId } = await quoted();
    await setOfficialValidity(officialQuoteId, yesterday);
    const expired = { ok: false, code: "locked", message: expiredMessage(yesterday) };
    expect(expiredMessage(yesterday)).toContain(`venció el ${formatDate(yesterday)}`);

    const before = await state(requestId);
    expect(await approveAsBuyer(requestId, buyer)).toEqual(expired);
    expect(
      await recordBuyerApproval(db, { requestId, adminId: admin, note: "Por teléfono" }),
    ).toEqual(expired);
    expect(await state(requestId)).toEqual(before);

    // Approved while valid, expired before the proof arrives.
    await setOfficialValidity(officialQuoteId, today);
    expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
    await setOfficialValidity(officialQuoteId, yesterday);
    const approved = await state(requestId);
    expect(await pay(requestId, buyer, 295_800)).toEqual(expired);
    expect(await state(requestId)).toEqual(approved);
    expect(approved.payments.map((p) => p.proof_key)).toEqual([null]);
  });

  it("a renewal is asked once, only when expired, and the new version can be approved and paid", async () => {
    const { admin, buyer, requestId, officialQuoteId } = await quoted();
    const otherAdmin = await makeUser("admin");
    const validUntil = addDays(today, 30);
    const whileValid = await state(requestId);
    expect(await requestRenewal(db, { requestId, buyerId: buyer })).toEqual({
      ok: false,
      code: "conflict",
      message: `La cotización oficial sigue vigente hasta el ${formatDate(validUntil)}.`,
    });
    expect(await state(requestId)).toEqual(whileValid);

    await setOfficialValidity(officialQuoteId, yesterday);
    expect(await requestRenewal(db, { requestId, buyerId: buyer })).toEqual({
      ok: true,
      value: { alreadyRequested: false },
    });
    const title = "Renovación de cotización solicitada";
    for (const operator of [admin, otherAdmin])
      expect(await notificationsOf(operator, requestId, title)).toHaveLength(1);
    expect((await versions(requestId))[0]!.renewal_requested_at).not.toBeNull();

    const asked = await state(requestId);
    expect(await requestRenewal(db, { requestId, buyerId: buyer })).toEqual({
      ok: true,
      value: { alreadyRequested: true },
    });
    expect(await state(requestId)).toEqual(asked);
    for (const operator of [admin, otherAdmin])
      expect(await notificationsOf(operator, requestId, title)).toHaveLength(1);

    // The operator grants it as version 2.
    const renewed = await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Renovación solicitada por el comprador",
      terms: { ...offerOf(STEEL_OFFER), validUntil: addDays(today, 30) },
    });
    expect(renewed).toMatchObject({ ok: true, value: { version: 2 } });
    expect((await versions(requestId))[0]).toMatchObject({
      version: 2,
      valid_until: addDays(today, 30),
      renewal_requested_at: null,
    });
    expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
    const proof = await pay(requestId, buyer, 295_800);
    if (!proof.ok) throw new Error(proof.message);
    expect(
      (await confirmPayment(db, { paymentId: proof.value.paymentId, adminId: admin })).ok,
    ).toBe(true);
    expect((await snapshot(requestId)).requests[0]!.status).toBe("paid");
  });

  it("an expired partner offer cannot be approved", async () => {
    const admin = await makeUser("admin");
    const buyer = await makeUser("buyer");
    const partner = await makeUser("partner");
    const requestId = await makeRequest(buyer);
    expect((await assignPartner(db, { requestId, partnerId: partner, adminId: admin })).ok).toBe(
      true,
    );
    expect(
      (
        await submitPartnerQuote(db, {
          requestId,
          partnerId: partner,
          offer: offerOf({ amount: "1500", valid_until: today }),
          notes: null,
          file: null,
        })
      ).ok,
    ).toBe(true);
    const { id: partnerQuoteId } = await db
      .updateTable("partner_quotes")
      .set({ valid_until: yesterday })
      .where("quote_request_id", "=", requestId)
      .returning("id")
      .executeTakeFirstOrThrow();
    const before = await state(requestId);
    expect(await approvePartnerQuote(db, { requestId, partnerQuoteId, adminId: admin })).toEqual({
      ok: false,
      code: "locked",
      message: `Esta oferta venció el ${formatDate(yesterday)}: pide al socio que la renueve antes de aprobarla.`,
    });
    expect(await state(requestId)).toEqual(before);
    expect(before.snapshot.official).toBe(0);
  });
});

describe("PDF de una versión: quién puede leerlo", () => {
  it("the request's buyer and admins; another buyer and the partner get the not-found answer", async () => {
    const { admin, buyer, partner, requestId, officialQuoteId } = await quoted();
    const otherBuyer = await makeUser("buyer");
    const otherAdmin = await makeUser("admin");
    await reviseOfficialQuote(db, {
      requestId,
      adminId: admin,
      reason: "Cambio de cantidades",
      terms: revisedTerms("2800"),
    });
    const path = paths.files.officialQuoteVersion(officialQuoteId);
    expect(path).toBe(`/files/official-quote-versions/${officialQuoteId}`);
    for (const allowed of [buyer, otherAdmin]) {
      const lines = await pdfLines(path, allowed);
      expect(lines).toContain(`Cotización oficial N.º ${requestId} · versión 1`);
    }
    for (const refused of [otherBuyer, partner]) {
      const response = await download(path, refused);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("Archivo no encontrado");
    }
    // The buyer's own link is bound to the buyer: it opens nothing for another buyer.
    const buyersLink = (await fileLinks(path, buyer)).download;
    const route = await import("~/routes/files.official-quote-versions.$id");
    const borrowed = await answer(async () =>
      route.loader({
        request: new Request(new URL(buyersLink, BASE), {
          headers: { Cookie: await cookieOf(otherBuyer) },
        }),
        params: { id: String(officialQuoteId) },
        context: {},
      }),
    );
    expect(borrowed.status).toBe(404);
  });
});

// ---- Property: the arithmetic from a random offer to the confirmed payment

/** mulberry32: a small seeded generator, so a failure is reproducible. */
function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n / d rounded half away from zero (n, d ≥ 0), written here independently of the app. */
const roundDiv = (n: bigint, d: bigint) => {
  const q = n / d;
  return (n % d) * 2n >= d ? q + 1n : q;
};

/** "12345" thousandths typed as "12,345" or "12.345" (or "12" when whole). */
function typed(value: number, scale: number, digits: number, comma: boolean) {
  const whole = Math.floor(value / scale);
  const fraction = String(value % scale).padStart(digits, "0");
  return value % scale === 0 ? String(whole) : `${whole}${comma ? "," : "."}${fraction}`;
}

describe("propiedad: de la oferta al pago confirmado", () => {
  it("40 random offers: official quote = offer = payment = lines + tax, commission and points exact, PDF agrees", async () => {
    const random = mulberry32(20261127);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const base = await getSettings(db);
    let checked = 0;
    for (let run = 0; run < 40; run++) {
      const commissionHundredths = int(0, 2500);
      const pointsQuarters = int(0, 12);
      await saveSettings(db, {
        ...base,
        minQuoteAmountCents: 1,
        defaultCommission: commissionHundredths / 100,
        loyaltyPointsPerUnit: pointsQuarters / 4,
      });

      const lineCount = int(0, 5);
      const lines = Array.from({ length: lineCount }, (_, i) => ({
        description: `Artículo ${run}-${i}`,
        quantityMilli: int(1, 999_999),
        unit: random() < 0.5 ? "kg" : "",
        unitPriceCents: int(100, 2_500_000),
      }));
      const amountCents = int(1, 50_000_000);
      const taxHundredths = int(0, 2500);
      const comma = random() < 0.5;
      const offer = offerOf({
        items: lines.map((line) => ({
          description: line.description,
          quantity: typed(line.quantityMilli, 1000, 3, comma),
          unit: line.unit,
          unit_price: typed(line.unitPriceCents, 100, 2, comma),
        })),
        amount: lineCount ? "" : typed(amountCents, 100, 2, comma),
        tax_rate: typed(taxHundredths, 100, 2, comma),
      });

      // Expected figures, computed here with BigInt.
      const lineAmounts = lines.map((line) =>
        roundDiv(BigInt(line.quantityMilli) * BigInt(line.unitPriceCents), 1000n),
      );
      const subtotal = lineCount ? lineAmounts.reduce((a, b) => a + b, 0n) : BigInt(amountCents);
      // Every line rounded to nothing: the offer has no amount (refused elsewhere).
      if (subtotal === 0n) continue;
      checked++;
      const tax = roundDiv(subtotal * BigInt(taxHundredths), 10_000n);
      const total = Number(subtotal + tax);
      const commission = Number(roundDiv(subtotal * BigInt(commissionHundredths), 10_000n));
      const points = Number(((BigInt(total) / 100n) * BigInt(pointsQuarters)) / 4n);
      const context = `run ${run}: ${JSON.stringify({ lines, amountCents, taxHundredths, commissionHundredths })}`;

      const { admin, buyer, requestId, partnerQuoteId, officialQuoteId } = await quoted(offer);
      expect((await approveAsBuyer(requestId, buyer)).ok, context).toBe(true);
      const proof = await pay(requestId, buyer, total);
      if (!proof.ok) throw new Error(`${context}: ${proof.message}`);
      const confirmed = await confirmPayment(db, {
        paymentId: proof.value.paymentId,
        adminId: admin,
      });
      expect(confirmed, context).toEqual({ ok: true, value: { points } });

      const official = await db
        .selectFrom("official_quotes")
        .selectAll()
        .where("id", "=", officialQuoteId)
        .executeTakeFirstOrThrow();
      expect(official, context).toMatchObject({
        subtotal_cents: Number(subtotal),
        tax_rate: taxHundredths,
        tax_cents: Number(tax),
        final_amount_cents: total,
        commission_amount_cents: commission,
      });
      const storedLines = (await versions(requestId))[0]!.lines;
      expect(
        storedLines.map((line) => line.lineCents),
        context,
      ).toEqual(lineAmounts.map(Number));
      // Lines sum + tax = total, as stored.
      if (lineCount)
        expect(
          storedLines.reduce((sum, line) => sum + line.lineCents, 0),
          context,
        ).toBe(official.subtotal_cents);
      expect(official.subtotal_cents + official.tax_cents, context).toBe(
        official.final_amount_cents,
      );
      const partnerQuote = await db
        .selectFrom("partner_quotes")
        .select(["quoted_amount_cents", "subtotal_cents", "tax_cents"])
        .where("id", "=", partnerQuoteId)
        .executeTakeFirstOrThrow();
      expect(partnerQuote, context).toEqual({
        quoted_amount_cents: total,
        subtotal_cents: Number(subtotal),
        tax_cents: Number(tax),
      });
      const payment = await db
        .selectFrom("payments")
        .select(["amount_cents", "status", "official_quote_id"])
        .where("id", "=", proof.value.paymentId)
        .executeTakeFirstOrThrow();
      expect(payment, context).toEqual({
        amount_cents: total,
        status: "confirmed",
        official_quote_id: officialQuoteId,
      });
      const recorded = await db
        .selectFrom("buyer_commissions")
        .select(["commission_amount_cents", "loyalty_points"])
        .where("payment_id", "=", proof.value.paymentId)
        .executeTakeFirstOrThrow();
      expect(recorded, context).toEqual({
        commission_amount_cents: commission,
        loyalty_points: points,
      });
      const ledger = await db
        .selectFrom("loyalty_ledger")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("points"), eb.lit(0)).as("points"))
        .where("buyer_id", "=", buyer)
        .executeTakeFirstOrThrow();
      expect(Number(ledger.points), context).toBe(points);

      const pdf = await pdfLines(paths.files.officialQuote(requestId), buyer);
      expect(pdf, context).toEqual(
        expect.arrayContaining([
          money(Number(subtotal)),
          money(Number(tax)),
          money(total),
          money(commission),
          ...lineAmounts.map((cents) => money(Number(cents))),
          ...lines.map((line) =>
            [formatQuantity(line.quantityMilli), line.unit].filter(Boolean).join(" "),
          ),
        ]),
      );
    }
    expect(checked).toBeGreaterThanOrEqual(38);
    await saveSettings(db, base);
  }, 120_000);
});
