import { expect, screenshots, tag, test, type Server } from "./fixtures";
import { insertRequest } from "./factories";

/** Moves a request's deadline for offers `hours` from now (negative: already passed). */
function setDeadline(server: Server, requestId: number, hours: number): void {
  server.sql
    .prepare("UPDATE quote_requests SET quote_deadline = ? WHERE id = ?")
    .run(new Date(Date.now() + hours * 3_600_000).toISOString(), requestId);
}

test.describe("Listas de la ronda de cotización", () => {
  test("la mesa filtra por «Plazo» y ordena por plazo con el formulario GET", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer" });
    // One searchable word of this test only (a search reads a word's first 8 letters).
    const word = `pz${tag()}`;
    insertRequest(server, { buyer, title: `${word} sin prisa`, status: "pending" });
    const soon = insertRequest(server, { buyer, title: `${word} urgente`, status: "pending" });
    const overdue = insertRequest(server, { buyer, title: `${word} vencida`, status: "assigned" });
    const paid = insertRequest(server, { buyer, title: `${word} pagada`, status: "paid" });
    setDeadline(server, soon, 5.5);
    setDeadline(server, overdue, -2);
    setDeadline(server, paid, -48);
    await loginAs(admin, page.context());

    await page.goto("/admin/quotes");
    await page.getByLabel("Buscar por título, descripción o comprador").fill(word);
    await page.getByLabel("Plazo", { exact: true }).selectOption("overdue");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/deadline=overdue/);
    const rows = page.locator("table.table-stack tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(
      rows.first().getByRole("link", { name: `${word} vencida`, exact: true }),
    ).toBeVisible();
    await expect(rows.first().locator('td[data-label="Plazo"]')).toContainText("Plazo vencido");
    await expect(page.getByRole("link", { name: /Exportar CSV/ })).toHaveAttribute(
      "href",
      /deadline=overdue/,
    );
    await axe(page);

    // Every request of the search, soonest deadline first: the paid one's passed deadline no
    // longer counts (no time left is shown for it).
    await page.getByLabel("Plazo", { exact: true }).selectOption("");
    await page.getByLabel("Ordenar por").selectOption("plazo");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect(page).toHaveURL(/orden=plazo/);
    await expect(rows).toHaveCount(4);
    await expect(rows.locator("td[data-label='Solicitud'] a")).toHaveText([
      `${word} pagada`,
      `${word} vencida`,
      `${word} urgente`,
      `${word} sin prisa`,
    ]);
    await expect(rows.nth(0).getByTestId("deadline-note")).toHaveCount(0);
    await expect(rows.nth(2).getByTestId("deadline-note")).toHaveText("Vence en 5 h");
    await expect(rows.nth(3).getByTestId("deadline-note")).toHaveText("Vence en 3 días");
    await expect(page.getByLabel("Ordenar por")).toHaveValue("plazo");
    await screenshots(page, "admin-quotes-deadline", testInfo);

    // «Vence en 24 h» with a status: only the open request due soon.
    await page.goto(`/admin/quotes?q=${word}&status=pending&deadline=due24h`);
    await expect(rows).toHaveCount(1);
    await expect(
      rows.first().getByRole("link", { name: `${word} urgente`, exact: true }),
    ).toBeVisible();
  });

  test("el socio ve su parte de cada solicitud, el plazo y solo las acciones posibles", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer", companyName: "Cliente Reservado S.A." });
    const partner = await createUser({ role: "partner" });
    const word = `tb${tag()}`;
    const open = insertRequest(server, {
      buyer,
      title: `${word} abierta`,
      status: "assigned",
      partners: [partner],
    });
    const declined = insertRequest(server, {
      buyer,
      title: `${word} declinada`,
      status: "assigned",
      partners: [partner],
    });
    const late = insertRequest(server, {
      buyer,
      title: `${word} vencida`,
      status: "assigned",
      partners: [partner],
    });
    setDeadline(server, open, 30.5);
    setDeadline(server, late, -1);
    server.sql
      .prepare(
        "UPDATE partner_assignments SET state = 'declined', decline_reason = 'Sin capacidad' WHERE quote_request_id = ? AND partner_id = ?",
      )
      .run(declined, partner.id);
    await loginAs(partner, page.context());

    await page.goto("/partner/assignments");
    const cards = page.getByTestId("assignment-card");
    // Open first; then the closed ones, the latest deadline first.
    await expect(cards.locator("h2")).toHaveText([
      `${word} abierta`,
      `${word} declinada`,
      `${word} vencida`,
    ]);
    const openCard = cards.filter({ hasText: `${word} abierta` });
    await expect(openCard.getByText("Pendiente de cotizar", { exact: true })).toBeVisible();
    await expect(openCard.getByTestId("deadline-note")).toHaveText("Vence en 30 h");
    await expect(openCard.getByRole("link", { name: /^Enviar Cotización/ })).toBeVisible();

    const declinedCard = cards.filter({ hasText: `${word} declinada` });
    await expect(declinedCard.getByText("Declinada", { exact: true })).toBeVisible();
    await expect(declinedCard.getByText("Esta solicitud está cerrada para ti.")).toBeVisible();
    await expect(declinedCard.getByText("Cliente Reservado S.A.")).toHaveCount(0);
    await expect(declinedCard.getByRole("link", { name: /Cotización/ })).toHaveCount(0);

    const lateCard = cards.filter({ hasText: `${word} vencida` });
    await expect(lateCard.getByTestId("deadline-note")).toHaveText("Plazo vencido");
    await expect(lateCard.getByRole("link", { name: /Cotización/ })).toHaveCount(0);
    await axe(page);
    await screenshots(page, "partner-assignments-round", testInfo);

    // "Pendientes de cotizar": invited on an assigned request, the declined one left out.
    await expect(page.getByTestId("stat-Pendientes de cotizar")).toHaveText("2");
    await page.getByLabel("Buscar", { exact: true }).fill(word);
    await page.getByLabel("Filtrar").selectOption("pending");
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/filter=pending/);
    await expect(page.getByTestId("count-text")).toHaveText("2 de 3 asignaciones");
    await expect(cards.filter({ hasText: `${word} declinada` })).toHaveCount(0);
  });
});
