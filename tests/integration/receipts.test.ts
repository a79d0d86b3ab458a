import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { confirmPayment, submitPaymentProof } from "~/models/payment.server";
import { paymentReceiptFor } from "~/models/file-access.server";
import {
  approvePartnerQuote,
  assignPartner,
  submitPartnerQuote,
} from "~/models/quote-lifecycle.server";
import { getUserById } from "~/models/user.server";
import { db } from "~/services/db.server";
import { env } from "~/services/env.server";
import { startSession } from "~/services/session.server";
import { fileLinks } from "~/services/signed-url.server";
import { sweepOrphanFiles } from "~/services/storage.server";
import { paths } from "~/utils/paths";
import { pdfText } from "../pdf-text";
import { makeRequest, makeUser, approveAsBuyer } from "./factories";

/** The receipt PDF of a confirmed payment (issue 14): what it says, who gets it, how it is kept. */

const BASE = "http://localhost:3999";

async function cookieOf(userId: number) {
  const setCookie = await startSession(db, new Request(BASE), userId);
  return setCookie.split(";")[0]!;
}

function get(url: string, cookie: string) {
  return new Request(new URL(url, BASE), { headers: { Cookie: cookie } });
}

/** What a loader answered, a thrown Response included. */
async function answer<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** GET a file route as `userId`, through the real loader (session, signed link, access rule). */
async function download(url: string, userId: number): Promise<Response> {
  const route = await import("~/routes/files.receipts.$id");
  const id = new URL(url, BASE).pathname.split("/").pop()!;
  const request = get(url, await cookieOf(userId));
  return (await answer(() => route.loader({ request, params: { id }, context: {} }))) as Response;
}

async function bodyOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** Every stored file under the uploads folder (temp files aside), as keys. */
function storedFiles(): string[] {
  const dir = env.uploadsDir;
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => !entry.startsWith(".tmp") && fs.statSync(path.join(dir, entry)).isFile())
    .sort();
}

/**
 * A request paid through the real steps: partner quote of USD 2,500.75 approved, the buyer
 * approves and sends a bank-transfer proof. `confirm` decides whether an admin confirms it.
 */
async function payment({ confirm = true, title = "Tubería de acero «DN50» para planta" } = {}) {
  const admin = await makeUser("admin");
  const buyer = await makeUser("buyer", { companyName: "Ferretería Ñandú S.A." });
  const partner = await makeUser("partner");
  const requestId = await makeRequest(buyer, "pending", title);
  expect((await assignPartner(db, { requestId, partnerId: partner, adminId: admin })).ok).toBe(
    true,
  );
  expect(
    (
      await submitPartnerQuote(db, {
        requestId,
        partnerId: partner,
        amountCents: 250_075,
        notes: null,
        file: null,
      })
    ).ok,
  ).toBe(true);
  const partnerQuote = await db
    .selectFrom("partner_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  expect(
    (await approvePartnerQuote(db, { requestId, partnerQuoteId: partnerQuote.id, adminId: admin }))
      .ok,
  ).toBe(true);
  expect((await approveAsBuyer(requestId, buyer)).ok).toBe(true);
  const proof = await submitPaymentProof(db, {
    requestId,
    buyerId: buyer,
    amountCents: 250_075,
    method: "transfer",
    proof: { key: `comprobante-${requestId}.png`, name: "comprobante.png", type: "image/png" },
  });
  if (!proof.ok) throw new Error(proof.message);
  const paymentId = proof.value.paymentId;
  if (confirm) expect((await confirmPayment(db, { paymentId, adminId: admin })).ok).toBe(true);
  const officialQuote = await db
    .selectFrom("official_quotes")
    .select("id")
    .where("quote_request_id", "=", requestId)
    .executeTakeFirstOrThrow();
  return { admin, buyer, partner, requestId, paymentId, officialQuoteId: officialQuote.id, title };
}

/** The «Descargar recibo» link the buyer's payments page shows for a payment, if any. */
async function buyerReceiptLink(buyerId: number, paymentId: number) {
  const page = await import("~/routes/buyer.payments._index");
  const data = await page.loader({
    request: get(paths.buyer.payments(), await cookieOf(buyerId)),
    params: {},
    context: {},
  });
  return data.receipts[paymentId];
}

async function receiptKey(paymentId: number) {
  const row = await db
    .selectFrom("payments")
    .select("receipt_key")
    .where("id", "=", paymentId)
    .executeTakeFirstOrThrow();
  return row.receipt_key;
}

describe("recibo de pago", () => {
  it("the buyer downloads it from the payments page and it says what was paid, by whom, for what", async () => {
    const { buyer, paymentId, requestId } = await payment();
    const link = await buyerReceiptLink(buyer, paymentId);
    expect(link).toMatch(new RegExp(`^/files/receipts/${paymentId}\\?exp=\\d+&sig=`));

    const response = await download(link!, buyer);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toContain(
      `attachment; filename="recibo-REC-${String(paymentId).padStart(6, "0")}.pdf"`,
    );
    const text = await pdfText(await bodyOf(response));
    const buyerRow = (await getUserById(db, buyer))!;
    const lines = text.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "CotizaHub",
        `Recibo de pago N.º REC-${String(paymentId).padStart(6, "0")}`,
        `${buyerRow.first_name} ${buyerRow.last_name}`,
        "Ferretería Ñandú S.A.",
        buyerRow.email,
        `N.º ${requestId} · Tubería de acero «DN50» para planta`,
        // Numbered by its request, as every version of the quote.
        `Cotización oficial N.º ${requestId} · versión 1`,
        "Importe pagado",
        "USD 2,500.75",
        "Transferencia bancaria",
        "Puntos de lealtad ganados",
        // 2,500 whole dollars × 1 point per unit (the default setting).
        "2,500",
        "Equipo de administración de CotizaHub",
      ]),
    );
    // Dates in es-ES, as on the pages ("26 nov 2026, 10:15 UTC").
    expect(text).toMatch(/Pago confirmado\n\d{1,2} [a-z]{3,4} \d{4}, \d{2}:\d{2} UTC/);
    expect(text).toMatch(/Comprobante enviado\n\d{1,2} [a-z]{3,4} \d{4}, \d{2}:\d{2} UTC/);
  });

  it("an admin downloads it from the payments panel", async () => {
    const { admin, paymentId } = await payment();
    const page = await import("~/routes/admin.payments");
    const data = await page.loader({
      request: get(paths.admin.payments({ status: "confirmed" }), await cookieOf(admin)),
      params: {},
      context: {},
    });
    const link = data.receipts[paymentId];
    expect(link).toBeDefined();
    const response = await download(link!, admin);
    expect(response.status).toBe(200);
    expect(await pdfText(await bodyOf(response))).toContain("USD 2,500.75");
  });

  it("another buyer and a partner get the not-found answer, even with a link signed for them", async () => {
    const { buyer, partner, paymentId } = await payment();
    const stranger = await makeUser("buyer");
    const buyersLink = (await buyerReceiptLink(buyer, paymentId))!;
    for (const who of [stranger, partner]) {
      // The buyer's own link is bound to the buyer.
      expect((await download(buyersLink, who)).status).toBe(404);
      // A link signed for them passes the signature, and the access rule still says no.
      const own = await fileLinks(paths.files.receipt(paymentId), who);
      const refused = await download(own.download, who);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toBe("Archivo no encontrado");
    }
    // Nothing was generated for them.
    expect(await receiptKey(paymentId)).toBeNull();
    expect(await buyerReceiptLink(stranger, paymentId)).toBeUndefined();
  });

  it("a payment not confirmed has no receipt: no link and not found, for its buyer and for admins", async () => {
    const { admin, buyer, paymentId } = await payment({ confirm: false });
    expect(await buyerReceiptLink(buyer, paymentId)).toBeUndefined();
    for (const who of [buyer, admin]) {
      const own = await fileLinks(paths.files.receipt(paymentId), who);
      expect((await download(own.download, who)).status).toBe(404);
    }
    expect(await receiptKey(paymentId)).toBeNull();
    // The database refuses a receipt on a payment that is not confirmed.
    await expect(
      db
        .updateTable("payments")
        .set({ receipt_key: "2026/11/recibo.pdf" })
        .where("id", "=", paymentId)
        .execute(),
    ).rejects.toThrow(/CHECK constraint failed/);
  });

  it("is stored on the first download and the stored file is served again after that", async () => {
    const { buyer, admin, paymentId } = await payment();
    const link = (await buyerReceiptLink(buyer, paymentId))!;
    const first = await bodyOf(await download(link, buyer));
    const key = await receiptKey(paymentId);
    expect(key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{32}\.pdf$/);
    expect(fs.readFileSync(path.join(env.uploadsDir, key!))).toEqual(Buffer.from(first));
    const files = storedFiles();

    const adminLink = (await fileLinks(paths.files.receipt(paymentId), admin)).download;
    const second = await bodyOf(await download(adminLink, admin));
    // The same bytes (a new rendering would carry a new creation date), the same key, no new file.
    expect(Buffer.from(second)).toEqual(Buffer.from(first));
    expect(await receiptKey(paymentId)).toBe(key);
    expect(storedFiles()).toEqual(files);
    // The orphan sweep knows the receipt column: the stored receipt is kept.
    await sweepOrphanFiles(db, 0);
    expect(fs.existsSync(path.join(env.uploadsDir, key!))).toBe(true);

    // A stored copy that went missing is generated again under a new key.
    fs.rmSync(path.join(env.uploadsDir, key!));
    const again = await download(link, buyer);
    expect(again.status).toBe(200);
    const newKey = await receiptKey(paymentId);
    expect(newKey).not.toBe(key);
    expect(fs.existsSync(path.join(env.uploadsDir, newKey!))).toBe(true);
  });

  it("two first downloads at once store one receipt and both serve it", async () => {
    const { buyer, paymentId } = await payment();
    const before = storedFiles();
    const user = (await getUserById(db, buyer))!;
    const [a, b] = await Promise.all([
      paymentReceiptFor(db, user, paymentId),
      paymentReceiptFor(db, user, paymentId),
    ]);
    const key = await receiptKey(paymentId);
    expect(a?.key).toBe(key);
    expect(b?.key).toBe(key);
    expect(storedFiles()).toEqual([...before, key].sort());
  });
});
