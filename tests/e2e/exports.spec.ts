import fs from "node:fs";
import { expect, tag, test } from "./fixtures";
import { insertOfficialQuote, insertRequest } from "./factories";

test.describe("Exportar a CSV", () => {
  test("el administrador descarga las solicitudes filtradas: BOM, acentos y solo lo filtrado", async ({
    page,
    createUser,
    loginAs,
    server,
  }) => {
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer", companyName: "Compañía Minera Ñuble S.A." });
    const paid = `Válvulas de compuerta, "DN50" ${tag()}`;
    const pending = `Guantes de nitrilo ${tag()}`;
    const paidId = insertRequest(server, { buyer, title: paid, status: "paid" });
    insertOfficialQuote(server, {
      requestId: paidId,
      amountCents: 123_450,
      commissionPercentage: 5,
    });
    insertRequest(server, { buyer, title: pending, status: "pending" });

    await loginAs(admin, page.context());
    await page.goto("/admin/quotes?status=paid");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Exportar CSV/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cotizaciones-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const [header, ...lines] = text.trimEnd().split("\r\n");
    expect(header).toBe(
      "Solicitud,Título,Estado,Comprador,Empresa,Correo,Socios asignados,Cotizaciones,Monto (USD),Comisión (USD),Plazo para cotizar (UTC),Creada (UTC),Actualizada (UTC)",
    );
    const ours = lines.filter((l) => l.includes("Ñuble"));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain(`"${paid.replace(/"/g, '""')}"`);
    expect(ours[0]).toContain(",Pagado,");
    // The official total and the desk's commission on it (5 % of 1,234.50, rounded).
    expect(ours[0]).toContain(",1234.50,61.73,");
    expect(text).not.toContain(pending);
    // Every exported row is paid: the list's filter is honoured.
    for (const line of lines) expect(line).toContain(",Pagado,");
  });

  test("solo un administrador puede descargarla", async ({ page, createUser, loginAs }) => {
    const buyer = await createUser({ role: "buyer" });
    await loginAs(buyer, page.context());
    const response = await page.request.get("/admin/quotes.csv", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/buyer");
  });
});
