import type { Page } from "@playwright/test";
import { test, expect, waitForMail, screenshots, tag, type TestUser } from "./fixtures";
import { insertOfficialQuote, insertPartnerQuote, insertRequest } from "./factories";
import { PDF, pdfFile } from "./files";
import { followEachNotification } from "./notifications";

/** The operator records an approval the buyer gave outside the product, saying how. */
async function recordBuyerApproval(adminPage: Page, note: string): Promise<void> {
  // The form sits in a <details>, open again when its note was refused.
  const details = adminPage.locator("#aprobacion-comprador");
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
    await details.locator("summary").click();
  await adminPage.getByLabel("Cómo aprobó el comprador").fill(note);
  await adminPage.getByRole("button", { name: "Registrar aprobación del comprador" }).click();
  await expect(
    adminPage.getByText("Aprobación del comprador registrada. Le avisamos para que pague."),
  ).toBeVisible();
}

async function bellCount(page: Page): Promise<string> {
  return (
    await page
      .getByRole("link", { name: /Notificaciones/ })
      .first()
      .innerText()
  ).trim();
}

async function quoteAs(
  page: Page,
  requestId: number,
  amount: string,
  notes: string,
  withFile: boolean,
) {
  await page.goto(`/partner/assignments/${requestId}/quote`);
  await page.locator('input[name="amount"]').fill(amount);
  await page.locator('textarea[name="notes"]').fill(notes);
  if (withFile)
    await page.locator('input[name="file"]').setInputFiles(pdfFile("cotizacion-proveedor.pdf"));
  await page.getByRole("button", { name: "Enviar Cotización" }).click();
  await expect(page).toHaveURL(/\/partner\/assignments$/);
}

// The journey and the pages its notifications open are two tests of one serial group: the second
// reads what the first produced, and each keeps a short budget on a busy machine.
test.describe.serial("recorrido completo", () => {
  let people: Record<"buyer" | "admin" | "partner", TestUser> | null = null;
  // The journey's admin outlives its test for the second one; it goes with the group.
  test.afterAll(({ server }) => {
    if (people) server.sql.prepare("DELETE FROM users WHERE id = ?").run(people.admin.id);
  });

  test("recorrido: solicitud → asignación → cotización del socio → aprobación → envío al comprador", async ({
    server,
    createUser,
    pageAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer", companyName: "Petrolera Ficticia S.A." });
    const admin = await createUser({ role: "admin", keepAfterTest: true });
    const partner = await createUser({ role: "partner", companyName: "Tuberías Sur Ficticias" });
    const buyerPage = await pageAs(buyer);
    const adminPage = await pageAs(admin);
    const partnerPage = await pageAs(partner);
    const title = `Válvulas de compuerta ${tag()}`;

    // 1. The buyer creates a request with a PDF.
    await buyerPage.goto("/buyer/quotes/new");
    await axe(buyerPage);
    await screenshots(buyerPage, "buyer-quote-new", testInfo);
    await buyerPage.getByLabel("Título de la solicitud").fill(title);
    await buyerPage
      .getByLabel("Descripción (opcional)")
      .fill("200 unidades de 4 pulgadas, clase 150, entrega en Veracruz.");
    await buyerPage.locator('input[name="file"]').setInputFiles(pdfFile());
    await buyerPage.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(buyerPage.getByText("¡Cotización enviada!").first()).toBeVisible();
    const requestId = Number(/\/buyer\/quotes\/(\d+)$/.exec(buyerPage.url())![1]);
    await expect(buyerPage.getByText("Pendiente").first()).toBeVisible();
    const stored = server.sql
      .prepare("SELECT status, file_name, file_key FROM quote_requests WHERE id = ?")
      .get(requestId) as { status: string; file_name: string; file_key: string };
    expect(stored).toMatchObject({ status: "pending", file_name: "requerimientos.pdf" });
    expect(stored.file_key).not.toContain("requerimientos");
    await waitForMail(server, admin.email, "Nueva solicitud de cotización");

    // 2. The admin assigns a partner.
    await adminPage.goto(`/admin/quotes/${requestId}`);
    await adminPage.getByLabel("Asignar socio").selectOption(String(partner.id));
    await adminPage.getByRole("button", { name: "Asignar", exact: true }).click();
    await expect(adminPage.getByText("Socio asignado a la solicitud.")).toBeVisible();
    await waitForMail(server, partner.email, "Nueva solicitud de cotización asignada");
    await waitForMail(server, buyer.email, "Socio asignado a tu solicitud");

    // 3. The partner quotes with a file.
    await quoteAs(partnerPage, requestId, "1450.25", "Incluye certificados de calidad.", true);
    await expect(partnerPage.getByText("Oferta enviada", { exact: true }).first()).toBeVisible();

    // 4. The admin approves the partner's quote and sends the official quote to the buyer.
    await adminPage.goto(`/admin/quotes/${requestId}`);
    await expect(adminPage.getByTestId(`cotizacion-socio-${partner.id}`)).toHaveText(
      "USD 1,450.25",
    );
    await adminPage
      .getByRole("button", { name: "Aprobar la cotización de Tuberías Sur Ficticias" })
      .click();
    await expect(
      adminPage.getByText("Cotización del socio aprobada: se creó la cotización oficial."),
    ).toBeVisible();
    // Never one click: without a note saying how the buyer approved, nothing changes.
    await adminPage
      .getByText("Registrar aprobación del comprador", { exact: true })
      .first()
      .click();
    await adminPage.getByLabel("Cómo aprobó el comprador").fill("   ");
    await adminPage.getByRole("button", { name: "Registrar aprobación del comprador" }).click();
    await expect(
      adminPage
        .getByText("Indica cómo aprobó el comprador (teléfono, correo, orden firmada…).")
        .first(),
    ).toBeVisible();
    expect(
      server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId),
    ).toEqual({ status: "quoted" });
    await recordBuyerApproval(adminPage, "Por teléfono con el comprador, 28/11");
    await waitForMail(server, partner.email, "¡Tu cotización fue seleccionada!");

    // 5. The buyer sees it approved, with a way to pay, and was told at every step.
    await buyerPage.goto(`/buyer/quotes/${requestId}`);
    await expect(buyerPage.getByText("Aprobado").first()).toBeVisible();
    await expect(buyerPage.getByTestId("monto-oficial")).toHaveText("USD 1,450.25");
    await expect(buyerPage.getByRole("link", { name: "Pagar" })).toBeVisible();
    expect(Number(await bellCount(buyerPage))).toBeGreaterThanOrEqual(3);
    await buyerPage.goto("/notifications");
    // Told as what happened: the team recorded its approval, and how.
    await expect(buyerPage.getByText("El equipo registró tu aprobación")).toBeVisible();
    await expect(buyerPage.getByText(/\(Por teléfono con el comprador, 28\/11\)/)).toBeVisible();
    await waitForMail(server, buyer.email, "Tu cotización oficial está lista");
    await waitForMail(server, buyer.email, "El equipo registró tu aprobación");
    expect(
      server.sql
        .prepare(
          "SELECT note FROM request_status_history WHERE quote_request_id = ? AND to_status = 'approved'",
        )
        .get(requestId),
    ).toEqual({
      note: "Aprobación del comprador registrada por el equipo: Por teléfono con el comprador, 28/11",
    });
    expect(
      server.sql
        .prepare(
          "SELECT to_status FROM request_status_history WHERE quote_request_id = ? ORDER BY id",
        )
        .all(requestId),
    ).toEqual([
      { to_status: "pending" },
      { to_status: "assigned" },
      { to_status: "quoted" },
      { to_status: "approved" },
    ]);

    people = { buyer, admin, partner };
  });

  test("cada notificación del recorrido abre su página, para los tres roles", async ({
    pageAs,
  }) => {
    const { buyer, admin, partner } = people!;
    const [buyerPage, partnerPage, adminPage] = await Promise.all([
      pageAs(buyer),
      pageAs(partner),
      pageAs(admin),
    ]);
    expect(await followEachNotification(buyerPage)).toEqual(
      expect.arrayContaining([
        "¡Cotización enviada!",
        "Socio asignado a tu solicitud",
        "Tu cotización oficial está lista",
        "El equipo registró tu aprobación",
      ]),
    );
    expect(await followEachNotification(partnerPage)).toEqual(
      expect.arrayContaining([
        "Nueva solicitud de cotización asignada",
        "¡Tu cotización fue seleccionada!",
      ]),
    );
    expect(await followEachNotification(adminPage)).toEqual(
      expect.arrayContaining(["Nueva solicitud de cotización", "Nueva cotización de socio"]),
    );
  });
});

test("el administrador asigna dos socios desde la lista; un duplicado se rechaza con el aviso", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const partnerA = await createUser({ role: "partner", companyName: "Válvulas Norte Ficticias" });
  const partnerB = await createUser({ role: "partner", companyName: "Tuberías Sur Ficticias" });
  const title = `Válvulas de compuerta ${tag()}`;
  const requestId = insertRequest(server, { buyer, title });
  const adminPage = await pageAs(admin);

  await adminPage.goto("/admin/quotes");
  await expect(adminPage.getByTestId("stat-Pendientes")).not.toHaveText("0");
  await axe(adminPage);
  await screenshots(adminPage, "admin-quotes", testInfo);
  await adminPage.getByRole("link", { name: title, exact: true }).click();
  await expect(adminPage).toHaveURL(new RegExp(`/admin/quotes/${requestId}$`));
  await axe(adminPage);
  for (const [index, partner] of [partnerA, partnerB].entries()) {
    await adminPage.getByLabel("Asignar socio").selectOption(String(partner.id));
    await adminPage.getByRole("button", { name: "Asignar", exact: true }).click();
    await expect(adminPage.getByText("Socio asignado a la solicitud.")).toBeVisible();
    // The first toast may still be up: wait for this assignment's page, so that no request of the
    // browser's is still on its way when the duplicate below reads its flashed refusal.
    await expect(
      adminPage.getByRole("heading", { name: `Socios asignados (${index + 1})` }),
    ).toBeVisible();
  }
  // Refusals come back to the detail page with the message next to the form.
  const duplicate = await adminPage.request.post(`/admin/quotes/${requestId}/assign`, {
    form: { partner_id: String(partnerA.id) },
  });
  expect(duplicate.url()).toMatch(new RegExp(`/admin/quotes/${requestId}$`));
  expect(await duplicate.text()).toContain("Este partner ya está asignado a esta cotización");
  expect(
    server.sql
      .prepare("SELECT count(*) AS n FROM partner_assignments WHERE quote_request_id = ?")
      .get(requestId),
  ).toEqual({ n: 2 });
  await waitForMail(server, partnerA.email, "Nueva solicitud de cotización asignada");
  await waitForMail(server, partnerB.email, "Nueva solicitud de cotización asignada");
  await waitForMail(server, buyer.email, "Socio asignado a tu solicitud");
});

test("dos socios cotizan la misma solicitud (uno con coma decimal, otro con archivo)", async ({
  server,
  createUser,
  pageAs,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const partnerA = await createUser({ role: "partner" });
  const partnerB = await createUser({ role: "partner" });
  const title = `Válvulas de compuerta ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "assigned",
    partners: [partnerA, partnerB],
  });
  const pageA = await pageAs(partnerA);
  const pageB = await pageAs(partnerB);

  await pageA.goto("/partner");
  await expect(pageA.getByText(title).first()).toBeVisible();
  await quoteAs(pageA, requestId, "1500,50", "Entrega en 15 días.", false);
  await quoteAs(pageB, requestId, "1450.25", "Incluye certificados de calidad.", true);
  await expect(pageB.getByText("Oferta enviada", { exact: true }).first()).toBeVisible();
  expect(
    server.sql
      .prepare(
        "SELECT partner_id, quoted_amount_cents FROM partner_quotes WHERE quote_request_id = ? ORDER BY partner_id",
      )
      .all(requestId),
  ).toEqual([
    { partner_id: partnerA.id, quoted_amount_cents: 150050 },
    { partner_id: partnerB.id, quoted_amount_cents: 145025 },
  ]);
});

test("el administrador compara dos cotizaciones, aprueba la más barata y la envía una sola vez", async ({
  server,
  createUser,
  pageAs,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const partnerA = await createUser({ role: "partner", companyName: "Válvulas Norte Ficticias" });
  const partnerB = await createUser({ role: "partner", companyName: "Tuberías Sur Ficticias" });
  const requestId = insertRequest(server, {
    buyer,
    title: `Válvulas de compuerta ${tag()}`,
    status: "assigned",
    partners: [partnerA, partnerB],
  });
  insertPartnerQuote(server, { requestId, partner: partnerA, amountCents: 150050 });
  insertPartnerQuote(server, {
    requestId,
    partner: partnerB,
    amountCents: 145025,
    fileName: "cotizacion-proveedor.pdf",
  });
  const adminPage = await pageAs(admin);

  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByText("Cotización Recibida").first()).toBeVisible();
  await expect(adminPage.getByTestId(`cotizacion-socio-${partnerA.id}`)).toHaveText("USD 1,500.50");
  await expect(adminPage.getByTestId(`cotizacion-socio-${partnerB.id}`)).toHaveText("USD 1,450.25");
  await screenshots(adminPage, "admin-quote-compare", testInfo);
  await adminPage
    .getByRole("button", { name: "Aprobar la cotización de Tuberías Sur Ficticias" })
    .click();
  await expect(
    adminPage.getByText("Cotización del socio aprobada: se creó la cotización oficial."),
  ).toBeVisible();
  await expect(adminPage.getByText("USD 72.51")).toBeVisible();
  await recordBuyerApproval(adminPage, "Orden de compra firmada");
  const resend = await adminPage.request.post(`/admin/quotes/${requestId}/buyer-approval`, {
    form: { note: "Otra vez" },
  });
  expect(await resend.text()).toContain("Esta acción no está disponible");
  expect(
    server.sql
      .prepare("SELECT count(*) AS n FROM official_quotes WHERE quote_request_id = ?")
      .get(requestId),
  ).toEqual({ n: 1 });
  expect(
    server.sql
      .prepare("SELECT status, amount_cents FROM payments WHERE quote_request_id = ?")
      .all(requestId),
  ).toEqual([{ status: "pending", amount_cents: 145025 }]);
  await waitForMail(server, partnerB.email, "¡Tu cotización fue seleccionada!");

  // Each partner sees the right badge.
  const pageB = await pageAs(partnerB);
  await pageB.goto("/partner/assignments");
  await expect(pageB.getByText("Seleccionada", { exact: true }).first()).toBeVisible();
  const pageA = await pageAs(partnerA);
  await pageA.goto("/partner/assignments");
  await expect(pageA.getByText("No seleccionada", { exact: true }).first()).toBeVisible();
  await expect(pageA.getByText("Seleccionada", { exact: true })).toHaveCount(0);
});

test("el comprador ve la cotización oficial y descarga el PDF y su archivo con enlaces firmados", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const partnerA = await createUser({ role: "partner" });
  const partnerB = await createUser({ role: "partner" });
  const title = `Válvulas de compuerta ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "approved",
    partners: [partnerA, partnerB],
    fileName: "requerimientos.pdf",
  });
  insertPartnerQuote(server, { requestId, partner: partnerA, amountCents: 150050 });
  const winner = insertPartnerQuote(server, {
    requestId,
    partner: partnerB,
    amountCents: 145025,
    selected: true,
  });
  insertOfficialQuote(server, { requestId, amountCents: 145025, partnerQuoteId: winner.id });
  const buyerPage = await pageAs(buyer);

  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(buyerPage.getByText("Aprobado").first()).toBeVisible();
  await expect(buyerPage.getByTestId("monto-oficial")).toHaveText("USD 1,450.25");
  await expect(buyerPage.getByRole("link", { name: "Pagar" })).toBeVisible();
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-quote-detail", testInfo);
  const pdfHref = await buyerPage.getByRole("link", { name: "Descargar PDF" }).getAttribute("href");
  const pdf = await buyerPage.request.get(pdfHref!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  expect(pdf.headers()["content-disposition"]).toContain("attachment");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const attachmentHref = await buyerPage
    .getByRole("link", { name: "Descargar el archivo de requerimientos" })
    .getAttribute("href");
  const attachment = await buyerPage.request.get(attachmentHref!);
  expect(attachment.status()).toBe(200);
  expect(Buffer.compare(await attachment.body(), PDF)).toBe(0);
  expect(attachment.headers()["x-content-type-options"]).toBe("nosniff");
  // The link is bound to its viewer: an assigned partner cannot reuse it, and an unsigned URL is refused.
  const pageA = await pageAs(partnerA);
  expect((await pageA.request.get(pdfHref!)).status()).toBe(404);
  expect((await buyerPage.request.get(`/files/requests/${requestId}`)).status()).toBe(404);

  await buyerPage.goto("/buyer/quotes");
  await expect(buyerPage.getByRole("link", { name: `Pagar ${title}` })).toBeVisible();
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-quotes", testInfo);
});

test("el comprador rechaza una cotización oficial con un motivo y el administrador recibe el aviso", async ({
  server,
  createUser,
  pageAs,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const requestId = insertRequest(server, {
    buyer,
    title: "Uniformes para 300 empleados",
    status: "quoted",
  });
  insertOfficialQuote(server, { requestId, amountCents: 90000 });
  const buyerPage = await pageAs(buyer);
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  // The reason form sits in a <details>: it opens without JavaScript too.
  await buyerPage.getByText("Rechazar", { exact: true }).click();
  await buyerPage.getByLabel("Motivo (opcional)").fill("El presupuesto aprobado es menor");
  await buyerPage.getByRole("button", { name: "Rechazar cotización" }).click();
  await expect(buyerPage.getByText("Cotización rechazada").first()).toBeVisible();
  await expect(buyerPage.getByText("El presupuesto aprobado es menor").first()).toBeVisible();
  await expect(buyerPage.getByRole("button", { name: "Aprobar cotización" })).toHaveCount(0);
  // The rejected quote is not shown as still valid ("Vigente") on either side.
  await expect(buyerPage.getByRole("region", { name: "Cotización oficial" })).toContainText(
    "Rechazada",
  );
  await expect(buyerPage.getByRole("region", { name: "Cotización oficial" })).not.toContainText(
    "Vigente",
  );
  expect(
    server.sql
      .prepare("SELECT status, rejection_reason FROM quote_requests WHERE id = ?")
      .get(requestId),
  ).toEqual({ status: "rejected", rejection_reason: "El presupuesto aprobado es menor" });
  await waitForMail(server, admin.email, "Cotización rechazada por el comprador");

  // The operator opens the notice, sets the request back by hand, and the buyer's notice opens it.
  const adminPage = await pageAs(admin);
  expect(await followEachNotification(adminPage)).toContain(
    "Cotización rechazada por el comprador",
  );
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByRole("region", { name: "Cotización oficial" })).toContainText(
    "Rechazada",
  );
  await expect(
    adminPage.getByText("La solicitud se cerró sin cotizaciones de socios."),
  ).toBeVisible();
  await adminPage.getByLabel("Estado", { exact: true }).selectOption("assigned");
  await adminPage.getByRole("button", { name: "Actualizar estado" }).click();
  await expect(adminPage.getByText(/Estado actualizado/).first()).toBeVisible();
  expect(await followEachNotification(buyerPage)).toContain("Estado de tu solicitud actualizado");
});
