import fs from "node:fs";
import path from "node:path";
import { test, expect, screenshots, tag, type Server, type TestUser } from "./fixtures";
import { insertPartnerQuote, insertRequest } from "./factories";
import { PDF } from "./files";

/** A request in status `assigned` with a real requirements file, assigned to `partners`. */
function arrangeRequest(
  server: Server,
  buyer: TestUser,
  partners: TestUser[],
  title: string,
  description?: string,
): number {
  return insertRequest(server, { buyer, title, description, status: "assigned", partners });
}

interface QuoteRow {
  id: number;
  quoted_amount_cents: number;
  notes: string | null;
  file_key: string | null;
  file_name: string | null;
  is_selected: number;
}

function quotesOf(server: Server, requestId: number): QuoteRow[] {
  return server.sql
    .prepare("SELECT * FROM partner_quotes WHERE quote_request_id = ? ORDER BY id")
    .all(requestId) as QuoteRow[];
}

test.describe("Área de socio", () => {
  test("panel y lista: la asignación pendiente con su cliente, búsqueda y filtro", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer", companyName: "Petrolera del Golfo S.A." });
    const partner = await createUser({ role: "partner" });
    const title = `Tubería de acero ${tag()}`;
    const requestId = arrangeRequest(server, buyer, [partner], title);
    await loginAs(partner, page.context());

    // Dashboard: one pending assignment with a "Cotizar" link.
    await page.goto("/partner");
    await expect(page.getByRole("heading", { name: "Tablero", level: 1 })).toBeVisible();
    await expect(page.getByTestId("stat-Asignaciones")).toHaveText("1");
    await expect(page.getByTestId("stat-Pendientes de cotizar")).toHaveText("1");
    await expect(page.getByRole("link", { name: title, exact: true })).toHaveAttribute(
      "href",
      `/partner/assignments/${requestId}`,
    );
    await expect(page.getByRole("link", { name: `Cotizar «${title}»` })).toHaveAttribute(
      "href",
      `/partner/assignments/${requestId}/quote`,
    );
    await axe(page);
    await screenshots(page, "partner-dashboard", testInfo);

    // List: the card with its badge, client and actions.
    await page.goto("/partner/assignments");
    await expect(page.getByRole("heading", { name: "Mis Asignaciones" })).toBeVisible();
    await expect(page.getByTestId("count-text")).toHaveText("1 de 1 asignaciones");
    const card = page.getByTestId("assignment-card").filter({ hasText: title });
    await expect(card.getByText("Pendiente de cotizar", { exact: true })).toBeVisible();
    // A new request's deadline is three days away («días para cotizar»).
    await expect(card.getByTestId("deadline-note")).toHaveText("Vence en 3 días");
    await expect(card.getByText("Petrolera del Golfo S.A.")).toBeVisible();
    await expect(card.getByRole("link", { name: /Descargar requisitos\.pdf/ })).toBeVisible();
    await expect(card.getByRole("link", { name: /Editar Cotización/ })).toHaveCount(0);
    await axe(page);
    await screenshots(page, "partner-assignments", testInfo);

    // Search and filter through the plain GET form.
    await page.getByLabel("Buscar", { exact: true }).fill("no-existe-nada");
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.getByText("No se encontraron resultados")).toBeVisible();
    await expect(page.getByTestId("count-text")).toHaveText("0 de 1 asignaciones");
    await page.getByLabel("Buscar", { exact: true }).fill("petrolera");
    await page.getByLabel("Filtrar").selectOption("pending");
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/filter=pending/);
    await expect(page.getByTestId("count-text")).toHaveText("1 de 1 asignaciones");
  });

  test("recorrido: desde la lista envía una cotización con PDF tras corregir los errores", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const title = `Tubería de acero ${tag()}`;
    const requestId = arrangeRequest(server, buyer, [partner], title);
    await loginAs(partner, page.context());
    await page.goto("/partner/assignments");
    const card = page.getByTestId("assignment-card").filter({ hasText: title });

    // New quote: validation first, then a real PDF.
    await card.getByRole("link", { name: /^Enviar Cotización/ }).click();
    await expect(page).toHaveURL(new RegExp(`/partner/assignments/${requestId}/quote$`));
    await expect(page.getByRole("heading", { name: "Nueva Cotización" })).toBeVisible();
    await expect(page.getByRole("complementary").getByText(title)).toBeVisible();
    await screenshots(page, "partner-quote-new", testInfo);

    await page.getByLabel("Notas (opcional)").fill("Entrega en 15 días hábiles.");
    await page.getByRole("button", { name: "Enviar Cotización" }).click();
    await expect(page.getByText("Por favor ingresa un monto válido")).toBeVisible();
    await expect(page.getByLabel("Notas (opcional)")).toHaveValue("Entrega en 15 días hábiles.");

    await page.getByLabel(/^Monto/).fill("1234,50");
    await page.getByLabel("Archivo de cotización (opcional)").setInputFiles({
      name: "falso.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("esto no es un PDF"),
    });
    await page.getByRole("button", { name: "Enviar Cotización" }).click();
    await expect(page.getByText(/Tipo de archivo no permitido/)).toBeVisible();
    await expect(page.getByLabel(/^Monto/)).toHaveValue("1234,50");
    expect(quotesOf(server, requestId)).toEqual([]);
    // One scan of the form, in its fullest state: with the field errors shown.
    await axe(page);
    await screenshots(page, "partner-quote-errors", testInfo);

    await page.getByLabel(/^Monto/).fill("50");
    await page.getByLabel("Archivo de cotización (opcional)").setInputFiles({
      name: "cotizacion.pdf",
      mimeType: "application/pdf",
      buffer: PDF,
    });
    await page.getByRole("button", { name: "Enviar Cotización" }).click();
    await expect(page.getByText(/El monto mínimo de cotización es/)).toBeVisible();
    expect(quotesOf(server, requestId)).toEqual([]);

    await page.getByLabel(/^Monto/).fill("1234,50");
    await page.getByLabel("Archivo de cotización (opcional)").setInputFiles({
      name: "cotizacion.pdf",
      mimeType: "application/pdf",
      buffer: PDF,
    });
    await page.getByRole("button", { name: "Enviar Cotización" }).click();
    await expect(page).toHaveURL(/\/partner\/assignments$/);
    await expect(page.getByTestId("toast")).toContainText("Cotización enviada");
    const [created] = quotesOf(server, requestId);
    expect(created).toMatchObject({
      quoted_amount_cents: 123_450,
      notes: "Entrega en 15 días hábiles.",
      file_name: "cotizacion.pdf",
      is_selected: 0,
    });
    expect(fs.existsSync(path.join(server.uploadsDir, created!.file_key!))).toBe(true);
    await expect(card.getByText("Oferta enviada", { exact: true })).toBeVisible();
    await expect(card.getByText("USD 1,234.50")).toBeVisible();
    await expect(page.getByTestId("stat-Cotizaciones enviadas")).toHaveText("1");
    await expect(page.getByTestId("stat-Pendientes de cotizar")).toHaveText("0");
    await expect(card.getByRole("link", { name: /^Enviar Cotización/ })).toHaveCount(0);
    await expect(card.getByRole("link", { name: /^Editar Cotización/ })).toBeVisible();
  });

  test("edita su cotización (el archivo nuevo reemplaza al anterior) y la ve en el detalle y en Mis Cotizaciones", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const title = `Tubería de acero ${tag()}`;
    const requestId = arrangeRequest(server, buyer, [partner], title);
    const { file: original } = insertPartnerQuote(server, {
      requestId,
      partner,
      amountCents: 123_450,
      notes: "Entrega en 15 días hábiles.",
      fileName: "cotizacion.pdf",
    });
    await loginAs(partner, page.context());
    await page.goto("/partner/assignments");
    const card = page.getByTestId("assignment-card").filter({ hasText: title });

    // Edit: the form is prefilled; a new file replaces (and deletes) the old one.
    await card.getByRole("link", { name: /^Editar Cotización/ }).click();
    await expect(page.getByRole("heading", { name: "Editar Cotización" })).toBeVisible();
    await expect(page.getByLabel(/^Monto/)).toHaveValue("1234.50");
    await expect(page.getByText("Archivo actual: cotizacion.pdf", { exact: false })).toBeVisible();
    await page.getByLabel(/^Monto/).fill("1500.00");
    await page.getByLabel("Archivo de cotización (opcional)").setInputFiles({
      name: "cotizacion-v2.pdf",
      mimeType: "application/pdf",
      buffer: PDF,
    });
    await page.getByRole("button", { name: "Actualizar Cotización" }).click();
    await expect(page).toHaveURL(/\/partner\/assignments$/);
    await expect(page.getByTestId("toast")).toContainText("Cotización actualizada");
    const updated = quotesOf(server, requestId);
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      quoted_amount_cents: 150_000,
      file_name: "cotizacion-v2.pdf",
    });
    expect(fs.existsSync(path.join(server.uploadsDir, original!.key))).toBe(false);
    expect(fs.existsSync(path.join(server.uploadsDir, updated[0]!.file_key!))).toBe(true);

    // Detail: own quote card, the quote file and the client's contact.
    await page.goto(`/partner/assignments/${requestId}`);
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    await expect(page.getByTestId("quote-amount")).toHaveText("USD 1,500.00");
    await expect(page.getByText("Entrega en 15 días hábiles.")).toBeVisible();
    await expect(page.getByText(buyer.email)).toBeVisible();
    await expect(page.getByRole("link", { name: "Editar Cotización" })).toBeVisible();
    const quoteFile = page
      .getByRole("region", { name: "Mi cotización" })
      .getByRole("link", { name: "Descargar" });
    const download = await page.request.get((await quoteFile.getAttribute("href"))!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toContain("cotizacion-v2.pdf");
    await axe(page);
    await screenshots(page, "partner-assignment-detail", testInfo);

    // My quotes.
    await page.goto("/partner/quotes");
    await expect(page.getByRole("heading", { name: "Mis Cotizaciones" })).toBeVisible();
    const row = page.getByTestId("partner-quote").filter({ hasText: title });
    await expect(row.getByText("USD 1,500.00")).toBeVisible();
    // Still under evaluation: neither "selected" nor "not selected" yet.
    await expect(row.getByText("Oferta enviada", { exact: true })).toBeVisible();
    await expect(row.getByRole("link", { name: /Editar cotización/ })).toBeVisible();
    await axe(page);
    await screenshots(page, "partner-quotes", testInfo);
  });

  test("su cotización seleccionada: insignia ganadora, felicitación, sin edición y contadores", async ({
    page,
    server,
    createUser,
    loginAs,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const requestId = arrangeRequest(server, buyer, [partner], `Tubería de acero ${tag()}`);
    insertPartnerQuote(server, {
      requestId,
      partner,
      amountCents: 150_000,
      fileName: "cotizacion.pdf",
      selected: true,
    });
    server.sql.prepare("UPDATE quote_requests SET status = 'quoted' WHERE id = ?").run(requestId);
    await loginAs(partner, page.context());

    await page.goto(`/partner/assignments/${requestId}`);
    // The partner's own outcome, not the request's status (DECISIONS §6).
    await expect(page.getByText("Seleccionada", { exact: true })).toBeVisible();
    await expect(page.getByText(/¡Felicitaciones!/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Editar Cotización" })).toHaveCount(0);
    await page.goto(`/partner/assignments/${requestId}/quote`);
    await expect(page.getByText("Tu cotización ya fue seleccionada")).toBeVisible();
    await expect(page.getByLabel(/^Monto/)).toHaveCount(0);
    await screenshots(page, "partner-quote-closed", testInfo);
    await page.goto("/partner");
    await expect(page.getByTestId("stat-Cotizaciones seleccionadas")).toHaveText("1");
    await expect(page.getByTestId("success-rate")).toHaveText("100 %");
    await page.goto("/partner/assignments?filter=won");
    await expect(page.getByTestId("count-text")).toHaveText("1 de 1 asignaciones");
  });

  test("una solicitud asignada a otro socio responde 404 y su POST no cambia nada", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer" });
    const owner = await createUser({ role: "partner" });
    const intruder = await createUser({ role: "partner" });
    const secret = `Contrato confidencial ${tag()}`;
    const requestId = arrangeRequest(server, buyer, [owner], secret, "Detalles privados");
    await loginAs(intruder, page.context());

    for (const url of [
      `/partner/assignments/${requestId}`,
      `/partner/assignments/${requestId}/quote`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Solicitud no encontrada" })).toBeVisible();
      await expect(page.getByText(/no existe o no tienes permiso/)).toBeVisible();
      await expect(page.getByText(secret)).toHaveCount(0);
      expect(await page.content()).not.toContain("Detalles privados");
    }
    await axe(page);
    await screenshots(page, "partner-not-found", testInfo);

    const post = await page.request.post(`/partner/assignments/${requestId}/quote`, {
      multipart: {
        amount: "999.00",
        notes: "intento",
        file: { name: "cotizacion.pdf", mimeType: "application/pdf", buffer: PDF },
      },
    });
    expect(post.status()).toBe(404);
    expect(quotesOf(server, requestId)).toEqual([]);
    const response = await page.goto("/partner/assignments/999999");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Solicitud no encontrada")).toBeVisible();

    // The intruder's own list does not show it either.
    await page.goto(`/partner/assignments?q=${encodeURIComponent("Contrato confidencial")}`);
    await expect(page.getByText("No tienes asignaciones aún")).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
  });

  test("/partner/profile lleva al perfil compartido", async ({ page, createUser, loginAs }) => {
    const partner = await createUser({ role: "partner" });
    await loginAs(partner, page.context());
    await page.goto("/partner/profile");
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: "Mi perfil" })).toBeVisible();
    await expect(page.locator("dd", { hasText: /^Socio$/ })).toBeVisible();
  });
});
