import fs from "node:fs";
import path from "node:path";
import {
  test,
  expect,
  waitForMail,
  screenshots,
  tag,
  type Server,
  type TestUser,
} from "./fixtures";
import { insertPartnerQuote, insertRequest } from "./factories";
import { pdfFile } from "./files";

const DAY = 86_400_000;

/** A `datetime-local` value `days` from now, in UTC (the zone the form reads it in). */
const deadlineIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 16);
const dayIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface RequestRow {
  title: string;
  status: string;
  quote_deadline: string;
  needed_by: string | null;
  file_key: string;
  file_name: string;
  cancellation_reason: string | null;
}

function requestRow(server: Server, id: number): RequestRow {
  return server.sql
    .prepare(
      "SELECT title, status, quote_deadline, needed_by, file_key, file_name, cancellation_reason FROM quote_requests WHERE id = ?",
    )
    .get(id) as RequestRow;
}

/** What the operator's assignment leaves: the partner invited and the request `assigned`. */
function assign(server: Server, requestId: number, partner: TestUser) {
  const at = new Date().toISOString();
  server.sql
    .prepare(
      "INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)",
    )
    .run(partner.id, requestId, at);
  server.sql
    .prepare("UPDATE quote_requests SET status = 'assigned', updated_at = ? WHERE id = ?")
    .run(at, requestId);
  server.sql
    .prepare(
      "INSERT INTO request_status_history (quote_request_id, from_status, to_status, created_at) VALUES (?, 'pending', 'assigned', ?)",
    )
    .run(requestId, at);
}

function notificationTitles(server: Server, user: TestUser): string[] {
  return (
    server.sql
      .prepare("SELECT title FROM notifications WHERE user_id = ? ORDER BY id")
      .all(user.id) as { title: string }[]
  ).map((n) => n.title);
}

test("recorrido del comprador: plazo y fecha requerida → edición con nuevo archivo → oferta → cancelación con motivo", async ({
  server,
  createUser,
  pageAs,
  axe,
  javaScriptEnabled,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer", companyName: "Petrolera Ficticia S.A." });
  const partner = await createUser({ role: "partner", companyName: "Válvulas Norte Ficticias" });
  const admin = await createUser({ role: "admin" });
  const buyerPage = await pageAs(buyer);
  const partnerPage = await pageAs(partner);
  const title = `Válvulas de compuerta ${tag()}`;
  const deadline = deadlineIn(10);
  const neededBy = dayIn(20);

  // 1. The buyer creates a request with a deadline (UTC) and a needed-by date.
  await buyerPage.goto("/buyer/quotes/new");
  await axe(buyerPage);
  await expect(buyerPage.getByText(/Hora UTC/)).toBeVisible();
  await buyerPage.getByLabel("Título de la solicitud").fill(title);
  // A deadline already past is refused; the file sent with it is asked for again without
  // JavaScript (a new page cannot hold it), and stays in its input with JavaScript.
  await buyerPage.getByLabel("Plazo para cotizar (UTC)").fill("2020-01-01T10:00");
  const file = buyerPage.locator('input[name="file"]');
  await file.setInputFiles(pdfFile("requisitos.pdf"));
  await buyerPage.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(
    buyerPage.getByText("El plazo para cotizar debe ser posterior a este momento."),
  ).toBeVisible();
  const unkept = buyerPage.getByTestId("archivo-no-conservado");
  if (javaScriptEnabled) {
    await expect(unkept).toHaveCount(0);
    expect(await file.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(1);
  } else {
    await expect(unkept).toHaveText(
      "No conservamos «requisitos.pdf» al devolverte el formulario: vuelve a adjuntarlo antes de enviar.",
    );
  }
  await buyerPage.getByLabel("Plazo para cotizar (UTC)").fill(deadline);
  await buyerPage.getByLabel("Fecha requerida (opcional)").fill(neededBy);
  await file.setInputFiles(pdfFile("requisitos.pdf"));
  await buyerPage.getByRole("button", { name: "Enviar solicitud" }).click();
  await expect(buyerPage.getByText("¡Cotización enviada!").first()).toBeVisible();
  const requestId = Number(/\/buyer\/quotes\/(\d+)$/.exec(buyerPage.url())![1]);
  const created = requestRow(server, requestId);
  expect(created).toMatchObject({
    status: "pending",
    quote_deadline: `${deadline}:00.000Z`,
    needed_by: neededBy,
    file_name: "requisitos.pdf",
  });
  await expect(buyerPage.getByText("Plazo para cotizar", { exact: true })).toBeVisible();
  await expect(buyerPage.getByTestId("plazo-para-cotizar")).toContainText("UTC");
  await expect(buyerPage.getByTestId("tiempo-restante")).toHaveText(/^Quedan? \d+ días?/);
  await expect(buyerPage.getByText("Fecha requerida", { exact: true })).toBeVisible();
  await expect(buyerPage.getByTestId("fecha-requerida")).not.toHaveText("Sin fecha indicada");
  await axe(buyerPage);

  // 2. An operator assigns the partner; the buyer edits the title and replaces the file.
  assign(server, requestId, partner);
  await buyerPage.reload();
  await buyerPage.getByRole("link", { name: "Editar solicitud" }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/buyer/quotes/${requestId}/edit$`));
  await axe(buyerPage);
  await expect(buyerPage.getByLabel("Plazo para cotizar (UTC)")).toHaveValue(deadline);
  await expect(buyerPage.getByLabel("Fecha requerida (opcional)")).toHaveValue(neededBy);
  const newTitle = `${title} de 6 pulgadas`;
  await buyerPage.getByLabel("Título de la solicitud").fill(newTitle);
  await buyerPage.locator('input[name="file"]').setInputFiles(pdfFile("requisitos-v2.pdf"));
  await buyerPage.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/buyer/quotes/${requestId}$`));
  await expect(buyerPage.getByTestId("toast")).toContainText("Solicitud actualizada");
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(newTitle);
  await expect(buyerPage.getByText("Archivo: requisitos-v2.pdf")).toBeVisible();
  const edited = requestRow(server, requestId);
  expect(edited).toMatchObject({ title: newTitle, file_name: "requisitos-v2.pdf" });
  expect(edited.file_key).not.toBe(created.file_key);
  expect(fs.existsSync(path.join(server.uploadsDir, created.file_key))).toBe(false);
  expect(fs.existsSync(path.join(server.uploadsDir, edited.file_key))).toBe(true);
  expect(notificationTitles(server, partner)).toContain("Solicitud actualizada por el comprador");
  await expect(buyerPage.getByText(/Editada por el comprador: título y archivo/)).toBeVisible();

  // 3. The partner offers: the request can no longer be edited.
  insertPartnerQuote(server, { requestId, partner, amountCents: 145_000 });
  server.sql
    .prepare(
      "UPDATE partner_assignments SET state = 'offered' WHERE quote_request_id = ? AND partner_id = ?",
    )
    .run(requestId, partner.id);
  await buyerPage.reload();
  await expect(buyerPage.getByRole("link", { name: "Editar solicitud" })).toHaveCount(0);
  await expect(buyerPage.getByText("Ya hay ofertas de socios")).toBeVisible();
  await buyerPage.goto(`/buyer/quotes/${requestId}/edit`);
  await expect(buyerPage.getByText(/Un socio ya envió una oferta/)).toBeVisible();
  await expect(buyerPage.getByRole("button", { name: "Guardar cambios" })).toHaveCount(0);

  // 4. The buyer cancels, with a reason, on the confirmation page.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await buyerPage.getByRole("link", { name: "Cancelar solicitud" }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/buyer/quotes/${requestId}/cancel$`));
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-quote-cancel", testInfo);
  await buyerPage.getByRole("button", { name: "Cancelar solicitud" }).click();
  await expect(buyerPage.getByText(/Indica el motivo de la cancelación/)).toBeVisible();
  expect(requestRow(server, requestId).status).toBe("assigned");
  const reason = "El proyecto se pospuso al próximo año.";
  await buyerPage.getByLabel("Motivo de la cancelación").fill(reason);
  await buyerPage.getByRole("button", { name: "Cancelar solicitud" }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/buyer/quotes/${requestId}$`));
  await expect(buyerPage.getByTestId("toast")).toContainText("Solicitud cancelada");
  await expect(buyerPage.getByText("Cancelado", { exact: true }).first()).toBeVisible();
  await expect(buyerPage.getByTestId("cancelacion")).toContainText(`Motivo: ${reason}`);
  await expect(buyerPage.getByRole("link", { name: "Cancelar solicitud" })).toHaveCount(0);
  await expect(
    buyerPage.getByRole("list", { name: "Progreso de la solicitud" }).getByRole("listitem"),
  ).toHaveText([/Solicitud creada/, /Socio asignado/, /Solicitud cancelada/]);
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-quote-cancelled", testInfo);
  expect(requestRow(server, requestId)).toMatchObject({
    status: "cancelled",
    cancellation_reason: reason,
  });

  // 5. The partner was told, in the app and by mail.
  await partnerPage.goto("/notifications");
  await expect(partnerPage.getByText("Solicitud cancelada por el comprador").first()).toBeVisible();
  await waitForMail(server, partner.email, "Solicitud cancelada por el comprador");
  // The reason is for the team, as the form says: not on the partner's page.
  await partnerPage.goto(`/partner/assignments/${requestId}`);
  await expect(partnerPage.getByText("Cancelada por el comprador").first()).toBeVisible();
  await expect(partnerPage.getByText(reason.slice(0, -1))).toHaveCount(0);

  // 6. So were the operators, with the buyer's reason.
  const adminPage = await pageAs(admin);
  await adminPage.goto("/notifications");
  await expect(adminPage.getByText("Solicitud cancelada por el comprador").first()).toBeVisible();
  // Quoted, with one full stop after the quote (the reason's own is dropped).
  await expect(adminPage.getByText(`Motivo: «${reason.slice(0, -1)}».`).first()).toBeVisible();
  await waitForMail(server, admin.email, "Solicitud cancelada por el comprador");
});

test("lo escrito en la descripción mientras la página carga se guarda (React la rellenaba de nuevo al hidratar)", async ({
  server,
  createUser,
  pageAs,
  javaScriptEnabled,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const requestId = insertRequest(server, { buyer, title: `Lubricantes ${tag()}` });
  const page = await pageAs(buyer);
  // The page's entry module arrives late, as on a slow phone connection: there is time to type
  // before hydration (holding back every module made a waterfall of delays under load).
  await page.route(/\/entry\.client-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  await page.goto(`/buyer/quotes/${requestId}/edit`, { waitUntil: "commit" });
  const description = page.getByLabel("Descripción");
  await description.fill("Tambores de 200 litros de aceite hidráulico ISO 68, entrega en planta.");
  if (javaScriptEnabled)
    await page.waitForFunction(() => "__remixRouter" in window, null, { timeout: 30_000 });
  await expect(description).toHaveValue(
    "Tambores de 200 litros de aceite hidráulico ISO 68, entrega en planta.",
  );
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page).toHaveURL(new RegExp(`/buyer/quotes/${requestId}$`));
  expect(
    server.sql.prepare("SELECT description FROM quote_requests WHERE id = ?").get(requestId),
  ).toEqual({
    description: "Tambores de 200 litros de aceite hidráulico ISO 68, entrega en planta.",
  });
});
