import { test, expect } from "./fixtures";

/** The operator's system page (/admin/system): reached from the admin navigation; no one else sees it. */

test("el operador ve el estado del sistema y un comprador recibe «no encontrado»", async ({
  server,
  createUser,
  pageAs,
  axe,
}) => {
  const admin = await createUser({ role: "admin" });
  const buyer = await createUser({ role: "buyer" });
  server.sql
    .prepare(
      `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, status, attempts, last_error, next_attempt_at, failed_at)
       VALUES (?, ?, 'x', 'x', 'failed', 5, ?, ?, ?)`,
    )
    .run(
      buyer.email,
      "Prueba de sistema: correo rechazado",
      "550 buzón inexistente",
      new Date().toISOString(),
      new Date().toISOString(),
    );

  const adminPage = await pageAs(admin);
  await adminPage.goto("/admin");
  await adminPage
    .getByRole("navigation", { name: "Navegación del área" })
    .getByRole("link", { name: "Sistema" })
    .click();
  await expect(adminPage).toHaveURL(/\/admin\/system$/);
  await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Sistema");
  await expect(adminPage.getByText(/^Versión \d+\.\d+\.\d+/)).toBeVisible();
  await expect(adminPage.getByTestId("stat-Base de datos")).toHaveText(/^[\d.,]+ (KB|MB|GB)$/);
  await expect(adminPage.getByTestId("stat-Disco libre")).toHaveText(/^[\d.,]+ (KB|MB|GB)$/);
  const failures = adminPage.getByRole("region", { name: "Últimos fallos" });
  await expect(failures).toContainText("Prueba de sistema: correo rechazado");
  await expect(failures).toContainText("550 buzón inexistente");
  // The test server replicates nothing and has never been backed up: the operator is warned.
  await expect(adminPage.getByRole("alert")).toContainText(
    "nunca se ha hecho una copia de seguridad completa",
  );
  await axe(adminPage);

  const buyerPage = await pageAs(buyer);
  const response = await buyerPage.goto("/admin/system");
  expect(response?.status()).toBe(404);
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(
    "¡Ups! Página no encontrada",
  );
  await expect(buyerPage.getByText("Base de datos")).toHaveCount(0);
});
