import fs from "node:fs";
import path from "node:path";
import { test, expect, uniqueEmail, screenshots, tag } from "./fixtures";
import { grantPoints, storeFile } from "./factories";
import { PNG } from "./files";
import { pdfText } from "../pdf-text";

test.describe("Back office", () => {
  test("cambia el rol de un usuario y su siguiente visita llega a su nueva área", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const buyer = await createUser({ role: "buyer", firstName: "Rosa", lastName: "Cambio" });
    await loginAs(admin, page.context());
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { name: "Usuarios", level: 1 })).toBeVisible();
    await axe(page);
    await screenshots(page, "admin-users", testInfo);

    await page.getByLabel("Buscar por nombre, correo o empresa").fill(buyer.email);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/q=/);
    await expect(page.getByRole("row")).toHaveCount(2);
    await page.getByLabel("Rol de Rosa Cambio", { exact: true }).selectOption("partner");
    await page.getByRole("button", { name: "Guardar rol de Rosa Cambio" }).click();
    await expect(page.getByText("Rol actualizado")).toBeVisible();
    // The search is kept after the redirect.
    await expect(page).toHaveURL(/q=/);
    expect(server.sql.prepare("SELECT role FROM users WHERE id = ?").get(buyer.id)).toEqual({
      role: "partner",
    });

    await loginAs(buyer, page.context());
    await page.goto("/buyer");
    await expect(page).toHaveURL(/\/partner$/);
  });

  test("destaca un socio (la página de inicio lo muestra) y le asigna una solicitud", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const company = `Socio Destacado ${tag()}`;
    const partner = await createUser({ role: "partner", companyName: company });
    const buyer = await createUser({ role: "buyer" });
    const title = `Compra de válvulas ${tag()}`;
    const requestId = Number(
      server.sql
        .prepare(
          `INSERT INTO quote_requests (buyer_id, title, file_name, file_type, file_key, file_size, status)
           VALUES (?, ?, 'req.pdf', 'application/pdf', 'x/req.pdf', 10, 'pending')`,
        )
        .run(buyer.id, title).lastInsertRowid,
    );

    await loginAs(admin, page.context());
    await page.goto(`/admin/partners?q=${encodeURIComponent(company)}`);
    await axe(page);
    await screenshots(page, "admin-partners", testInfo);
    await page.getByRole("button", { name: `Destacar a ${company}` }).click();
    await expect(page.getByText("Partner destacado")).toBeVisible();
    await expect(
      page.getByRole("button", { name: `Quitar de destacados a ${company}` }),
    ).toBeVisible();
    await axe(page);
    expect(
      server.sql.prepare("SELECT is_featured_partner AS f FROM users WHERE id = ?").get(partner.id),
    ).toEqual({ f: 1 });

    // With several partners listed, a card opens its assignment form on request (link, no JS needed).
    await createUser({ role: "partner", companyName: `Otro Socio ${tag()}` });
    await page.goto("/admin/partners");
    await expect(page.getByLabel(`Asignar solicitud a ${company}`)).toHaveCount(0);
    await axe(page);
    await page.getByRole("link", { name: `Asignar solicitud a ${company}` }).click();
    const select = page.getByLabel(`Asignar solicitud a ${company}`);
    await select.selectOption(String(requestId));
    await page.getByRole("button", { name: "Asignar", exact: true }).click();
    await expect(page.getByText("Socio asignado a la solicitud.")).toBeVisible();
    expect(
      server.sql.prepare("SELECT status FROM quote_requests WHERE id = ?").get(requestId),
    ).toEqual({ status: "assigned" });

    // The request the partner now has is no longer offered to them; sent anyway, it is refused.
    await expect(
      page.getByLabel(`Asignar solicitud a ${company}`).locator(`option[value="${requestId}"]`),
    ).toHaveCount(0);
    const again = await page.request.post("/admin/partners", {
      form: { intent: "assign", partnerId: String(partner.id), requestId: String(requestId) },
    });
    expect(await again.text()).toContain("Este partner ya está asignado a esta cotización");
    expect(
      server.sql
        .prepare("SELECT count(*) AS n FROM partner_assignments WHERE quote_request_id = ?")
        .get(requestId),
    ).toEqual({ n: 1 });

    await page.context().clearCookies();
    await page.goto("/");
    await expect(page.getByText(company)).toBeVisible();
  });

  test("crea una categoría; el mismo nombre con otras mayúsculas se rechaza junto al campo", async ({
    page,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    const categoryName = `Categoría ${tag()}`;
    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto("/admin/categories");
    await axe(page);
    await page.getByLabel("Nombre de la nueva categoría").fill(categoryName);
    await page.getByRole("button", { name: "Crear categoría" }).click();
    await expect(page.getByText("Categoría creada")).toBeVisible();
    // The form starts again empty (with JavaScript it kept the name for a second, refused click).
    await expect(page.getByLabel("Nombre de la nueva categoría")).toHaveValue("");
    await page.getByLabel("Nombre de la nueva categoría").fill(categoryName.toUpperCase());
    await page.getByRole("button", { name: "Crear categoría" }).click();
    await expect(page.getByText("Ya existe una categoría con ese nombre.")).toBeVisible();
    // The first creation's «Éxito» does not stay above the refusal of the second.
    await expect(page.getByText("Categoría creada")).toHaveCount(0);
    await screenshots(page, "admin-categories", testInfo);
  });

  test("crea un producto con categoría, proveedor e imagen tras corregir errores; el catálogo lo muestra", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    const admin = await createUser({ role: "admin" });
    const supplier = `Suministros ${tag()}`;
    const partner = await createUser({ role: "partner", companyName: supplier });
    const categoryName = `Categoría ${tag()}`;
    server.sql.prepare("INSERT INTO categories (name) VALUES (?)").run(categoryName);
    const productName = `Compresor ${tag()}`;
    const sku = `CMP-${tag()}`;

    await loginAs(admin, page.context());
    await page.goto("/admin/products");
    await page.getByRole("link", { name: "Nuevo producto" }).click();
    await expect(page).toHaveURL(/\/admin\/products\/new$/);
    await axe(page);
    await page.getByLabel("Nombre", { exact: true }).fill(productName);
    await page.getByLabel("SKU (opcional)").fill(sku);
    await page.getByLabel("Descripción (opcional)").fill("Compresor de aire de 200 litros.");
    await page.getByLabel("Categoría (opcional)").selectOption({ label: categoryName });
    await page.getByLabel("Proveedor (opcional)").selectOption({ label: supplier });
    await page.getByLabel("Precio base (opcional)").fill("1234,50");
    const storedFiles = (dir: string): string[] =>
      fs.existsSync(dir)
        ? fs
            .readdirSync(dir, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile() && e.name !== ".gitkeep")
            .map((e) => e.name)
        : [];
    const filesBefore = storedFiles(server.uploadsDir);
    await page.getByLabel("Existencia").fill("-2");
    // A text file named .png is refused by its content (magic bytes), not its name.
    await page.getByLabel("Imagen (opcional)").setInputFiles({
      name: "falsa.png",
      mimeType: "image/png",
      buffer: Buffer.from("esto no es una imagen"),
    });
    await page.getByRole("button", { name: "Crear producto" }).click();
    await expect(
      page.getByText("La existencia debe ser un número entero igual o mayor que 0."),
    ).toBeVisible();
    await expect(page.getByText(/Tipo de archivo no permitido/)).toBeVisible();
    // Neither a stored file nor a temp file is left behind.
    expect(storedFiles(server.uploadsDir)).toEqual(filesBefore);
    await expect(page.getByLabel("Nombre", { exact: true })).toHaveValue(productName);
    await expect(page.getByLabel("Precio base (opcional)")).toHaveValue("1234,50");
    await screenshots(page, "admin-product-form", testInfo);
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM products WHERE name = ?").get(productName),
    ).toEqual({ n: 0 });

    await page.getByLabel("Existencia").fill("10");
    await page
      .getByLabel("Imagen (opcional)")
      .setInputFiles({ name: "compresor.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Crear producto" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByText("Producto creado")).toBeVisible();
    await axe(page);
    await screenshots(page, "admin-products", testInfo);
    const row = server.sql
      .prepare(
        "SELECT id, sku, base_price_cents, stock_quantity, is_active, supplier_id, image_key, image_type FROM products WHERE name = ?",
      )
      .get(productName) as Record<string, unknown>;
    expect(row).toMatchObject({
      sku,
      base_price_cents: 123_450,
      stock_quantity: 10,
      is_active: 1,
      supplier_id: partner.id,
      image_type: "image/png",
    });
    expect(fs.existsSync(path.join(server.uploadsDir, String(row.image_key)))).toBe(true);
    const image = await page.request.get(`/files/products/${row.id}`);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");

    await page.context().clearCookies();
    await page.goto("/");
    const card = page.locator("#catalogo").getByRole("listitem").filter({ hasText: productName });
    await expect(card).toBeVisible();
    await expect(card).toContainText(supplier);
    await expect(card.locator(`img[src="/files/products/${row.id}"]`)).toHaveCount(1);
  });

  test("elimina un producto tras confirmar y su imagen se borra", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    const productName = `Compresor ${tag()}`;
    const image = storeFile(server, "compresor.png", "image/png", PNG);
    const productId = Number(
      server.sql
        .prepare(
          "INSERT INTO products (name, stock_quantity, image_key, image_type) VALUES (?, 10, ?, ?)",
        )
        .run(productName, image.key, image.type).lastInsertRowid,
    );
    const imageFile = path.join(server.uploadsDir, image.key);

    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto(`/admin/products?q=${encodeURIComponent(productName)}`);
    await page.getByRole("link", { name: `Eliminar ${productName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/products/${productId}/delete$`));
    await expect(
      page.getByText("¿Estás seguro de que quieres eliminar este producto?"),
    ).toBeVisible();
    await axe(page);
    await screenshots(page, "admin-product-delete", testInfo);
    await page.getByRole("button", { name: "Sí, eliminar producto" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByText("Producto eliminado")).toBeVisible();
    expect(
      server.sql.prepare("SELECT count(*) AS n FROM products WHERE id = ?").get(productId),
    ).toEqual({ n: 0 });
    expect(fs.existsSync(imageFile)).toBe(false);
  });

  test("guarda la configuración y la siguiente cotización oficial usa la nueva comisión", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto("/admin/settings");
    await expect(page.getByLabel("Comisión por defecto (%)")).toHaveValue("5");
    await axe(page);
    await screenshots(page, "admin-settings", testInfo);

    await page.getByLabel("Comisión por defecto (%)").fill("150");
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(
      page.getByText(
        "La comisión debe ser un número entre 0 y 100 (usa punto o coma para los decimales).",
      ),
    ).toBeVisible();
    await expect(page.getByLabel("Comisión por defecto (%)")).toHaveValue("150");

    await page.getByLabel("Comisión por defecto (%)").fill("7,5");
    const instructions = `Transferencia a Banco Ficticio ${tag()}\nCuenta 0000 0000 0000`;
    await page.getByLabel("Instrucciones de pago").fill(instructions);
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(page.getByText("Configuración guardada")).toBeVisible();
    await expect(page.getByLabel("Comisión por defecto (%)")).toHaveValue("7.5");
    await expect(page.getByLabel("Instrucciones de pago")).toHaveValue(instructions);
    expect(
      server.sql.prepare("SELECT value FROM settings WHERE key = 'paymentInstructions'").get(),
    ).toEqual({ value: JSON.stringify(instructions) });
    expect(
      server.sql.prepare("SELECT value FROM settings WHERE key = 'defaultCommission'").get(),
    ).toEqual({ value: "7.5" });
    expect(
      server.sql.prepare("SELECT value FROM settings WHERE key = 'minQuoteAmountCents'").get(),
    ).toEqual({ value: "10000" });

    // The next official quote uses the new commission.
    const buyer = await createUser({ role: "buyer" });
    const stamp = new Date().toISOString();
    const requestId = Number(
      server.sql
        .prepare(
          `INSERT INTO quote_requests (buyer_id, title, file_name, file_type, file_key, file_size, status, created_at, updated_at)
           VALUES (?, 'Flota de 10 camionetas', 'r.pdf', 'application/pdf', 'sin-archivo.pdf', 10, 'pending', ?, ?)`,
        )
        .run(buyer.id, stamp, stamp).lastInsertRowid,
    );
    await page.goto(`/admin/quotes/${requestId}`);
    await expect(page.getByText(/comisión vigente \(7\.5 %, sobre el subtotal\)/)).toBeVisible();
    await page.getByLabel(/Monto final/).fill("1000");
    await page.getByRole("button", { name: "Crear cotización oficial" }).click();
    await expect(page.getByText("Cotización oficial creada.")).toBeVisible();
    expect(
      server.sql
        .prepare(
          "SELECT commission_percentage, commission_amount_cents FROM official_quotes WHERE quote_request_id = ?",
        )
        .get(requestId),
    ).toEqual({ commission_percentage: 7.5, commission_amount_cents: 7500 });
    // Its PDF tells the buyer how to pay, with the request as the reference.
    const pdfHref = await page.getByRole("link", { name: "Descargar PDF" }).getAttribute("href");
    const pdf = await pdfText(await (await page.request.get(pdfHref!)).body());
    expect(pdf).toContain(instructions.split("\n")[0]);
    expect(pdf).toContain(`Referencia del pago: Solicitud N.º ${requestId}`);

    // An amount is recorded now: the currency is shown as it is, with the reason (DECISIONS §3).
    await page.goto("/admin/settings");
    await expect(page.getByLabel("Moneda de la plataforma").locator("option")).toHaveText([
      "USD · Dólar estadounidense",
    ]);
    await expect(page.getByText(/Ya hay montos registrados en esta moneda/)).toBeVisible();
    // A form sent with another currency anyway is refused, and nothing is saved.
    const forged = await page.request.post("/admin/settings", {
      form: {
        sessionTimeoutMinutes: "30",
        maxLoginAttempts: "5",
        defaultCommission: "3",
        loyaltyPointsPerUnit: "1",
        minQuoteAmount: "100",
        quoteDays: "5",
        defaultTaxRate: "0",
        currency: "EUR",
      },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(423);
    expect(await forged.text()).toContain("La moneda ya no se puede cambiar");
    expect(
      server.sql.prepare("SELECT value FROM settings WHERE key = 'defaultCommission'").get(),
    ).toEqual({ value: "7.5" });
    // Leave the shared server as other journeys expect it.
    server.sql.prepare("DELETE FROM settings").run();
  });

  test("contactos: contadores, búsqueda y enlaces mailto y tel", async ({
    page,
    createUser,
    loginAs,
    server,
    axe,
  }, testInfo) => {
    const word = `turbinas${tag()}`;
    const email = uniqueEmail("contacto-admin");
    const insert = server.sql.prepare(
      "INSERT INTO contact_submissions (name, email, phone, company, message) VALUES (?, ?, ?, ?, ?)",
    );
    insert.run(
      "Elena Buscada",
      email,
      "+52 55 9876 5432",
      "Energía Ficticia",
      `Cotizar ${word} eólicas.`,
    );
    insert.run("Otro Contacto", uniqueEmail("otro"), null, null, "Mensaje sin relación.");

    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto("/admin/contacts");
    await expect(page.getByTestId("stat-Total")).not.toHaveText("0");
    await axe(page);
    await screenshots(page, "admin-contacts", testInfo);
    await page.getByLabel("Buscar por nombre, correo, empresa o mensaje").fill(word);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.getByText("1 mensaje encontrado")).toBeVisible();
    await expect(page.getByRole("heading", { name: /Elena Buscada/ })).toBeVisible();
    await expect(page.getByRole("link", { name: email })).toHaveAttribute(
      "href",
      `mailto:${email}`,
    );
    await expect(page.getByRole("link", { name: "+52 55 9876 5432" })).toHaveAttribute(
      "href",
      "tel:+525598765432",
    );
    await expect(page.getByText("Otro Contacto")).toHaveCount(0);

    // 30 matches: 25 on the first page, the rest on the second, the search kept across pages.
    const bulk = `lote${tag()}`;
    for (let i = 0; i < 30; i++) {
      insert.run(`Contacto ${i}`, uniqueEmail("lote"), null, null, `Consulta ${bulk} número ${i}`);
    }
    await page.getByLabel("Buscar por nombre, correo, empresa o mensaje").fill(bulk);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page.getByText("30 mensajes encontrados")).toBeVisible();
    await expect(page.getByText("Página 1 de 2")).toBeVisible();
    await expect(page.locator('[data-testid^="contact-"]')).toHaveCount(25);
    await page.getByRole("link", { name: "Siguiente →" }).click();
    await expect(page.getByText("Página 2 de 2")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`q=${bulk}.*page=2|page=2.*q=${bulk}`));
    await expect(page.locator('[data-testid^="contact-"]')).toHaveCount(5);
  });

  test("analíticas con gráficos SVG accesibles", async ({
    page,
    createUser,
    loginAs,
    axe,
  }, testInfo) => {
    await loginAs(await createUser({ role: "admin" }), page.context());
    await page.goto("/admin/analytics");
    await expect(page.getByRole("heading", { name: "Analíticas", level: 1 })).toBeVisible();
    const charts = page.locator('svg[role="img"]');
    await expect(charts).toHaveCount(4);
    for (const chart of await charts.all()) {
      expect(await chart.getAttribute("aria-label")).toBeTruthy();
      await expect(chart.locator("title")).toHaveCount(1);
    }
    await axe(page);
    await screenshots(page, "admin-analytics", testInfo);
  });

  test("un comprador no puede ver ni cambiar nada del back office", async ({
    page,
    createUser,
    loginAs,
    server,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const productId = Number(
      server.sql
        .prepare("INSERT INTO products (name, stock_quantity) VALUES (?, 1)")
        .run(`Producto intocable ${tag()}`).lastInsertRowid,
    );
    const categoryId = Number(
      server.sql.prepare("INSERT INTO categories (name) VALUES (?)").run(`Intocable ${tag()}`)
        .lastInsertRowid,
    );
    const snapshot = () => ({
      users: server.sql
        .prepare("SELECT id, role, is_featured_partner FROM users ORDER BY id")
        .all(),
      products: server.sql.prepare("SELECT * FROM products ORDER BY id").all(),
      categories: server.sql.prepare("SELECT * FROM categories ORDER BY id").all(),
      settings: server.sql.prepare("SELECT * FROM settings ORDER BY key").all(),
      assignments: server.sql.prepare("SELECT count(*) AS n FROM partner_assignments").get(),
    });
    const before = snapshot();
    await loginAs(buyer, page.context());

    const pages = [
      "/admin",
      "/admin/users",
      "/admin/partners",
      "/admin/products",
      "/admin/products/new",
      `/admin/products/${productId}`,
      `/admin/products/${productId}/delete`,
      "/admin/categories",
      "/admin/contacts",
      "/admin/settings",
      "/admin/analytics",
    ];
    for (const url of pages) {
      await page.goto(url);
      await expect(page, url).toHaveURL(/\/buyer$/);
    }

    const posts: [string, Record<string, string>][] = [
      ["/admin/users", { intent: "role", userId: String(buyer.id), role: "admin" }],
      ["/admin/partners", { intent: "featured", partnerId: String(partner.id), featured: "1" }],
      ["/admin/partners", { intent: "assign", partnerId: String(partner.id), requestId: "1" }],
      ["/admin/products/new", { name: "Producto pirata", stock_quantity: "1" }],
      [`/admin/products/${productId}`, { name: "Renombrado", stock_quantity: "5" }],
      [`/admin/products/${productId}/delete`, {}],
      ["/admin/categories", { intent: "create", name: "Categoría pirata" }],
      ["/admin/categories", { intent: "rename", categoryId: String(categoryId), name: "Otro" }],
      ["/admin/categories", { intent: "active", categoryId: String(categoryId), active: "0" }],
      [
        "/admin/settings",
        {
          sessionTimeoutMinutes: "5",
          maxLoginAttempts: "1",
          defaultCommission: "99",
          loyaltyPointsPerUnit: "0",
          minQuoteAmount: "1",
          currency: "EUR",
        },
      ],
    ];
    for (const [url, form] of posts) {
      const multipart = url.startsWith("/admin/products/") && !url.endsWith("/delete");
      const response = await page.request.post(url, {
        ...(multipart ? { multipart: form } : { form }),
        maxRedirects: 0,
      });
      expect(response.status(), url).toBe(302);
      expect(new URL(response.headers()["location"] ?? "", server.url).pathname, url).toBe(
        "/buyer",
      );
    }
    expect(snapshot()).toEqual(before);
  });
});

test("un administrador marca una recompensa como no disponible y el comprador no puede canjearla", async ({
  server,
  createUser,
  pageAs,
}) => {
  const admin = await createUser({ role: "admin" });
  const buyer = await createUser({ role: "buyer" });
  grantPoints(server, buyer, 800);
  const adminPage = await pageAs(admin);
  await adminPage.goto("/admin/settings");
  await adminPage.getByRole("button", { name: "Marcar no disponible Descuento 5%" }).click();
  await expect(adminPage.getByText("Recompensa marcada como no disponible")).toBeVisible();

  const buyerPage = await pageAs(buyer);
  await buyerPage.goto("/buyer/rewards");
  await expect(buyerPage.getByRole("button", { name: "Canjear Descuento 5%" })).toHaveCount(0);
  const rewardId = (
    server.sql.prepare("SELECT id FROM rewards WHERE points_cost = 500").get() as { id: number }
  ).id;
  const attempt = await buyerPage.request.post("/buyer/rewards", {
    form: { intent: "redeem", reward_id: String(rewardId) },
  });
  expect(attempt.status()).toBe(409);
  expect(
    server.sql
      .prepare("SELECT sum(points) AS points FROM loyalty_ledger WHERE buyer_id = ?")
      .get(buyer.id),
  ).toEqual({ points: 800 });

  await adminPage.getByRole("button", { name: "Marcar disponible Descuento 5%" }).click();
  await expect(adminPage.getByText("Recompensa disponible para canje")).toBeVisible();
});
