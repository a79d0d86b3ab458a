import { test, expect, waitForMail, screenshots, tag, type TestUser } from "./fixtures";
import { grantPoints, insertOfficialQuote, insertRequest } from "./factories";
import { EXE, PNG, pdfFile, pngFile } from "./files";
import { followEachNotification } from "./notifications";

// The journey and the pages its notifications open are two tests of one serial group: the second
// reads what the first produced, and each keeps a short budget on a busy machine.
test.describe.serial("recorrido de pago", () => {
  let people: Record<"buyer" | "admin", TestUser> | null = null;
  // The journey's admin outlives its test for the second one; it goes with the group.
  test.afterAll(({ server }) => {
    if (people) server.sql.prepare("DELETE FROM users WHERE id = ?").run(people.admin.id);
  });

  test("recorrido: cotización manual → aprobación del comprador → comprobante → confirmación → puntos", async ({
    server,
    createUser,
    pageAs,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer", companyName: "Supermercados Ficticios" });
    const admin = await createUser({ role: "admin", keepAfterTest: true });
    const title = `Góndolas para 12 tiendas ${tag()}`;
    const requestId = insertRequest(server, {
      buyer,
      title,
      description: "Góndolas metálicas de 1,80 m, entrega en Monterrey.",
    });
    const buyerPage = await pageAs(buyer);
    const adminPage = await pageAs(admin);

    // The admin issues a manual official quote (amount typed with a comma).
    await adminPage.goto(`/admin/quotes/${requestId}`);
    await adminPage.getByLabel(/Monto final/).fill("1234,50");
    await adminPage.getByRole("button", { name: "Crear cotización oficial" }).click();
    await expect(adminPage.getByText("Cotización oficial creada.")).toBeVisible();
    await expect(adminPage.getByText("USD 1,234.50").first()).toBeVisible();
    const official = server.sql
      .prepare(
        "SELECT final_amount_cents, commission_amount_cents FROM official_quotes WHERE quote_request_id = ?",
      )
      .get(requestId);
    expect(official).toEqual({ final_amount_cents: 123450, commission_amount_cents: 6173 });

    // The buyer approves while `quoted`: one pending payment for the final amount.
    await buyerPage.goto(`/buyer/quotes/${requestId}`);
    await expect(buyerPage.getByTestId("monto-oficial")).toHaveText("USD 1,234.50");
    await buyerPage.getByRole("button", { name: "Aprobar cotización" }).click();
    await expect(
      buyerPage.getByText("Cotización aprobada. Se ha creado el registro de pago."),
    ).toBeVisible();
    // A second approval (double submit) is refused and creates nothing.
    const again = await buyerPage.request.post(`/buyer/quotes/${requestId}`, {
      form: { intent: "approve" },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain(
      "Esta cotización ya está aprobada. Sube tu comprobante de pago para completar la compra.",
    );
    expect(
      server.sql
        .prepare("SELECT status, amount_cents FROM payments WHERE quote_request_id = ?")
        .all(requestId),
    ).toEqual([{ status: "pending", amount_cents: 123450 }]);
    await waitForMail(server, admin.email, "Cotización aprobada por el comprador");

    // How to pay is said beside the amount, on the request and on the payment form, with the
    // request as the transfer's reference (no instructions are set here: the team sends them).
    const howToPay = buyerPage.getByTestId("instrucciones-pago");
    await expect(howToPay).toContainText(
      "El equipo de CotizaHub te enviará los datos para el pago.",
    );
    await expect(howToPay).toContainText(`Referencia del pago: Solicitud N.º ${requestId}`);
    // Pay with a proof.
    await buyerPage.getByRole("link", { name: "Pagar" }).click();
    await expect(buyerPage).toHaveURL(new RegExp(`/buyer/payments/new\\?quote=${requestId}$`));
    await expect(howToPay).toContainText(`Referencia del pago: Solicitud N.º ${requestId}`);
    await expect(buyerPage.getByLabel(/Monto pagado/)).toHaveValue("1234.50");
    await expect(buyerPage.getByLabel("Método de pago")).toHaveValue("transfer");
    await buyerPage.locator('input[name="file"]').setInputFiles(pngFile());
    await buyerPage.getByRole("button", { name: "Enviar comprobante" }).click();
    await expect(buyerPage).toHaveURL(/\/buyer\/payments$/);
    await expect(
      buyerPage.getByText(
        "Comprobante de pago enviado correctamente. Será validado por nuestro equipo.",
      ),
    ).toBeVisible();
    await screenshots(buyerPage, "buyer-payments", testInfo);

    // The admin confirms: request paid, points and commission written once.
    await adminPage.goto("/admin/payments");
    await adminPage.getByRole("button", { name: `Confirmar pago de ${title}` }).click();
    await expect(
      adminPage.getByText(
        /Pago confirmado\. La solicitud quedó pagada y el comprador sumó 1,234 puntos\./,
      ),
    ).toBeVisible();
    const paymentId = (
      server.sql
        .prepare("SELECT id FROM payments WHERE quote_request_id = ? AND status = 'confirmed'")
        .get(requestId) as { id: number }
    ).id;
    const twice = await adminPage.request.post("/admin/payments", {
      form: { intent: "confirm_payment", payment_id: String(paymentId) },
    });
    expect(twice.status()).toBe(409);
    expect(
      server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId),
    ).toEqual({ status: "paid" });
    expect(
      server.sql
        .prepare(
          "SELECT status, method, amount_cents FROM payments WHERE quote_request_id = ? ORDER BY id",
        )
        .all(requestId),
    ).toEqual([{ status: "confirmed", method: "transfer", amount_cents: 123450 }]);
    expect(
      server.sql
        .prepare("SELECT sum(points) AS points FROM loyalty_ledger WHERE buyer_id = ?")
        .get(buyer.id),
    ).toEqual({ points: 1234 });
    expect(
      server.sql
        .prepare("SELECT commission_amount_cents FROM buyer_commissions WHERE buyer_id = ?")
        .all(buyer.id),
    ).toEqual([{ commission_amount_cents: 6173 }]);
    // Points read the same in the e-mail as on the dashboard: "1,234", never "1234".
    const confirmed = await waitForMail(server, buyer.email, "Pago confirmado");
    expect(confirmed.body).toContain("Ganaste 1,234 puntos de lealtad.");

    // Dashboard and request read the same ledger and status.
    await buyerPage.goto("/buyer");
    await expect(buyerPage.getByTestId("stat-Puntos de lealtad")).toHaveText("1,234");
    // What the buyer paid, not a commission it «earned» (the partner pays it: DECISIONS §9).
    await expect(buyerPage.getByTestId("stat-Total pagado")).toHaveText("USD 1,234.50");
    await expect(buyerPage.getByText("Comisiones ganadas")).toHaveCount(0);
    await expect(buyerPage.getByText("Nivel Plata").first()).toBeVisible();
    await screenshots(buyerPage, "buyer-dashboard", testInfo);
    await buyerPage.goto(`/buyer/quotes/${requestId}`);
    await expect(buyerPage.getByText("Pagado").first()).toBeVisible();

    people = { buyer, admin };
  });

  test("cada notificación del pago abre su página", async ({ pageAs }) => {
    const { buyer, admin } = people!;
    const [buyerPage, adminPage] = await Promise.all([pageAs(buyer), pageAs(admin)]);
    expect(await followEachNotification(buyerPage)).toEqual(
      expect.arrayContaining(["Pago confirmado", "Tu cotización oficial está lista"]),
    );
    expect(await followEachNotification(adminPage)).toEqual(
      expect.arrayContaining([
        "Comprobante de pago recibido",
        "Cotización aprobada por el comprador",
      ]),
    );
  });
});

test("el administrador rechaza un comprobante con motivo y el comprador envía otro", async ({
  server,
  createUser,
  pageAs,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const title = `Góndolas para 12 tiendas ${tag()}`;
  const requestId = insertRequest(server, { buyer, title, status: "approved" });
  insertOfficialQuote(server, {
    requestId,
    amountCents: 123450,
    payment: {
      method: "transfer",
      proof: { name: "comprobante.png", type: "image/png", buffer: PNG },
    },
  });
  const adminPage = await pageAs(admin);
  const buyerPage = await pageAs(buyer);

  await adminPage.goto("/admin/payments");
  const card = adminPage.locator("li", {
    has: adminPage.getByRole("link", { name: title, exact: true }),
  });
  await expect(card).toBeVisible();
  await screenshots(adminPage, "admin-payments", testInfo);
  await card.getByLabel("Motivo del rechazo").fill("El comprobante no es legible");
  await card.getByRole("button", { name: /^Rechazar/ }).click();
  await expect(adminPage.getByText("Pago rechazado. Avisamos al comprador.")).toBeVisible();
  await waitForMail(server, buyer.email, "Pago rechazado");

  // The buyer sees why and sends a new proof, typing the amount with a comma.
  await buyerPage.goto("/buyer/payments");
  await expect(buyerPage.getByText("Motivo: El comprobante no es legible")).toBeVisible();
  await expect(
    buyerPage.getByText("Contacta al administrador o envía un nuevo comprobante."),
  ).toBeVisible();
  await buyerPage.getByRole("link", { name: "Enviar nuevo comprobante" }).click();
  await buyerPage.getByLabel(/Monto pagado/).fill("1234,50");
  await buyerPage.getByLabel("Método de pago").selectOption("check");
  await buyerPage.locator('input[name="file"]').setInputFiles(pdfFile("comprobante.pdf"));
  await buyerPage.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(buyerPage).toHaveURL(/\/buyer\/payments$/);
  expect(
    server.sql
      .prepare(
        "SELECT status, method, amount_cents, proof_name FROM payments WHERE quote_request_id = ? ORDER BY id",
      )
      .all(requestId),
  ).toEqual([
    { status: "rejected", method: "transfer", amount_cents: 123450, proof_name: "comprobante.png" },
    { status: "pending", method: "check", amount_cents: 123450, proof_name: "comprobante.pdf" },
  ]);

  // The new proof waits for the admin's review.
  await adminPage.goto("/admin/payments");
  await expect(adminPage.getByRole("button", { name: `Confirmar pago de ${title}` })).toBeVisible();
  expect(await followEachNotification(buyerPage)).toContain("Pago rechazado");

  // Once the new proof is confirmed, the rejected one no longer asks for another.
  await adminPage.getByRole("button", { name: `Confirmar pago de ${title}` }).click();
  await expect(adminPage.getByText(/Pago confirmado/)).toBeVisible();
  await buyerPage.goto("/buyer/payments");
  await expect(buyerPage.getByText("Motivo: El comprobante no es legible")).toBeVisible();
  await expect(
    buyerPage.getByText("Contacta al administrador o envía un nuevo comprobante."),
  ).toHaveCount(0);
});

test("un pago recibido sin comprobante lo registra el administrador, con cómo se pagó y una nota", async ({
  server,
  createUser,
  pageAs,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const title = `Carretillas hidráulicas ${tag()}`;
  const requestId = insertRequest(server, { buyer, title, status: "approved" });
  const { paymentId } = insertOfficialQuote(server, { requestId, amountCents: 300000 });
  const adminPage = await pageAs(admin);

  await adminPage.goto(`/admin/payments?q=${requestId}`);
  const card = adminPage.locator("li", {
    has: adminPage.getByRole("link", { name: title, exact: true }),
  });
  await expect(card).toContainText("esperando comprobante del comprador");
  await expect(card.getByRole("button", { name: /^Confirmar pago/ })).toHaveCount(0);
  await card.getByText("Registrar un pago recibido sin comprobante").click();
  // Without a note nothing is recorded, and the choice stays.
  await card.getByLabel("Cómo se pagó").selectOption("cash");
  await card.getByRole("button", { name: `Registrar pago de ${title}` }).click();
  const refused = adminPage.locator("li", {
    has: adminPage.getByRole("link", { name: title, exact: true }),
  });
  await expect(
    refused.getByText("Indica cómo se recibió el pago: queda en el historial."),
  ).toBeVisible();
  await expect(refused.getByLabel("Cómo se pagó")).toHaveValue("cash");
  expect(server.sql.prepare("SELECT status FROM payments WHERE id = ?").get(paymentId)).toEqual({
    status: "pending",
  });

  await refused.getByLabel("Nota para el historial").fill("Efectivo en oficina, recibo 0142");
  await refused.getByRole("button", { name: `Registrar pago de ${title}` }).click();
  await expect(adminPage.getByText(/Pago registrado\. La solicitud quedó pagada/)).toBeVisible();
  const recorded = adminPage.locator("li", {
    has: adminPage.getByRole("link", { name: title, exact: true }),
  });
  await expect(recorded).toContainText("Efectivo · sin comprobante");
  await expect(recorded).not.toContainText("esperando comprobante");
  expect(
    server.sql
      .prepare(
        "SELECT p.status, p.method, r.status AS request FROM payments p JOIN quote_requests r ON r.id = p.quote_request_id WHERE p.id = ?",
      )
      .get(paymentId),
  ).toEqual({ status: "confirmed", method: "cash", request: "paid" });
  await waitForMail(server, buyer.email, "Pago confirmado");
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(
    adminPage.getByText(
      "Pago registrado sin comprobante (Efectivo): Efectivo en oficina, recibo 0142",
    ),
  ).toBeVisible();
});

test("canje de puntos: se confirma antes de gastar, la recompensa alcanzable se canjea una vez, la que excede el saldo se rechaza", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer" });
  grantPoints(server, buyer, 1234);
  const buyerPage = await pageAs(buyer);
  const ledger = () =>
    server.sql
      .prepare("SELECT sum(points) AS points, count(*) AS n FROM loyalty_ledger WHERE buyer_id = ?")
      .get(buyer.id);
  const rewardId = (points: number) =>
    (
      server.sql.prepare("SELECT id FROM rewards WHERE points_cost = ?").get(points) as {
        id: number;
      }
    ).id;

  await buyerPage.goto("/buyer/rewards");
  await expect(buyerPage.getByTestId("stat-Puntos disponibles")).toHaveText("1,234");
  await expect(buyerPage.getByText("Descuento 15%")).toBeVisible();
  await expect(buyerPage.getByText("No disponible")).toBeVisible();
  await expect(buyerPage.getByText("Aún no has canjeado recompensas.")).toBeVisible();
  await screenshots(buyerPage, "buyer-rewards", testInfo);

  // "Canjear" only opens the confirmation: the reward, its points and the balance after.
  await buyerPage.getByRole("button", { name: "Canjear Descuento 5%" }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/buyer/rewards\\?canjear=${rewardId(500)}$`));
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText("Confirmar canje");
  await expect(buyerPage.getByRole("heading", { name: "Descuento 5%", level: 2 })).toBeVisible();
  await expect(buyerPage.getByTestId("canje-puntos")).toHaveText("500 puntos");
  await expect(buyerPage.getByTestId("canje-saldo")).toHaveText("1,234 puntos");
  await expect(buyerPage.getByTestId("canje-saldo-despues")).toHaveText("734 puntos");
  await axe(buyerPage);
  await screenshots(buyerPage, "buyer-rewards-confirm", testInfo);
  expect(ledger()).toEqual({ points: 1234, n: 1 });

  // "Cancelar" goes back and spends nothing.
  await buyerPage.getByRole("link", { name: "Cancelar" }).click();
  await expect(buyerPage).toHaveURL(/\/buyer\/rewards$/);
  await expect(buyerPage.getByTestId("stat-Puntos disponibles")).toHaveText("1,234");
  expect(ledger()).toEqual({ points: 1234, n: 1 });

  // Confirmed: the points are spent once and the redemption waits for delivery.
  await buyerPage.getByRole("button", { name: "Canjear Descuento 5%" }).click();
  const token = await buyerPage.locator('input[name="form_token"]').getAttribute("value");
  expect(token).toBeTruthy();
  await buyerPage.getByRole("button", { name: "Confirmar canje" }).click();
  await expect(buyerPage.getByText("¡Recompensa canjeada!")).toBeVisible();
  await expect(buyerPage).toHaveURL(/\/buyer\/rewards$/);
  await expect(buyerPage.getByTestId("stat-Puntos disponibles")).toHaveText("734");
  await expect(buyerPage.getByText("Canje: Descuento 5%")).toBeVisible();
  await expect(buyerPage.getByRole("region", { name: "Mis canjes" })).toContainText(
    "Pendiente de entrega",
  );
  expect(ledger()).toEqual({ points: 734, n: 2 });

  // The same confirmation sent again (a double click, a resend) lands where the first one did.
  const again = await buyerPage.request.post(`/buyer/rewards?canjear=${rewardId(500)}`, {
    form: { intent: "redeem", reward_id: String(rewardId(500)), form_token: token! },
    maxRedirects: 0,
  });
  expect(again.status()).toBe(302);
  expect(new URL(again.headers()["location"] ?? "", server.url).pathname).toBe("/buyer/rewards");
  expect(ledger()).toEqual({ points: 734, n: 2 });

  // Beyond the balance: the confirmation says so and offers nothing to confirm.
  await buyerPage.getByRole("button", { name: "Canjear Descuento 10%" }).click();
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText("Confirmar canje");
  await expect(
    buyerPage.getByText("No tienes puntos suficientes: necesitas 1,000 y tienes 734."),
  ).toBeVisible();
  await expect(buyerPage.getByRole("button", { name: "Confirmar canje" })).toHaveCount(0);
  await buyerPage.getByRole("link", { name: "Volver a Recompensas" }).click();
  await expect(buyerPage).toHaveURL(/\/buyer\/rewards$/);
  // The server refuses it as well when posted directly.
  const direct = await buyerPage.request.post("/buyer/rewards", {
    form: { intent: "redeem", reward_id: String(rewardId(1000)) },
  });
  expect(direct.status()).toBe(409);
  expect(await direct.text()).toContain(
    "No tienes puntos suficientes: necesitas 1,000 y tienes 734.",
  );
  expect(ledger()).toEqual({ points: 734, n: 2 });
  expect(
    server.sql.prepare("SELECT status FROM reward_redemptions WHERE buyer_id = ?").all(buyer.id),
  ).toEqual([{ status: "pending" }]);
});

test("un comprador no puede pagar ni ver pagos de otro comprador", async ({
  server,
  createUser,
  pageAs,
}) => {
  const owner = await createUser({ role: "buyer" });
  const other = await createUser({ role: "buyer" });
  const requestId = insertRequest(server, { buyer: owner, title: "Ajena", status: "approved" });
  insertOfficialQuote(server, { requestId, amountCents: 50000 });

  const page = await pageAs(other);
  const response = await page.goto(`/buyer/payments/new?quote=${requestId}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Cotización no encontrada" })).toBeVisible();
  const detail = await page.goto(`/buyer/quotes/${requestId}`);
  expect(detail?.status()).toBe(404);
  await expect(page.getByText("Ajena")).toHaveCount(0);
  await page.goto("/buyer/payments");
  await expect(page.getByText("Aún no tienes pagos")).toBeVisible();
  // Their own request without an official quote yet goes back to it, with why; another
  // buyer's is still not found.
  const waiting = insertRequest(server, { buyer: owner, title: "Propia sin cotización" });
  const ownerPage = await pageAs(owner);
  await ownerPage.goto(`/buyer/payments/new?quote=${waiting}`);
  await expect(ownerPage).toHaveURL(new RegExp(`/buyer/quotes/${waiting}$`));
  await expect(
    ownerPage.getByText(
      "Esta solicitud todavía no tiene cotización oficial: podrás pagarla cuando la recibas.",
    ),
  ).toBeVisible();
  expect((await page.goto(`/buyer/payments/new?quote=${waiting}`))?.status()).toBe(404);

  const post = await page.request.post(`/buyer/payments/new?quote=${requestId}`, {
    multipart: { amount: "500.00", method: "transfer", file: pngFile() },
  });
  expect(post.status()).toBe(404);
  const approve = await page.request.post(`/buyer/quotes/${requestId}`, {
    form: { intent: "reject" },
  });
  expect(approve.status()).toBe(404);
  expect(
    server.sql
      .prepare("SELECT status, proof_key FROM payments WHERE quote_request_id = ?")
      .all(requestId),
  ).toEqual([{ status: "pending", proof_key: null }]);
  expect(
    server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId),
  ).toEqual({ status: "approved" });
});

test("un comprobante que no es lo que dice su nombre se rechaza con su motivo, no como campo vacío", async ({
  server,
  createUser,
  pageAs,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const requestId = insertRequest(server, {
    buyer,
    title: `Comprobante falso ${tag()}`,
    status: "approved",
  });
  insertOfficialQuote(server, { requestId, amountCents: 50000 });
  const page = await pageAs(buyer);
  await page.goto(`/buyer/payments/new?quote=${requestId}`);
  await page
    .locator('input[name="file"]')
    .setInputFiles({ name: "comprobante.pdf", mimeType: "application/pdf", buffer: EXE });
  await page.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(page.getByText(/Tipo de archivo no permitido/).first()).toBeVisible();
  await expect(page.getByText("Por favor completa todos los campos requeridos.")).toHaveCount(0);
  expect(
    server.sql
      .prepare("SELECT status, proof_key FROM payments WHERE quote_request_id = ?")
      .all(requestId),
  ).toEqual([{ status: "pending", proof_key: null }]);
});
