import fs from "node:fs";
import { test, expect, waitForMail, screenshots, tag } from "./fixtures";
import { insertOfficialQuote, insertRequest } from "./factories";
import { PNG } from "./files";
import { pdfText } from "../pdf-text";

/**
 * The payment receipt (issue 14): once an operator confirms a payment, its buyer downloads a
 * «Recibo de pago» PDF from Pagos; the operator finds it on the payments panel; nobody else gets it.
 */
test("el comprador descarga el recibo de su pago confirmado; otro comprador recibe 404", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer", companyName: "Ferretería Ñandú S.A." });
  const admin = await createUser({ role: "admin" });
  const stranger = await createUser({ role: "buyer" });
  const title = `Tubería de acero «DN50» ${tag()}`;
  const requestId = insertRequest(server, { buyer, title, status: "approved" });
  const { paymentId } = insertOfficialQuote(server, {
    requestId,
    amountCents: 123450,
    payment: {
      method: "transfer",
      proof: { name: "comprobante.png", type: "image/png", buffer: PNG },
    },
  });
  const receiptName = `Descargar recibo de ${title}`;
  const buyerPage = await pageAs(buyer);

  // While the proof waits for review there is no receipt.
  await buyerPage.goto("/buyer/payments");
  await expect(buyerPage.getByRole("link", { name: title, exact: true })).toBeVisible();
  await expect(buyerPage.getByRole("link", { name: receiptName })).toHaveCount(0);

  // The operator confirms; the panel offers the receipt right away.
  const adminPage = await pageAs(admin);
  await adminPage.goto("/admin/payments");
  await adminPage.getByRole("button", { name: `Confirmar pago de ${title}` }).click();
  await expect(
    adminPage.getByText(
      /Pago confirmado\. La solicitud quedó pagada y el comprador sumó 1,234 puntos\./,
    ),
  ).toBeVisible();
  // Reviewed payments follow every pending one; the confirmed filter shows the newest first.
  await adminPage.goto("/admin/payments?status=confirmed");
  const adminLink = adminPage.getByRole("link", { name: receiptName });
  await expect(adminLink).toBeVisible();
  const adminCopy = await adminPage.request.get((await adminLink.getAttribute("href"))!);
  expect(adminCopy.status()).toBe(200);
  expect(await pdfText(await adminCopy.body())).toContain("USD 1,234.50");

  // The e-mail tells the buyer where the receipt is.
  const mail = await waitForMail(server, buyer.email, "Pago confirmado");
  expect(mail.body).toContain("Puedes descargar tu recibo de pago desde Pagos.");

  // The buyer downloads it from Pagos, as a person would: a click that saves a file.
  await buyerPage.goto("/buyer/payments");
  const link = buyerPage.getByRole("link", { name: receiptName });
  await expect(link).toBeVisible();
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-payments-receipt", testInfo);
  const [download] = await Promise.all([buyerPage.waitForEvent("download"), link.click()]);
  const number = `REC-${String(paymentId).padStart(6, "0")}`;
  expect(download.suggestedFilename()).toBe(`recibo-${number}.pdf`);
  const bytes = fs.readFileSync((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const lines = (await pdfText(bytes)).split("\n");
  expect(lines).toEqual(
    expect.arrayContaining([
      `Recibo de pago N.º ${number}`,
      `${buyer.firstName} ${buyer.lastName}`,
      "Ferretería Ñandú S.A.",
      buyer.email,
      `N.º ${requestId} · ${title}`,
      `Cotización oficial N.º ${requestId} · versión 1`,
      "USD 1,234.50",
      "Transferencia bancaria",
      "Puntos de lealtad ganados",
      "1,234",
    ]),
  );
  // Stored on the first download (the operator's); the buyer's was served from it.
  const stored = server.sql
    .prepare("SELECT receipt_key FROM payments WHERE id = ?")
    .get(paymentId) as { receipt_key: string | null };
  expect(stored.receipt_key).toMatch(/\.pdf$/);

  // Another buyer: the buyer's link is not theirs, and the unsigned address is refused too.
  const href = (await link.getAttribute("href"))!;
  const strangerPage = await pageAs(stranger);
  expect((await strangerPage.request.get(href)).status()).toBe(404);
  expect((await strangerPage.request.get(`/files/receipts/${paymentId}`)).status()).toBe(404);
  await strangerPage.goto("/buyer/payments");
  await expect(strangerPage.getByRole("link", { name: receiptName })).toHaveCount(0);
});
