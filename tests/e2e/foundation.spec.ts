import { test, expect, uniqueEmail, waitForMail, linkIn, PASSWORD, screenshots } from "./fixtures";
import { followEachNotification } from "./notifications";

test.describe("Cuentas", () => {
  for (const role of ["buyer", "partner"] as const) {
    test(`registro como ${role}: correo de verificación, enlace, inicio de sesión y su área`, async ({
      page,
      server,
      axe,
    }, testInfo) => {
      const email = uniqueEmail(`registro-${role}`);
      await page.goto("/auth/signup");
      await axe(page);
      await screenshots(page, "auth-signup", testInfo);
      await page.getByLabel("Nombre", { exact: true }).fill("Lucía");
      await page.getByLabel("Apellido").fill("Registro");
      await page.getByLabel("Correo electrónico").fill(email);
      await page.getByLabel("Contraseña").fill(PASSWORD);
      await page.getByLabel("Empresa (opcional)").fill("Empresa Ficticia S.A.");
      await page.getByLabel(role === "buyer" ? /Comprador/ : /Socio/).check();
      await page.getByRole("button", { name: "Crear cuenta" }).click();
      await expect(page.getByText("¡Cuenta creada!")).toBeVisible();
      await expect(page).toHaveURL(/\/auth$/);

      // Not verified yet: sign-in is refused with a way to resend.
      await page.getByLabel("Correo electrónico").fill(email);
      await page.getByLabel("Contraseña").fill(PASSWORD);
      await page.getByRole("button", { name: "Iniciar Sesión" }).click();
      await expect(page.getByText("Correo sin verificar")).toBeVisible();

      const mail = await waitForMail(server, email, "Verifica tu correo en CotizaHub");
      const verifyLink = linkIn(mail, "/auth/verify");
      await page.goto(verifyLink);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText(/correo.*verificado/i).first()).toBeVisible();

      // The link opened again says the account is verified and offers to sign in; a link that
      // was never sent still reads as invalid, and tells nothing about any account.
      await page.goto(verifyLink);
      await expect(
        page.getByRole("heading", { level: 1, name: "Tu correo ya está verificado" }),
      ).toBeVisible();
      await expect(page.getByText("Enlace inválido o vencido")).toHaveCount(0);
      await axe(page);
      await page.goto("/auth/verify?token=no-es-un-enlace-enviado");
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByText("Enlace inválido o vencido")).toBeVisible();
      await page.goto(verifyLink);
      await page.getByRole("link", { name: "Iniciar sesión", exact: true }).click();
      await expect(page).toHaveURL(/\/auth$/);

      // The first sign-in of the account welcomes it; the next ones welcome it back.
      const signIn = async () => {
        await page.getByLabel("Correo electrónico").fill(email);
        await page.getByLabel("Contraseña").fill(PASSWORD);
        await page.getByRole("button", { name: "Iniciar Sesión" }).click();
        await expect(page).toHaveURL(role === "buyer" ? /\/buyer$/ : /\/partner$/);
      };
      await signIn();
      await expect(page.getByText("¡Bienvenido a CotizaHub!")).toBeVisible();
      await expect(page.getByText("¡Bienvenido de vuelta!")).toHaveCount(0);
      await page.locator("summary", { hasText: "Menú de usuario" }).click();
      await page.getByRole("button", { name: "Cerrar sesión" }).click();
      await expect(page).toHaveURL(/\/$|\/auth/);
      await page.goto("/auth");
      await signIn();
      await expect(page.getByText("¡Bienvenido de vuelta!")).toBeVisible();
      const stored = server.sql
        .prepare("SELECT role, email_verified_at FROM users WHERE email = ?")
        .get(email) as { role: string; email_verified_at: string };
      expect(stored.role).toBe(role);
      expect(stored.email_verified_at).toBeTruthy();
    });
  }

  test("contraseña incorrecta, cuenta existente y bloqueo muestran los mensajes", async ({
    page,
    createUser,
    server,
  }) => {
    const user = await createUser({ role: "buyer" });
    await page.goto("/auth");
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByLabel("Contraseña").fill("otra-clave-mala");
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page.getByText("Credenciales inválidas")).toBeVisible();
    await expect(page.getByText("Por favor verifica tu correo y contraseña.")).toBeVisible();
    // The typed e-mail is kept, the password is not.
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(user.email);

    await page.goto("/auth/signup");
    await page.getByLabel("Nombre", { exact: true }).fill("Otra");
    await page.getByLabel("Apellido").fill("Persona");
    await page.getByLabel("Correo electrónico").fill(user.email.toUpperCase());
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Crear cuenta" }).click();
    await expect(page.getByText("La cuenta ya existe")).toBeVisible();
    await expect(
      page.getByText("Ya existe una cuenta con este correo. Por favor inicia sesión"),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Iniciar Sesión" })).toBeVisible();
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM users WHERE email = ?").get(user.email),
    ).toEqual({ n: 1 });

    // Four more failures reach the limit of five; then even the right password is refused.
    for (let attempt = 0; attempt < 4; attempt++) {
      await page.goto("/auth");
      await page.getByLabel("Correo electrónico").fill(user.email);
      await page.getByLabel("Contraseña").fill(`mala-${attempt}`);
      await page.getByRole("button", { name: "Iniciar Sesión" }).click();
      await expect(page.getByText("Credenciales inválidas")).toBeVisible();
    }
    await page.goto("/auth");
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page.getByText("Acceso bloqueado temporalmente")).toBeVisible();
    await expect(page).toHaveURL(/\/auth/);
  });

  test("restablecer la contraseña por correo", async ({ page, createUser, server }) => {
    const user = await createUser({ role: "partner" });
    await page.goto("/auth");
    await page.getByRole("link", { name: "¿Olvidaste tu contraseña?" }).click();
    // /auth has an e-mail field too: wait for the new page before typing into it.
    await expect(page.getByRole("heading", { name: "¿Olvidaste tu contraseña?" })).toBeVisible();
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByRole("button", { name: /enviar/i }).click();
    await expect(page.getByText(/si existe una cuenta/i)).toBeVisible();
    const mail = await waitForMail(server, user.email, "Restablece tu contraseña de CotizaHub");
    await page.goto(linkIn(mail, "/auth/reset"));
    await page.getByLabel("Nueva contraseña").fill("Nueva-clave-456");
    await page.getByLabel("Confirmar contraseña").fill("Nueva-clave-456");
    await page.getByRole("button", { name: /guardar|restablecer|cambiar/i }).click();
    // The reset page's own URL starts with /auth too: wait for the sign-in page itself.
    await expect(page).toHaveURL(/\/auth$/);
    await page.getByLabel("Correo electrónico").fill(user.email);
    await page.getByLabel("Contraseña").fill("Nueva-clave-456");
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page).toHaveURL(/\/partner$/);
  });
});

test.describe("Rutas y guardas (SPEC §2)", () => {
  test("sin sesión, cada área lleva a /auth y vuelve tras iniciar sesión", async ({
    page,
    createUser,
  }) => {
    for (const area of ["/buyer", "/partner", "/admin", "/profile", "/notifications"]) {
      await page.goto(area);
      await expect(page).toHaveURL(new RegExp(`/auth\\?redirectTo=${encodeURIComponent(area)}`));
    }
    const buyer = await createUser({ role: "buyer" });
    await page.goto("/auth?redirectTo=%2Fprofile");
    await page.getByLabel("Correo electrónico").fill(buyer.email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test("redirectTo externo se ignora", async ({ page, createUser }) => {
    const buyer = await createUser({ role: "buyer" });
    for (const target of [
      "https://malicioso.example/",
      "//malicioso.example/",
      "/\\malicioso.example",
    ]) {
      await page.context().clearCookies();
      await page.goto(`/auth?redirectTo=${encodeURIComponent(target)}`);
      await page.getByLabel("Correo electrónico").fill(buyer.email);
      await page.getByLabel("Contraseña").fill(PASSWORD);
      await page.getByRole("button", { name: "Iniciar Sesión" }).click();
      await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/buyer$/);
    }
  });

  for (const role of ["buyer", "partner", "admin"] as const) {
    test(`${role}: entrar a otra área vuelve a la suya; / y /auth llevan al área propia`, async ({
      page,
      createUser,
      loginAs,
    }) => {
      const homes = { buyer: "/buyer", partner: "/partner", admin: "/admin" } as const;
      await loginAs(await createUser({ role }), page.context());
      for (const area of Object.values(homes)) {
        await page.goto(area);
        await expect(page).toHaveURL(new RegExp(`${homes[role]}$`));
      }
      await page.goto("/");
      await expect(page).toHaveURL(new RegExp(`${homes[role]}$`));
      await page.goto("/auth");
      await expect(page).toHaveURL(new RegExp(`${homes[role]}$`));
    });
  }

  test("una ruta desconocida muestra la página 404", async ({ page, axe }, testInfo) => {
    const response = await page.goto("/no-existe/para-nada");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "¡Ups! Página no encontrada" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Volver al inicio" })).toBeVisible();
    await axe(page);
    await screenshots(page, "404", testInfo);
  });
});

test.describe("Sitio público", () => {
  test("landing", async ({ page, axe }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Iniciar Sesión" }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Comenzar" }).first()).toBeVisible();
    await axe(page);
    await screenshots(page, "landing", testInfo);
  });

  for (const [path, heading] of [
    ["/terms", /Términos/],
    ["/privacy", /Privacidad/],
  ] as const) {
    test(`página legal ${path}`, async ({ page, axe }, testInfo) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await axe(page);
      await screenshots(page, path.slice(1), testInfo);
    });
  }

  test("contacto: valida, guarda, avisa a los administradores y muestra el panel de éxito", async ({
    page,
    server,
    createUser,
    pageAs,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    await page.goto("/contact");
    await axe(page);
    await screenshots(page, "contact", testInfo);
    await page.getByRole("button", { name: /enviar mensaje/i }).click();
    if (testInfo.project.name === "nojs") {
      await expect(page.getByText("Campos requeridos")).toBeVisible();
    }
    await expect(page.getByText(/obligatori/i).first()).toBeVisible();

    const email = uniqueEmail("contacto");
    await page.getByLabel(/Nombre/).fill("Mario Contacto");
    await page.getByLabel(/Correo electrónico/).fill(email);
    await page.getByLabel(/Empresa/).fill("Flota Ficticia");
    await page
      .getByLabel(/Mensaje/)
      .fill("Necesitamos cotizar 40 camionetas para el próximo trimestre.");
    await page.getByRole("button", { name: /enviar mensaje/i }).click();
    await expect(page.getByRole("heading", { name: "¡Gracias por escribirnos!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Enviar otro mensaje" })).toBeVisible();
    const row = server.sql
      .prepare("SELECT name, company, message FROM contact_submissions WHERE email = ?")
      .get(email);
    expect(row).toEqual({
      name: "Mario Contacto",
      company: "Flota Ficticia",
      message: "Necesitamos cotizar 40 camionetas para el próximo trimestre.",
    });
    const note = server.sql
      .prepare(
        "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND related_type = 'contact'",
      )
      .get(admin.id);
    expect(note).toEqual({ n: 1 });
    await page.getByRole("link", { name: "Enviar otro mensaje" }).click();
    await expect(page.getByLabel(/Mensaje/)).toHaveValue("");
    expect(await followEachNotification(await pageAs(admin))).toEqual([
      "Nuevo mensaje de contacto",
    ]);
  });
});

test.describe("Seguridad básica (DECISIONS §5)", () => {
  test("cabeceras de seguridad con nonce distinto en cada petición", async ({
    request,
    page,
    createUser,
    loginAs,
  }) => {
    const nonces = new Set<string>();
    for (const path of ["/", "/auth", "/contact", "/terms", "/no-existe"]) {
      const response = await request.get(path);
      const headers = response.headers();
      const csp = headers["content-security-policy"] ?? "";
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      nonces.add(nonce!);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();
      const body = await response.text();
      if (body.includes("<script")) expect(body).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(5);

    await loginAs(await createUser({ role: "buyer" }), page.context());
    const response = await page.goto("/buyer");
    expect(response?.headers()["cache-control"]).toContain("no-store");
  });

  test("un POST con Origin ajeno se rechaza y no guarda nada", async ({ request, server }) => {
    const email = uniqueEmail("csrf");
    const response = await request.post("/contact", {
      headers: { Origin: "https://malicioso.example" },
      form: { name: "Ataque", email, message: "Hola" },
    });
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(
      server.sql
        .prepare("SELECT count(*) AS n FROM contact_submissions WHERE email = ?")
        .get(email),
    ).toEqual({ n: 0 });
    const logout = await request.post("/auth/logout", {
      headers: { Origin: "https://malicioso.example" },
    });
    expect(logout.status()).toBeGreaterThanOrEqual(400);
  });

  test("cerrar sesión solo por POST; el id de sesión rota al iniciar sesión", async ({
    page,
    createUser,
    loginAs,
    server,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    await loginAs(buyer, page.context());
    const planted = (await page.context().cookies()).find((c) => c.name === "__session")!.value;
    await page.goto("/auth/logout");
    await page.goto("/buyer");
    await expect(page).toHaveURL(/\/buyer$/);

    await page.locator("summary", { hasText: "Menú de usuario" }).click();
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await expect(page).toHaveURL(/\/$|\/auth/);
    await page.goto("/buyer");
    await expect(page).toHaveURL(/\/auth/);
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").get(buyer.id),
    ).toEqual({ n: 0 });

    // A cookie planted before sign-in is not the session afterwards.
    await page.context().addCookies([{ name: "__session", value: planted, url: server.url }]);
    await page.goto("/auth");
    await page.getByLabel("Correo electrónico").fill(buyer.email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    await expect(page).toHaveURL(/\/buyer$/);
    const after = (await page.context().cookies()).find((c) => c.name === "__session")!.value;
    expect(after).not.toBe(planted);
    expect(after.split(".")[0]).not.toBe(planted.split(".")[0]);
  });

  test("el menú móvil y el de usuario se cierran al seguir uno de sus enlaces", async ({
    page,
    createUser,
    loginAs,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await loginAs(await createUser({ role: "buyer" }), page.context());
    await page.goto("/buyer");
    const mobileNav = page.getByRole("navigation", { name: "Navegación del área (móvil)" });
    await page.getByText("Menú · Comprador").click();
    await mobileNav.getByRole("link", { name: "Pagos" }).click();
    await expect(page).toHaveURL(/\/buyer\/payments$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(mobileNav).toBeHidden();

    await page.locator("summary", { hasText: "Menú de usuario" }).click();
    await page.getByRole("link", { name: "Mi perfil" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("link", { name: "Mi perfil" })).toBeHidden();
  });

  test("la sesión caduca tras la inactividad configurada", async ({
    page,
    createUser,
    loginAs,
    server,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    await loginAs(buyer, page.context());
    await page.goto("/buyer");
    await expect(page).toHaveURL(/\/buyer$/);
    server.sql
      .prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?")
      .run(new Date(Date.now() - 61 * 60_000).toISOString(), buyer.id);
    await page.goto("/buyer");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fbuyer&sesion=expirada$/);
    await expect(
      page.getByText("Tu sesión expiró por inactividad. Inicia sesión de nuevo para continuar."),
    ).toBeVisible();
  });
});

test.describe("Perfil y notificaciones", () => {
  for (const role of ["buyer", "partner", "admin"] as const) {
    test(`${role}: edita su perfil (la página se recarga con lo guardado)`, async ({
      page,
      server,
      createUser,
      loginAs,
      axe,
    }, testInfo) => {
      const user = await createUser({ role });
      await loginAs(user, page.context());
      await page.goto("/profile");
      await expect(
        page
          .getByRole("definition")
          .getByText({ buyer: "Comprador", partner: "Socio", admin: "Administrador" }[role], {
            exact: true,
          }),
      ).toBeVisible();
      // One scan of the shared profile page is enough.
      if (role === "buyer") {
        await axe(page);
        await screenshots(page, "profile", testInfo);
      }
      await page.getByLabel("Nombre", { exact: true }).fill("Renombrada");
      await page.getByLabel("Empresa").fill("Empresa Renombrada S.A.");
      await page
        .getByRole("button", { name: /Guardar/ })
        .first()
        .click();
      await expect(page.getByText("Perfil actualizado")).toBeVisible();
      await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue("Renombrada");
      expect(
        server.sql.prepare("SELECT first_name, company_name FROM users WHERE id = ?").get(user.id),
      ).toEqual({
        first_name: "Renombrada",
        company_name: "Empresa Renombrada S.A.",
      });
    });
  }

  test("la campana cuenta las no leídas (9+) y se marcan, se marcan todas y se eliminan por POST", async ({
    page,
    server,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const buyer = await createUser({ role: "buyer" });
    const insert = server.sql.prepare(
      "INSERT INTO notifications (user_id, type, title, message, link, created_at) VALUES (?, 'info', ?, 'Mensaje de prueba', '/buyer', ?)",
    );
    for (let i = 1; i <= 11; i++)
      insert.run(
        buyer.id,
        `Aviso número ${i}`,
        new Date(Date.now() - (11 - i) * 1000).toISOString(),
      );
    await loginAs(buyer, page.context());
    await page.goto("/buyer");
    await expect(page.getByRole("link", { name: /Notificaciones/ }).first()).toContainText("9+");
    // Its name holds the «9+» shown (WCAG 2.5.3) and the exact count.
    await expect(
      page.getByRole("link", { name: "Notificaciones, 9+ sin leer (11)", exact: true }),
    ).toBeVisible();
    await page.goto("/notifications");
    await axe(page);
    await screenshots(page, "notifications", testInfo);
    await page.getByRole("button", { name: "Eliminar notificación: Aviso número 11" }).click();
    await expect(page.getByText("Aviso número 11")).toHaveCount(0);
    await page.getByRole("button", { name: "Marcar como leída" }).first().click();
    await expect(page.getByRole("link", { name: /Notificaciones/ }).first()).toContainText("9");
    await page.getByRole("button", { name: "Marcar todas como leídas" }).click();
    await expect(page.getByRole("button", { name: "Marcar todas como leídas" })).toHaveCount(0);
    expect(
      server.sql
        .prepare(
          "SELECT count(*) AS n, sum(read_at IS NULL) AS unread FROM notifications WHERE user_id = ?",
        )
        .get(buyer.id),
    ).toEqual({ n: 10, unread: 0 });
  });
});
