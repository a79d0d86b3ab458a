import fs from "node:fs";
import type { Page } from "@playwright/test";
import { csvRows, csvText } from "../csv";
import { expect, tag, test, uniqueEmail } from "./fixtures";
import { insertOfficialQuote, insertRequest } from "./factories";
import { PDF } from "./files";

/** Clicks «Exportar CSV» and reads the file back as a spreadsheet would (BOM checked). */
async function exportCsv(page: Page, filename: RegExp) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /Exportar CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(filename);
  const bytes = fs.readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return csvRows(csvText(new Uint8Array(bytes)));
}

test.describe("Exportar a CSV pagos, usuarios y contactos", () => {
  test("pagos: el archivo trae solo los pagos filtrados, con acentos, comas y comillas", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const t = tag();
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer", companyName: "Compañía Minera Ñuble, S.A." });
    const title = `Válvulas de compuerta, "DN50" ${t}`;
    const waiting = insertRequest(server, { buyer, title, status: "approved" });
    insertOfficialQuote(server, {
      requestId: waiting,
      amountCents: 123_456,
      payment: {
        method: "transfer",
        proof: { name: "comprobante.pdf", type: "application/pdf", buffer: PDF },
      },
    });
    const refused = insertRequest(server, { buyer, title: `Guantes ${t}`, status: "approved" });
    const { paymentId } = insertOfficialQuote(server, { requestId: refused, amountCents: 5_000 });
    server.sql
      .prepare("UPDATE payments SET status = 'rejected', rejection_reason = ? WHERE id = ?")
      .run("Comprobante ilegible", paymentId);

    await loginAs(admin, page.context());
    await page.goto("/admin/payments");
    await page.getByLabel("Buscar por título o comprador").fill(t);
    await page.getByLabel("Estado", { exact: true }).selectOption("pending");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${t}&status=pending(&desde=&hasta=&orden=)?$`));
    await expect(page.getByText("1 pago", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /Exportar CSV/ })).toHaveAttribute(
      "href",
      `/admin/payments.csv?q=${t}&status=pending`,
    );

    const { header, rows } = await exportCsv(page, /^pagos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(header).toEqual([
      "Pago",
      "Solicitud",
      "Título",
      "Comprador",
      "Empresa",
      "Correo",
      "Monto (USD)",
      "Comisión (USD)",
      "Método",
      "Estado",
      "Comprobante enviado (UTC)",
      "Confirmado (UTC)",
      "Motivo del rechazo",
      "Creado (UTC)",
    ]);
    // The rejected payment of the same search is left out: the status filter is honoured.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      Solicitud: String(waiting),
      Título: title,
      Comprador: "Beatriz Prueba",
      Empresa: "Compañía Minera Ñuble, S.A.",
      Correo: buyer.email,
      "Monto (USD)": "1234.56",
      "Comisión (USD)": "61.73",
      Método: "Transferencia bancaria",
      Estado: "Pendiente",
      "Motivo del rechazo": "",
    });
  });

  test("usuarios: el archivo trae solo el rol y la búsqueda filtrados", async ({
    page,
    createUser,
    loginAs,
  }) => {
    const t = tag();
    const company = `Ferretería Ñandú ${t}`;
    const admin = await createUser({ role: "admin" });
    const partner = await createUser({
      role: "partner",
      firstName: "José",
      lastName: "Núñez",
      companyName: company,
    });
    const buyer = await createUser({ role: "buyer", companyName: company });

    await loginAs(admin, page.context());
    await page.goto("/admin/users");
    await page.getByLabel("Buscar por nombre, correo o empresa").fill(t);
    await page.locator("#filter-role").selectOption("partner");
    await page.getByRole("button", { name: "Buscar", exact: true }).click();
    await expect(page).toHaveURL(
      new RegExp(`\\?q=${t}&role=partner(&status=)?(&desde=&hasta=&orden=)?$`),
    );
    await expect(page.getByText("1 usuario con los filtros aplicados.")).toBeVisible();

    const { rows } = await exportCsv(page, /^usuarios-\d{4}-\d{2}-\d{2}\.csv$/);
    // The buyer of the same company is left out: the role filter is honoured.
    expect(rows).toEqual([
      expect.objectContaining({
        Usuario: String(partner.id),
        Nombre: "José",
        Apellidos: "Núñez",
        Correo: partner.email,
        Empresa: company,
        // A leading "+" is kept as text, not read as a formula.
        Teléfono: "'+52 55 1234 5678",
        Rol: "Socio",
        Verificación: "Verificado",
      }),
    ]);
    expect(rows.map((r) => r["Correo"])).not.toContain(buyer.email);
  });

  test("contactos: el archivo trae solo los mensajes buscados, saltos de línea incluidos", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const t = tag();
    const message = `Necesito cotizar válvulas, "urgentes" ${t}.\nGracias.`;
    const insert = server.sql.prepare(
      "INSERT INTO contact_submissions (name, email, phone, company, message) VALUES (?, ?, ?, ?, ?)",
    );
    const email = uniqueEmail("lucia");
    insert.run("Lucía Peña", email, null, "Minera Ñuble, Ltda.", message);
    insert.run("Otro Contacto", uniqueEmail("otro"), null, null, "Mensaje sin relación.");

    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto("/admin/contacts");
    await page.getByLabel("Buscar por nombre, correo, empresa o mensaje").fill(t);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.getByText("1 mensaje encontrado")).toBeVisible();

    const { header, rows } = await exportCsv(page, /^contactos-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(header).toEqual([
      "N.º",
      "Recibido (UTC)",
      "Nombre",
      "Correo",
      "Teléfono",
      "Empresa",
      "Mensaje",
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        Nombre: "Lucía Peña",
        Correo: email,
        Teléfono: "",
        Empresa: "Minera Ñuble, Ltda.",
        Mensaje: message,
      }),
    ]);
  });

  test("solo un administrador puede descargarlos", async ({ page, createUser, loginAs }) => {
    await loginAs(await createUser({ role: "buyer" }), page.context());
    for (const path of ["/admin/payments.csv", "/admin/users.csv", "/admin/contacts.csv"]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers()["location"], path).toBe("/buyer");
    }
  });
});
