import { expect, tag, test, type Server } from "./fixtures";
import type { Page } from "@playwright/test";
import { insertRequest } from "./factories";

/**
 * The lists' «Desde / Hasta» and «Ordenar por» (issue 14): plain GET fields, so the same steps
 * work with JavaScript on and off; the active filters show as chips that remove them; a bad range
 * is explained next to its field and the list stays usable; the CSV link carries the filters.
 */

/** Moves a request's creation day and gives it an amount. */
function setCreated(server: Server, requestId: number, day: string, amountCents: number): void {
  server.sql
    .prepare("UPDATE quote_requests SET created_at = ?, total_amount_cents = ? WHERE id = ?")
    .run(`${day}T12:00:00.000Z`, amountCents, requestId);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test.describe("Listas: rango de fechas y orden", () => {
  test("el comprador filtra sus cotizaciones por fechas y las ordena", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    const word = `fc${tag()}`;
    const early = insertRequest(server, { buyer, title: `${word} primera` });
    const middle = insertRequest(server, { buyer, title: `${word} segunda` });
    const late = insertRequest(server, { buyer, title: `${word} tercera` });
    setCreated(server, early, "2031-05-01", 90_000);
    setCreated(server, middle, "2031-05-10", 10_000);
    setCreated(server, late, "2031-05-20", 50_000);
    await loginAs(buyer, page.context());
    await page.setViewportSize({ width: 360, height: 800 });

    await page.goto("/buyer/quotes");
    await page.getByLabel("Buscar por título o descripción").fill(word);
    await page.getByLabel("Desde", { exact: true }).fill("2031-05-05");
    await page.getByLabel("Hasta", { exact: true }).fill("2031-05-31");
    await page.getByLabel("Ordenar por").selectOption("antiguos");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/desde=2031-05-05/);
    await expect(page).toHaveURL(/hasta=2031-05-31/);
    await expect(page).toHaveURL(/orden=antiguos/);
    const titles = page.locator("li.card a.font-semibold");
    await expect(titles).toHaveText([`${word} segunda`, `${word} tercera`]);
    await expect(page.getByText("2 solicitudes encontradas")).toBeVisible();
    await expect(page.getByLabel("Desde", { exact: true })).toHaveValue("2031-05-05");
    await expect(page.getByLabel("Ordenar por")).toHaveValue("antiguos");
    await expect(page.getByText(/Fecha de creación: del /)).toBeVisible();
    await expect(page.getByText("Orden: Más antiguos primero")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await axe(page);

    // Largest amount first, same range.
    await page.getByLabel("Ordenar por").selectOption("monto");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(titles).toHaveText([`${word} tercera`, `${word} segunda`]);

    // Removing the range chip keeps the search and the sort.
    await page.getByRole("link", { name: /^Quitar filtro: Fecha de creación/ }).click();
    await expect(page).not.toHaveURL(/desde=/);
    await expect(page).toHaveURL(/orden=monto/);
    await expect(titles).toHaveText([`${word} primera`, `${word} tercera`, `${word} segunda`]);

    // One result: the count agrees with it.
    await page.goto(`/buyer/quotes?q=${word}&desde=2031-05-15&hasta=2031-05-31`);
    await expect(titles).toHaveText([`${word} tercera`]);
    await expect(page.getByText("1 solicitud encontrada", { exact: true })).toBeVisible();

    // A range that ends before it starts: the message sits by «Hasta», nothing is hidden.
    await page.goto(`/buyer/quotes?q=${word}&desde=2031-05-20&hasta=2031-05-01`);
    await expect(page.getByText(/La fecha «Hasta» no puede ser anterior a «Desde»/)).toBeVisible();
    await expect(page.getByLabel("Hasta", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(titles).toHaveCount(3);
    await expectNoSidewaysScroll(page);
    await axe(page);

    // A page number past the end says so and leads back to the first page, with the search.
    await page.goto(`/buyer/quotes?q=${word}&page=4`);
    await expect(
      page.getByText("La página 4 no existe: la lista tiene una sola página."),
    ).toBeVisible();
    // Not «No se encontraron resultados» under «3 solicitudes encontradas».
    await expect(page.getByText("No se encontraron resultados")).toHaveCount(0);
    // Past the pages asked for by number too: the page named is the one asked for.
    await page.goto(`/buyer/quotes?q=${word}&page=99`);
    await expect(
      page.getByText("La página 99 no existe: la lista tiene una sola página."),
    ).toBeVisible();
    await page.getByRole("link", { name: "Ir a la primera página" }).click();
    await expect(titles).toHaveCount(3);
  });

  test("el operador filtra solicitudes y pagos por fechas, ordena, y el CSV sigue los filtros", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }) => {
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer" });
    const word = `fo${tag()}`;
    const a = insertRequest(server, { buyer, title: `${word} alfa`, status: "assigned" });
    const b = insertRequest(server, { buyer, title: `${word} beta`, status: "assigned" });
    const c = insertRequest(server, { buyer, title: `${word} gamma`, status: "assigned" });
    setCreated(server, a, "2031-06-02", 30_000);
    setCreated(server, b, "2031-06-03", 70_000);
    setCreated(server, c, "2031-07-01", 99_000);
    await loginAs(admin, page.context());
    await page.setViewportSize({ width: 360, height: 800 });

    await page.goto("/admin/quotes");
    await page.getByLabel("Buscar por título, descripción o comprador").fill(word);
    await page.getByLabel("Desde", { exact: true }).fill("2031-06-01");
    await page.getByLabel("Hasta", { exact: true }).fill("2031-06-30");
    await page.getByLabel("Ordenar por").selectOption("monto");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/orden=monto/);
    const rows = page.locator("table.table-stack tbody tr");
    await expect(rows.locator("td[data-label='Solicitud'] a")).toHaveText([
      `${word} beta`,
      `${word} alfa`,
    ]);
    const csv = page.getByRole("link", { name: /Exportar CSV/ });
    await expect(csv).toHaveAttribute("href", /desde=2031-06-01/);
    await expect(csv).toHaveAttribute("href", /hasta=2031-06-30/);
    await expect(csv).toHaveAttribute("href", /orden=monto/);
    await expectNoSidewaysScroll(page);
    await axe(page);

    // Oldest first, then every filter removed at once.
    await page.getByLabel("Ordenar por").selectOption("antiguos");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(rows.locator("td[data-label='Solicitud'] a")).toHaveText([
      `${word} alfa`,
      `${word} beta`,
    ]);
    await page.getByRole("link", { name: "Quitar filtros" }).click();
    await expect(page).not.toHaveURL(/desde=|orden=/);
    await expect(page.getByLabel("Desde", { exact: true })).toHaveValue("");

    // A date that does not exist is refused next to its field; the list still shows.
    await page.goto("/admin/quotes?desde=2031-02-30");
    await expect(page.getByText("Indica una fecha válida (por ejemplo 2026-11-01).")).toBeVisible();
    await expect(rows.first()).toBeVisible();

    // The payments desk: the same fields, a sort over every payment, the CSV link with them.
    await page.goto("/admin/payments?desde=2031-06-01&hasta=2031-06-30&orden=recientes");
    await expect(page.getByText(/Fecha de envío del comprobante/).first()).toBeVisible();
    await expect(page.getByLabel("Ordenar por")).toHaveValue("recientes");
    await expect(page.getByRole("link", { name: /Exportar CSV/ })).toHaveAttribute(
      "href",
      /desde=2031-06-01.*orden=recientes/,
    );
    await expectNoSidewaysScroll(page);
    await axe(page);

    // The users list takes a sign-up range and an order too.
    await page.goto("/admin/users?orden=antiguos&desde=2020-01-01");
    await expect(page.getByLabel("Ordenar por")).toHaveValue("antiguos");
    await expect(page.getByText("Orden: Más antiguos primero")).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test("el operador escribe el número de una solicitud (la referencia de una transferencia) y la encuentra", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const buyer = await createUser({ role: "buyer", companyName: "Transportes Ficticios" });
    const admin = await createUser({ role: "admin" });
    const requestId = insertRequest(server, { buyer, title: `Grúas telescópicas ${tag()}` });
    await loginAs(admin, page.context());
    const found = page.getByTestId("solicitud-por-numero");

    // In Pagos, as the bank statement writes it; on the desk's list, as a bare number.
    for (const [list, label, text] of [
      ["/admin/payments", "Buscar por título o comprador", `Solicitud N.º ${requestId}`],
      ["/admin/quotes", "Buscar por título, descripción o comprador", `#${requestId}`],
    ] as const) {
      await page.goto(list);
      await page.getByLabel(label).fill(text);
      await page.getByRole("button", { name: "Filtrar" }).click();
      await expect(found).toContainText(`Solicitud N.º ${requestId}`);
      await expect(found).toContainText("Transportes Ficticios");
      await expect(found.getByRole("link")).toHaveAttribute("href", `/admin/quotes/${requestId}`);
    }
    await found.getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Grúas telescópicas");

    // A number no request has, or words around it, offer nothing above the list.
    await page.goto("/admin/quotes?q=99999999");
    await expect(page.getByText("No se encontraron resultados")).toBeVisible();
    await expect(found).toHaveCount(0);
    await page.goto(`/admin/quotes?q=${encodeURIComponent(`lote ${requestId}`)}`);
    await expect(found).toHaveCount(0);
  });
});
