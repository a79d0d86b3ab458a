import {
  test,
  expect,
  linkIn,
  PASSWORD,
  readMails,
  screenshots,
  tag,
  uniqueEmail,
  waitForMail,
} from "./fixtures";

/**
 * An operator deactivates and reactivates an account, and invites someone who then activates their
 * account from the e-mail. Both projects run it: the confirmation is a <details> and every action a
 * plain POST form, so nothing needs JavaScript.
 */
test.describe("Usuarios: desactivar, reactivar e invitar", () => {
  test("una sesión abierta del usuario se rechaza en cuanto se desactiva; reactivado, vuelve a entrar", async ({
    server,
    createUser,
    pageAs,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer", firstName: "Diego", lastName: `Baja${tag()}` });
    const name = `${buyer.firstName} ${buyer.lastName}`;

    const buyerPage = await pageAs(buyer);
    await buyerPage.goto("/buyer/quotes");
    await expect(buyerPage).toHaveURL(/\/buyer\/quotes$/);

    const adminPage = await pageAs(admin);
    await adminPage.goto(`/admin/users?q=${encodeURIComponent(buyer.email)}`);
    const row = adminPage.getByTestId(`user-${buyer.id}`);
    await expect(row.getByText("Verificado")).toBeVisible();
    // The operator's own row offers no way to deactivate it.
    await adminPage.goto(`/admin/users?q=${encodeURIComponent(admin.email)}`);
    const own = adminPage.getByTestId(`user-${admin.id}`);
    await expect(own.getByText("Tu cuenta")).toBeVisible();
    await expect(own.locator("summary")).toHaveCount(0);

    await adminPage.goto(`/admin/users?q=${encodeURIComponent(buyer.email)}`);
    await row.locator("summary", { hasText: `Desactivar la cuenta de ${name}` }).click();
    await expect(row.getByText("no podrá iniciar sesión")).toBeVisible();
    await axe(adminPage);
    await screenshots(adminPage, "admin-users-deactivate", testInfo);
    await row.getByRole("button", { name: `Sí, desactivar la cuenta de ${name}` }).click();
    await expect(adminPage.getByText("Cuenta desactivada")).toBeVisible();
    await expect(adminPage).toHaveURL(/q=/);
    await expect(row.getByText("Desactivado", { exact: true })).toBeVisible();
    const stored = server.sql
      .prepare("SELECT deactivated_at, deactivated_by FROM users WHERE id = ?")
      .get(buyer.id) as { deactivated_at: string | null; deactivated_by: number | null };
    expect(stored.deactivated_at).toBeTruthy();
    expect(stored.deactivated_by).toBe(admin.id);
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").get(buyer.id),
    ).toEqual({ n: 0 });

    // The buyer's next click, in the session that was open a moment ago, lands on sign-in.
    await buyerPage.goto("/buyer/quotes");
    await expect(buyerPage).toHaveURL(/\/auth\?redirectTo=%2Fbuyer%2Fquotes/);
    await buyerPage.getByLabel("Correo electrónico").fill(buyer.email);
    await buyerPage.getByLabel("Contraseña").fill(PASSWORD);
    await buyerPage.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(buyerPage.getByText("Cuenta desactivada")).toBeVisible();
    await expect(buyerPage.getByText(/Tu cuenta está desactivada/)).toBeVisible();
    await expect(buyerPage).toHaveURL(/\/auth/);

    // The list's filter finds it.
    await adminPage.goto("/admin/users");
    await adminPage.getByLabel("Buscar por nombre, correo o empresa").fill(buyer.email);
    await adminPage.getByLabel("Cuenta", { exact: true }).selectOption("deactivated");
    await adminPage.getByRole("button", { name: "Buscar" }).click();
    await expect(adminPage).toHaveURL(/status=deactivated/);
    await expect(row.getByText("Desactivado", { exact: true })).toBeVisible();

    await row.getByRole("button", { name: `Reactivar la cuenta de ${name}` }).click();
    await expect(adminPage.getByText("Cuenta reactivada")).toBeVisible();
    // The filter is kept: the reactivated account is no longer among the deactivated.
    await expect(adminPage.getByText("No se encontraron usuarios")).toBeVisible();

    await buyerPage.goto("/auth");
    await buyerPage.getByLabel("Correo electrónico").fill(buyer.email);
    await buyerPage.getByLabel("Contraseña").fill(PASSWORD);
    await buyerPage.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(buyerPage).toHaveURL(/\/buyer$/);
  });

  test("invitación: correo «Activa tu cuenta», enlace, contraseña y sesión iniciada", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
    javaScriptEnabled,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const email = uniqueEmail("invitada");
    const lastName = `Invitada${tag()}`;
    await loginAs(admin, page.context());
    await page.goto("/admin/users");
    await page.getByText("Invitar a un usuario").click();
    const form = page.getByRole("form", { name: "Invitar a un usuario" });
    await axe(page);
    await form.getByLabel("Nombre", { exact: true }).fill("Inés");
    await form.getByLabel("Apellido").fill(lastName);
    await form.getByLabel("Correo electrónico").fill(admin.email.toUpperCase());
    await form.getByLabel("Empresa (opcional)").fill("Distribuidora del Sur");
    await form.getByLabel("Rol").selectOption("buyer");
    await form.getByRole("button", { name: "Enviar invitación" }).click();

    // An e-mail that has an account: the message is next to the field, what was typed is kept.
    await expect(form.getByText("Ya existe una cuenta con este correo.")).toBeVisible();
    await expect(form.getByLabel("Nombre", { exact: true })).toHaveValue("Inés");
    // With JavaScript the refused field takes the focus (without it, the page is a new page).
    if (javaScriptEnabled) await expect(form.getByLabel("Correo electrónico")).toBeFocused();
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM users WHERE last_name = ?").get(lastName),
    ).toEqual({ n: 0 });

    await form.getByLabel("Correo electrónico").fill(email);
    await form.getByRole("button", { name: "Enviar invitación" }).click();
    await expect(page.getByText("Invitación enviada")).toBeVisible();
    // The invitation form closes empty: a second click does not send the same person again.
    await expect(form.getByLabel("Correo electrónico")).toBeHidden();
    await page.getByText("Invitar a un usuario").click();
    await expect(form.getByLabel("Correo electrónico")).toHaveValue("");
    const invited = server.sql
      .prepare("SELECT id, role, email_verified_at FROM users WHERE email = ?")
      .get(email) as { id: number; role: string; email_verified_at: string | null };
    expect(invited).toMatchObject({ role: "buyer", email_verified_at: null });

    // Never activated: the invitation can be sent again; only the newest link works.
    await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    const row = page.getByTestId(`user-${invited.id}`);
    await expect(row.getByText("Invitación pendiente")).toBeVisible();
    await row.getByRole("button", { name: `Reenviar invitación a Inés ${lastName}` }).click();
    await expect(page.getByText("Invitación reenviada")).toBeVisible();
    await waitForMail(server, email, "Activa tu cuenta de CotizaHub");
    await expect.poll(() => readMails(server, email).length, { timeout: 30_000 }).toBe(2);
    const [first, latest] = readMails(server, email);
    expect(latest!.body).toContain("te invitó a CotizaHub como comprador de Distribuidora del Sur");
    expect(latest!.body).toContain("El enlace vence en 7 días.");

    // The invited person opens the link in their own browser (no session).
    await page.context().clearCookies();
    await page.goto(linkIn(first!, "/auth/reset"));
    await expect(
      page.getByRole("heading", { name: "Invitación inválida o vencida" }),
    ).toBeVisible();

    const link = linkIn(latest!, "/auth/reset");
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Activa tu cuenta" })).toBeVisible();
    await axe(page);
    await screenshots(page, "auth-invitation", testInfo);
    await page.getByLabel("Contraseña", { exact: true }).fill("Clave-invitada-1");
    await page.getByLabel("Confirmar contraseña").fill("Clave-invitada-1");
    await page.getByRole("button", { name: "Activar cuenta" }).click();
    await expect(page).toHaveURL(/\/buyer$/);
    await expect(page.getByText("¡Cuenta activada!")).toBeVisible();
    expect(
      (
        server.sql.prepare("SELECT email_verified_at FROM users WHERE id = ?").get(invited.id) as {
          email_verified_at: string | null;
        }
      ).email_verified_at,
    ).toBeTruthy();

    // Used once: the link does not open the form again.
    await page.goto(link);
    await expect(
      page.getByRole("heading", { name: "Invitación inválida o vencida" }),
    ).toBeVisible();

    // And the new password signs in.
    await page.context().clearCookies();
    await page.goto("/auth");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña").fill("Clave-invitada-1");
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page).toHaveURL(/\/buyer$/);
  });
});
