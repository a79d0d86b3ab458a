import { test, expect, waitForMail, linkIn, screenshots, type Server } from "./fixtures";
import { grantPoints, insertRedemption } from "./factories";
import { followEachNotification } from "./notifications";

function redemption(server: Server, id: number) {
  return server.sql
    .prepare("SELECT status, delivered_at, delivered_by FROM reward_redemptions WHERE id = ?")
    .get(id) as { status: string; delivered_at: string | null; delivered_by: number | null };
}

function deliveryNotices(server: Server, buyerId: number) {
  return server.sql
    .prepare(
      "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND title = 'Recompensa entregada'",
    )
    .get(buyerId);
}

test("el administrador entrega un canje pendiente y el comprador lo ve entregado", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const admin = await createUser({ role: "admin" });
  const buyer = await createUser({
    role: "buyer",
    firstName: "Rosa",
    lastName: "Canje",
    companyName: "Flotas Canje S.A.",
  });
  grantPoints(server, buyer, 1200);
  const buyerPage = await pageAs(buyer);
  const adminPage = await pageAs(admin);
  // A second screen of the same operator, opened before the delivery: its button goes stale.
  const stalePage = await pageAs(admin);

  // The buyer redeems through the confirmation step.
  await buyerPage.goto("/buyer/rewards");
  await buyerPage.getByRole("button", { name: "Canjear Descuento 5%" }).click();
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText("Confirmar canje");
  await buyerPage.getByRole("button", { name: "Confirmar canje" }).click();
  await expect(buyerPage.getByText("¡Recompensa canjeada!")).toBeVisible();
  const { id } = server.sql
    .prepare("SELECT id FROM reward_redemptions WHERE buyer_id = ?")
    .get(buyer.id) as { id: number };
  const mine = buyerPage.getByRole("region", { name: "Mis canjes" });
  await expect(mine.getByTestId(`mi-canje-${id}`)).toContainText("Descuento 5%");
  await expect(mine.getByTestId(`mi-canje-${id}`)).toContainText("Pendiente de entrega");

  // The operator reaches the page from the dashboard (and from the rewards settings).
  await adminPage.goto("/admin");
  const card = adminPage.getByRole("region", { name: "Canjes de recompensas" });
  await expect(card.getByTestId("canjes-pendientes")).toHaveText(
    /^\d+ canjes? pendientes? de entrega$/,
  );
  await card.getByRole("link", { name: "Ver canjes" }).click();
  await expect(adminPage).toHaveURL(/\/admin\/redemptions$/);
  await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Canjes de recompensas");
  await adminPage.goto("/admin/settings");
  await adminPage.getByRole("link", { name: "Canjes de recompensas" }).click();
  await expect(adminPage).toHaveURL(/\/admin\/redemptions$/);
  await stalePage.goto("/admin/redemptions");

  // The pending row says who, what and when.
  const pending = adminPage.getByRole("region", { name: /^Pendientes de entrega/ });
  const row = pending.getByTestId(`canje-${id}`);
  await expect(row).toContainText("Descuento 5%");
  await expect(row).toContainText("500 puntos");
  await expect(row).toContainText("Rosa Canje");
  await expect(row).toContainText("Flotas Canje S.A.");
  await expect(row.getByRole("link", { name: buyer.email })).toHaveAttribute(
    "href",
    `mailto:${buyer.email}`,
  );
  await expect(row).toContainText("Pendiente de entrega");
  await axe(adminPage);
  await screenshots(adminPage, "admin-redemptions", testInfo);

  await row
    .getByRole("button", { name: "Marcar como entregada Descuento 5% de Rosa Canje" })
    .click();
  await expect(
    adminPage.getByText("«Descuento 5%» de Rosa Canje quedó entregada. Avisamos al comprador."),
  ).toBeVisible();
  // It moved to the delivered ones, with who and when.
  await expect(pending.getByTestId(`canje-${id}`)).toHaveCount(0);
  const delivered = adminPage
    .getByRole("region", { name: /^Entregadas/ })
    .getByTestId(`canje-${id}`);
  await expect(delivered).toContainText("Entregada");
  await expect(delivered).toContainText(/Entregada el .+ UTC por Alicia Prueba/);
  await expect(delivered.getByRole("button")).toHaveCount(0);
  const stored = redemption(server, id);
  expect(stored).toMatchObject({ status: "delivered", delivered_by: admin.id });
  expect(stored.delivered_at).not.toBeNull();
  await axe(adminPage);

  // The stale screen's click changes nothing and says why.
  await stalePage
    .getByTestId(`canje-${id}`)
    .getByRole("button", { name: /^Marcar como entregada/ })
    .click();
  await expect(stalePage.getByTestId("notice")).toContainText(
    "Este canje ya estaba marcado como entregado por Alicia Prueba",
  );
  await expect(stalePage.getByTestId("notice")).toContainText("No se cambió nada.");
  expect(redemption(server, id)).toEqual(stored);
  expect(deliveryNotices(server, buyer.id)).toEqual({ n: 1 });

  // The buyer is told by e-mail and in-app, and sees the delivery on the rewards page.
  const mail = await waitForMail(server, buyer.email, "Recompensa entregada");
  expect(mail.body).toContain("Tu recompensa «Descuento 5%» (500 puntos) ya fue entregada.");
  expect(new URL(linkIn(mail, "/buyer/rewards")).pathname).toBe("/buyer/rewards");
  await buyerPage.goto("/buyer/rewards");
  await expect(mine.getByTestId(`mi-canje-${id}`)).toContainText(/Entregada el \d{1,2} \S+ \d{4}/);
  await expect(mine.getByText("Pendiente de entrega")).toHaveCount(0);
  await axe(buyerPage);
  expect(await followEachNotification(buyerPage)).toEqual(["Recompensa entregada"]);
  expect(await followEachNotification(adminPage)).toEqual(["Recompensa canjeada"]);
});

test("un comprador y un socio no pueden ver ni entregar canjes", async ({
  server,
  createUser,
  pageAs,
}) => {
  const owner = await createUser({ role: "buyer" });
  grantPoints(server, owner, 600);
  const id = insertRedemption(server, owner, 500);
  const before = redemption(server, id);
  expect(before).toEqual({ status: "pending", delivered_at: null, delivered_by: null });

  for (const role of ["buyer", "partner"] as const) {
    const user = role === "buyer" ? owner : await createUser({ role });
    const page = await pageAs(user);
    await page.goto("/admin/redemptions");
    await expect(page, role).toHaveURL(new RegExp(`/${role}$`));
    await expect(page.getByRole("heading", { name: "Canjes de recompensas" })).toHaveCount(0);
    const post = await page.request.post("/admin/redemptions", {
      form: { intent: "deliver", redemption_id: String(id) },
      maxRedirects: 0,
    });
    expect(post.status(), role).toBe(302);
    expect(new URL(post.headers()["location"] ?? "", server.url).pathname, role).toBe(`/${role}`);
  }
  expect(redemption(server, id)).toEqual(before);
  expect(deliveryNotices(server, owner.id)).toEqual({ n: 0 });
});

test("entregar un canje que no existe responde «Canje no encontrado»", async ({
  server,
  createUser,
  pageAs,
}) => {
  const admin = await createUser({ role: "admin" });
  const page = await pageAs(admin);
  const notifications = () => server.sql.prepare("SELECT count(*) AS n FROM notifications").get();
  const before = notifications();
  const response = await page.request.post("/admin/redemptions", {
    form: { intent: "deliver", redemption_id: "987654321" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("Canje no encontrado");
  expect(notifications()).toEqual(before);
});
