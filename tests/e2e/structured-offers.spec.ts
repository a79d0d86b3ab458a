import fs from "node:fs";
import type { Page } from "@playwright/test";
import { test, expect, waitForMail, screenshots, tag, type Server } from "./fixtures";
import { insertOfficialQuote, insertRequest } from "./factories";
import { pdfFile } from "./files";
import { pdfText } from "../pdf-text";

/** The UTC day `days` from today ("2026-12-16"). */
function day(days: number) {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Partners may offer until `hoursFromNow` (time is driven through the data). */
function setDeadline(server: Server, requestId: number, hoursFromNow: number) {
  const deadline = new Date(Date.now() + hoursFromNow * 3600_000).toISOString();
  server.sql
    .prepare("UPDATE quote_requests SET quote_deadline = ? WHERE id = ?")
    .run(deadline, requestId);
}

async function fillRow(
  page: Page,
  index: number,
  row: { description: string; quantity: string; unit: string; price: string },
) {
  await page.locator(`#item-${index}-description`).fill(row.description);
  await page.locator(`#item-${index}-quantity`).fill(row.quantity);
  await page.locator(`#item-${index}-unit`).fill(row.unit);
  await page.locator(`#item-${index}-unit_price`).fill(row.price);
}

const ROWS = [
  { description: "Válvula de compuerta 4 pulgadas", quantity: "12", unit: "pza", price: "1250,50" },
  { description: "Empaque de grafito", quantity: "2,5", unit: "m", price: "99.99" },
  { description: "Flete a planta", quantity: "1", unit: "servicio", price: "3000" },
];

test("ofertas estructuradas: renglones con IVA y monto único, comparación, PDF y una versión 2 pagada", async ({
  server,
  createUser,
  pageAs,
  axe,
  javaScriptEnabled,
}, testInfo) => {
  // Four people from the first offer to a paid second version: longer than one step's minute.
  test.slow();
  const buyer = await createUser({ role: "buyer", companyName: "Refinería Ficticia" });
  const admin = await createUser({ role: "admin" });
  const lines = await createUser({ role: "partner", companyName: "Suministros Ficticios" });
  const single = await createUser({ role: "partner", companyName: "Ferretería Ficticia" });
  const title = `Válvulas para planta ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "assigned",
    partners: [lines, single],
  });
  setDeadline(server, requestId, 48);
  const [linesPage, singlePage, adminPage, buyerPage] = await Promise.all([
    pageAs(lines),
    pageAs(single),
    pageAs(admin),
    pageAs(buyer),
  ]);

  // 1. A partner offers three lines with 16 % tax; rows are added without JavaScript too.
  await linesPage.goto(`/partner/assignments/${requestId}/quote`);
  await expect(linesPage.locator('[id^="item-"][id$="-description"]')).toHaveCount(1);
  await fillRow(linesPage, 0, ROWS[0]!);
  await linesPage.getByRole("button", { name: "Añadir renglón" }).click();
  await expect(linesPage.locator("#item-1-description")).toBeVisible();
  // The first row is kept (without JavaScript the page came back from the server with it).
  await expect(linesPage.locator("#item-0-unit_price")).toHaveValue("1250,50");
  await fillRow(linesPage, 1, ROWS[1]!);
  // A row typed by mistake is removed; the rows after it move up with what was typed in them.
  await linesPage.getByRole("button", { name: "Añadir renglón" }).click();
  await fillRow(linesPage, 2, {
    description: "Renglón por error",
    quantity: "1",
    unit: "pza",
    price: "999",
  });
  await linesPage.getByRole("button", { name: "Añadir renglón" }).click();
  await fillRow(linesPage, 3, ROWS[2]!);
  await linesPage.getByRole("button", { name: "Quitar renglón 3" }).click();
  await expect(linesPage.locator('[id^="item-"][id$="-description"]')).toHaveCount(3);
  await expect(linesPage.locator("#item-2-description")).toHaveValue(ROWS[2]!.description);
  await expect(linesPage.locator("#item-1-description")).toHaveValue(ROWS[1]!.description);
  await linesPage.getByLabel("IVA (%)").fill("16");
  await linesPage.getByLabel("Plazo de entrega (días)").fill("10");
  await linesPage.getByLabel("Válida hasta").fill(day(20));
  await linesPage.getByLabel("Condiciones de pago").fill("50 % anticipo, 50 % contra entrega");
  const offerFile = linesPage.locator('input[name="file"]');
  await offerFile.setInputFiles(pdfFile("oferta-valvulas.pdf"));
  await linesPage.getByRole("button", { name: "Calcular totales" }).click();
  // The page keeps the file with JavaScript; without it the new page cannot, and asks for it again.
  const unkept = linesPage.getByTestId("archivo-no-conservado");
  if (javaScriptEnabled) {
    await expect(linesPage.getByTestId("vista-total")).toBeVisible();
    await expect(unkept).toHaveCount(0);
    expect(await offerFile.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(1);
  } else {
    await expect(unkept).toHaveText(
      "No conservamos «oferta-valvulas.pdf» al devolverte el formulario: vuelve a adjuntarlo antes de enviar.",
    );
    await offerFile.setInputFiles(pdfFile("oferta-valvulas.pdf"));
  }
  // 12 × 1,250.50 + 2.5 × 99.99 (249.975 → 249.98) + 3,000 = 18,255.98; IVA 2,920.96.
  await expect(linesPage.getByTestId("vista-subtotal")).toHaveText("USD 18,255.98");
  await expect(linesPage.getByTestId("vista-iva")).toHaveText("USD 2,920.96");
  await expect(linesPage.getByTestId("vista-total")).toHaveText("USD 21,176.94");
  await expect(linesPage.locator("#item-2-description")).toHaveValue("Flete a planta");
  expect(
    server.sql
      .prepare("SELECT COUNT(*) AS n FROM partner_quotes WHERE quote_request_id = ?")
      .get(requestId),
  ).toEqual({ n: 0 });
  await axe(linesPage);
  await screenshots(linesPage, "partner-offer-lines", testInfo);
  // Enter in a field sends the offer as «Enviar Cotización» does, with its file (it previewed the
  // totals and, without JavaScript, dropped the file); it never removes the first row.
  await linesPage.locator("#item-0-quantity").press("Enter");
  await expect(linesPage.getByText("Cotización enviada")).toBeVisible();
  expect(
    server.sql
      .prepare("SELECT file_name FROM partner_quotes WHERE quote_request_id = ? AND partner_id = ?")
      .get(requestId, lines.id),
  ).toEqual({ file_name: "oferta-valvulas.pdf" });
  await linesPage.goto(`/partner/assignments/${requestId}`);
  await expect(linesPage.getByTestId("mi-oferta-renglon")).toHaveCount(3);
  await expect(linesPage.getByTestId("mi-oferta-total")).toHaveText("USD 21,176.94");

  // 2. The other partner offers one amount; a subtotal and total slipped into the form are ignored.
  await singlePage.goto(`/partner/assignments/${requestId}/quote`);
  await singlePage.getByLabel(/^Monto sin impuestos/).fill("17500");
  await singlePage.getByLabel("IVA (%)").fill("16");
  await singlePage.getByLabel("Plazo de entrega (días)").fill("5");
  await singlePage.getByRole("button", { name: "Enviar Cotización" }).click();
  await expect(singlePage.getByText("Cotización enviada")).toBeVisible();
  const tampered = await singlePage.request.post(`/partner/assignments/${requestId}/quote`, {
    multipart: {
      amount: "17500",
      tax_rate: "16",
      lead_time_days: "5",
      subtotal: "1",
      tax: "0",
      total: "1",
    },
  });
  expect(tampered.ok()).toBe(true);
  expect(
    server.sql
      .prepare(
        "SELECT subtotal_cents, tax_cents, quoted_amount_cents FROM partner_quotes WHERE partner_id = ?",
      )
      .get(single.id),
  ).toEqual({ subtotal_cents: 1_750_000, tax_cents: 280_000, quoted_amount_cents: 2_030_000 });

  // 3. The operator compares: lowest total and shortest lead time marked; an expired offer is refused.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  const linesColumn = adminPage.getByTestId(`oferta-${lines.id}`);
  const singleColumn = adminPage.getByTestId(`oferta-${single.id}`);
  await expect(singleColumn).toContainText("Menor total");
  await expect(singleColumn).toContainText("Entrega más rápida");
  await expect(linesColumn).not.toContainText("Menor total");
  await expect(adminPage.getByTestId(`cotizacion-socio-${lines.id}`)).toHaveText("USD 21,176.94");
  await expect(adminPage.getByTestId(`cotizacion-socio-${single.id}`)).toHaveText("USD 20,300.00");
  await axe(adminPage);
  await screenshots(adminPage, "admin-offer-comparison", testInfo);
  // On a phone the comparison scrolls inside its box; the page never scrolls sideways.
  const viewport = adminPage.viewportSize()!;
  await adminPage.setViewportSize({ width: 360, height: 800 });
  await adminPage.reload();
  expect(
    await adminPage.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
  await adminPage.setViewportSize(viewport);
  const csv = await adminPage.request.get(`/admin/quotes/${requestId}/comparison.csv`);
  const csvText = (await csv.body()).toString("utf8");
  expect(csvText.charCodeAt(0)).toBe(0xfeff);
  expect(csvText).toContain("Suministros Ficticios");
  expect(csvText).toContain("21176.94");
  expect(csvText).toContain("Válvula de compuerta 4 pulgadas: 12 pza × 1250.50 = 15006.00");

  server.sql
    .prepare("UPDATE partner_quotes SET valid_until = ? WHERE partner_id = ?")
    .run(day(-1), single.id);
  await adminPage.reload();
  await expect(singleColumn).toContainText("Vencida");
  await adminPage
    .getByRole("button", { name: "Aprobar la cotización de Ferretería Ficticia" })
    .click();
  await expect(adminPage.getByText(/Esta oferta venció el/)).toBeVisible();
  expect(
    server.sql
      .prepare("SELECT COUNT(*) AS n FROM official_quotes WHERE quote_request_id = ?")
      .get(requestId),
  ).toEqual({ n: 0 });

  await adminPage
    .getByRole("button", { name: "Aprobar la cotización de Suministros Ficticios" })
    .click();
  await expect(adminPage.getByTestId("monto-oficial")).toHaveText("USD 21,176.94");
  // Commission on the subtotal: 5 % of 18,255.98 = 912.799 → 912.80 (not on the tax).
  await expect(adminPage.getByTestId("comision-oficial")).toHaveText("USD 912.80");
  await expect(adminPage.getByTestId("entrega-oficial")).toHaveText("10 días");

  // 4. The buyer sees lines, subtotal, tax, total, lead time, validity, and the PDF says the same.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByTestId("version-oficial")).toHaveText("Versión 1");
  // Both offers with their tax, so totals with and without IVA compare fairly.
  await expect(buyerPage.getByTestId("oferta-desglose")).toHaveText([
    "Subtotal USD 17,500.00 · IVA 16 %",
    "Subtotal USD 18,255.98 · IVA 16 %",
  ]);
  // Who offered, by name and company; never their contact details, not even in the page's data.
  const source = await buyerPage.content();
  for (const partner of [lines, single]) expect(source).not.toContain(partner.email);
  expect(source).not.toContain("file_key");
  await expect(buyerPage.getByTestId("oficial-renglon")).toHaveCount(3);
  await expect(buyerPage.getByTestId("oficial-subtotal")).toHaveText("USD 18,255.98");
  await expect(buyerPage.getByTestId("oficial-iva")).toHaveText("USD 2,920.96");
  await expect(buyerPage.getByTestId("oficial-total")).toHaveText("USD 21,176.94");
  // The commission is part of the total and the partner's to pay, never a separate figure.
  await expect(buyerPage.getByTestId("comision-oficial")).toHaveText("USD 912.80");
  await expect(
    buyerPage.getByText("Incluye la comisión de intermediación de CotizaHub, a cargo del socio:"),
  ).toBeVisible();
  await expect(buyerPage.getByTestId("entrega-oficial")).toHaveText("10 días");
  await expect(buyerPage.getByText("50 % anticipo, 50 % contra entrega")).toBeVisible();
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-official-lines", testInfo);
  const [download] = await Promise.all([
    buyerPage.waitForEvent("download"),
    buyerPage.getByRole("link", { name: "Descargar PDF" }).click(),
  ]);
  const text = await pdfText(fs.readFileSync((await download.path())!));
  for (const expected of [
    "Válvula de compuerta 4 pulgadas",
    "Empaque de grafito",
    "Flete a planta",
    "USD 15,006.00",
    "USD 249.98",
    "USD 18,255.98",
    "USD 2,920.96",
    "USD 21,176.94",
    "USD 912.80",
    "Plazo de entrega: 10 días",
    "versión 1",
  ])
    expect(text).toContain(expected);
  // Buyer, operator and PDF name the document by the same number.
  const number = (await buyerPage.getByTestId("numero-oficial").textContent())!;
  expect(number).toMatch(/^N\.º \d+$/);
  expect(text).toContain(`Cotización oficial ${number} · versión 1`);
  await expect(adminPage.getByTestId("numero-oficial")).toHaveText(number);

  // 5. A revision to version 2 (reason required): the buyer sees it, approves and pays it.
  await adminPage.getByRole("link", { name: "Emitir nueva versión" }).click();
  await expect(adminPage.locator("#item-2-description")).toHaveValue("Flete a planta");
  // The partner's offer holds for 20 days: the new version starts there, not at 30.
  await expect(adminPage.getByLabel("Válida hasta")).toHaveValue(day(20));
  await expect(adminPage.getByTestId("validez-oferta-socio")).toContainText("vale hasta el");
  await adminPage.locator("#item-0-unit_price").fill("1200");
  await adminPage.getByRole("button", { name: "Emitir nueva versión" }).click();
  await expect(adminPage.getByText("Indica el motivo de la nueva versión.")).toBeVisible();
  await expect(adminPage.locator("#item-0-unit_price")).toHaveValue("1200");
  await adminPage.getByLabel("Motivo de la nueva versión").fill("Descuento por volumen");
  await screenshots(adminPage, "admin-revise-official", testInfo);
  await adminPage.getByRole("button", { name: "Emitir nueva versión" }).click();
  await expect(adminPage.getByText("Versión 2 emitida")).toBeVisible();
  // 14,400 + 249.98 + 3,000 = 17,649.98; IVA 2,823.9968 → 2,824.00.
  await expect(adminPage.getByTestId("monto-oficial")).toHaveText("USD 20,473.98");

  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByTestId("version-oficial")).toHaveText("Versión 2");
  await expect(buyerPage.getByText("Motivo de la versión: Descuento por volumen")).toBeVisible();
  await expect(buyerPage.getByTestId("versiones-anteriores")).toContainText(
    "Versión 1 · USD 21,176.94",
  );
  const older = buyerPage.getByRole("link", { name: "PDF de la versión 1" });
  const olderPdf = await buyerPage.request.get((await older.getAttribute("href"))!);
  expect(await pdfText(await olderPdf.body())).toContain("USD 21,176.94");
  await buyerPage.getByRole("button", { name: "Aprobar cotización" }).click();
  await expect(
    buyerPage.getByText("Cotización aprobada. Se ha creado el registro de pago."),
  ).toBeVisible();
  await buyerPage.getByRole("link", { name: "Pagar" }).click();
  await expect(buyerPage.getByLabel(/Monto pagado/)).toHaveValue("20473.98");
  await buyerPage.getByLabel("Método de pago").selectOption("transfer");
  await buyerPage.locator('input[name="file"]').setInputFiles(pdfFile("comprobante.pdf"));
  await buyerPage.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(buyerPage).toHaveURL(/\/buyer\/payments$/);
  // The buyer is not invited to pay again: the request says the proof is being checked.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByText(/Tu comprobante del .* está en revisión/)).toBeVisible();
  await expect(buyerPage.getByRole("link", { name: "Pagar", exact: true })).toHaveCount(0);
  await buyerPage.getByRole("link", { name: "Reemplazar comprobante" }).click();
  await expect(buyerPage.getByText(/Si envías otro, reemplazará al anterior/)).toBeVisible();
  await buyerPage.goto(`/buyer/quotes?q=${encodeURIComponent(title)}`);
  await expect(buyerPage.getByText("Comprobante en revisión")).toBeVisible();

  // With the proof waiting for review no new version is offered, on the request or its form.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByText(/Hay un comprobante de pago en revisión/)).toBeVisible();
  await expect(adminPage.getByRole("link", { name: "Emitir nueva versión" })).toHaveCount(0);
  await adminPage.goto(`/admin/quotes/${requestId}/revise`);
  await expect(adminPage.getByText(/Hay un comprobante de pago en revisión/)).toBeVisible();
  await expect(adminPage.getByRole("button", { name: "Emitir nueva versión" })).toHaveCount(0);

  await adminPage.goto("/admin/payments");
  await adminPage.getByRole("button", { name: `Confirmar pago de ${title}` }).click();
  await expect(adminPage.getByText(/Pago confirmado/)).toBeVisible();
  expect(
    server.sql
      .prepare(
        `SELECT p.amount_cents, p.status, oq.version, oq.final_amount_cents, oq.commission_amount_cents
         FROM payments p JOIN official_quotes oq ON oq.id = p.official_quote_id
         WHERE p.quote_request_id = ? AND p.status = 'confirmed'`,
      )
      .get(requestId),
  ).toEqual({
    amount_cents: 2_047_398,
    status: "confirmed",
    version: 2,
    final_amount_cents: 2_047_398,
    commission_amount_cents: 88_250, // 5 % of 17,649.98 = 882.499 → 882.50
  });
  await waitForMail(server, buyer.email, "Nueva versión de tu cotización oficial");
});

test("una cotización oficial vencida no se aprueba ni se paga; su renovación sí", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const title = `Lubricantes ${tag()}`;
  const requestId = insertRequest(server, { buyer, title, status: "quoted" });
  insertOfficialQuote(server, { requestId, amountCents: 500_000 });
  server.sql
    .prepare("UPDATE official_quotes SET valid_until = ? WHERE quote_request_id = ?")
    .run(day(-1), requestId);
  const [buyerPage, adminPage] = await Promise.all([pageAs(buyer), pageAs(admin)]);

  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByTestId("cotizacion-vencida")).toContainText(
    "ya no puede aprobarse ni pagarse",
  );
  await expect(buyerPage.getByRole("button", { name: "Aprobar cotización" })).toHaveCount(0);
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-official-expired", testInfo);
  // Posted straight to the server, the approval is refused and stores nothing.
  const approve = await buyerPage.request.post(`/buyer/quotes/${requestId}`, {
    form: { intent: "approve" },
  });
  expect(approve.status()).toBe(423);
  expect(await approve.text()).toContain("La cotización oficial venció el");
  const status = () =>
    server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId);
  expect(status()).toEqual({ status: "quoted" });

  await buyerPage.getByRole("button", { name: "Solicitar renovación" }).click();
  await expect(buyerPage.getByText("Renovación solicitada", { exact: true })).toBeVisible();
  await expect(buyerPage.getByText(/Renovación solicitada el/)).toBeVisible();
  await waitForMail(server, admin.email, "Renovación de cotización solicitada");

  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByText(/El comprador pidió renovar esta cotización/)).toBeVisible();
  await adminPage.getByRole("link", { name: "Renovar cotización" }).click();
  await adminPage.getByLabel("Motivo de la nueva versión").fill("Renovación solicitada");
  await adminPage.getByRole("button", { name: "Emitir nueva versión" }).click();
  await expect(adminPage.getByText("Versión 2 emitida")).toBeVisible();

  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByTestId("version-oficial")).toHaveText("Versión 2");
  await expect(buyerPage.getByTestId("cotizacion-vencida")).toHaveCount(0);
  await buyerPage.getByRole("button", { name: "Aprobar cotización" }).click();
  await expect(
    buyerPage.getByText("Cotización aprobada. Se ha creado el registro de pago."),
  ).toBeVisible();
  expect(status()).toEqual({ status: "approved" });
});
