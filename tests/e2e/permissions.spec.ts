import fs from "node:fs";
import path from "node:path";
import { test, expect, type Server } from "./fixtures";
import { EXE, PDF } from "./files";

function storedFiles(server: Server): string[] {
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) =>
            e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
          )
      : [];
  return walk(server.uploadsDir).sort();
}

function insertRequest(server: Server, buyerId: number, status = "pending") {
  const stamp = new Date().toISOString();
  return Number(
    server.sql
      .prepare(
        `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, created_at, updated_at) VALUES (?, 'Solicitud privada', 'Datos confidenciales', 'privado.pdf', 'application/pdf', 'no-existe-privado.pdf', 10, ?, ?, ?)`,
      )
      .run(buyerId, status, stamp, stamp).lastInsertRowid,
  );
}

function dbState(server: Server, requestId: number) {
  return {
    request: server.sql
      .prepare("SELECT status, admin_notes, total_amount_cents FROM quote_requests WHERE id = ?")
      .get(requestId),
    assignments: server.sql
      .prepare("SELECT count(*) AS n FROM partner_assignments WHERE quote_request_id = ?")
      .get(requestId),
    official: server.sql
      .prepare("SELECT count(*) AS n FROM official_quotes WHERE quote_request_id = ?")
      .get(requestId),
    payments: server.sql
      .prepare("SELECT count(*) AS n FROM payments WHERE quote_request_id = ?")
      .get(requestId),
    history: server.sql
      .prepare("SELECT count(*) AS n FROM request_status_history WHERE quote_request_id = ?")
      .get(requestId),
    round: server.sql
      .prepare(
        "SELECT title, quote_deadline, needed_by, cancellation_reason, file_key FROM quote_requests WHERE id = ?",
      )
      .get(requestId),
    states: server.sql
      .prepare(
        "SELECT partner_id, state, decline_reason FROM partner_assignments WHERE quote_request_id = ? ORDER BY id",
      )
      .all(requestId),
    offers: server.sql
      .prepare("SELECT count(*) AS n FROM partner_quotes WHERE quote_request_id = ?")
      .get(requestId),
  };
}

function assign(server: Server, requestId: number, partnerId: number, state = "invited") {
  server.sql
    .prepare(
      "INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at, state) VALUES (?, ?, ?, ?)",
    )
    .run(partnerId, requestId, new Date().toISOString(), state);
}

test.describe("archivos subidos", () => {
  test("un .exe renombrado .pdf, un archivo de 11 MB y un nombre con ruta se rechazan sin dejar archivos", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    await loginAs(buyer, page.context());
    const before = storedFiles(server);
    const count = () =>
      server.sql
        .prepare("SELECT count(*) AS n FROM quote_requests WHERE buyer_id = ?")
        .get(buyer.id);

    await page.goto("/buyer/quotes/new");
    await page.getByLabel("Título de la solicitud").fill("Intento con ejecutable");
    await page
      .locator('input[name="file"]')
      .setInputFiles({ name: "requerimientos.pdf", mimeType: "application/pdf", buffer: EXE });
    await page.getByRole("button", { name: "Enviar solicitud" }).click();
    await expect(
      page.getByText(
        "Tipo de archivo no permitido. Tipos permitidos: pdf, png, jpg, jpeg, xlsx, xls.",
        { exact: true },
      ),
    ).toBeVisible();
    await expect(page.getByLabel("Título de la solicitud")).toHaveValue("Intento con ejecutable");

    const big = Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024, 0x20)]);
    const tooLarge = await page.request.post("/buyer/quotes/new", {
      multipart: {
        title: "Archivo enorme",
        file: { name: "grande.pdf", mimeType: "application/pdf", buffer: big },
      },
    });
    expect(tooLarge.status()).toBe(413);

    const justUnder = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 - PDF.length + 1, 0x20)]);
    const overTen = await page.request.post("/buyer/quotes/new", {
      multipart: {
        title: "Apenas más de 10 MB",
        file: { name: "grande.pdf", mimeType: "application/pdf", buffer: justUnder },
      },
    });
    expect(overTen.status()).toBe(400);
    const overTenPage = await overTen.text();
    expect(overTenPage).toContain("El archivo debe pesar menos de 10 MB.");
    // Spanish only (DECISIONS §5): SPEC's English sentence is not shown after it.
    expect(overTenPage).not.toContain("File size must be less than");

    const pathLike = await page.request.post("/buyer/quotes/new", {
      multipart: {
        title: "Nombre con ruta",
        file: { name: "../../etc/passwd.pdf", mimeType: "application/pdf", buffer: PDF },
      },
    });
    expect(pathLike.status()).toBe(400);
    expect(await pathLike.text()).toContain("El nombre del archivo no es válido.");

    const missing = await page.request.post("/buyer/quotes/new", {
      multipart: { title: "Sin archivo" },
    });
    expect(missing.status()).toBe(400);
    expect(await missing.text()).toContain(
      "Archivo requerido: Por favor sube un archivo con tus requerimientos.",
    );

    expect(count()).toEqual({ n: 0 });
    expect(storedFiles(server)).toEqual(before);
  });
});

test.describe("permisos del servidor", () => {
  test("un comprador no ve ni actúa sobre la solicitud o el archivo de otro", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const owner = await createUser({ role: "buyer" });
    const intruder = await createUser({ role: "buyer" });
    const requestId = insertRequest(server, owner.id, "quoted");
    await loginAs(intruder, page.context());
    const before = dbState(server, requestId);

    const detail = await page.goto(`/buyer/quotes/${requestId}`);
    expect(detail?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Cotización no encontrada" })).toBeVisible();
    await expect(page.getByText("Datos confidenciales")).toHaveCount(0);
    for (const intent of ["approve", "reject"]) {
      const response = await page.request.post(`/buyer/quotes/${requestId}`, { form: { intent } });
      expect(response.status()).toBe(404);
    }
    // The file routes need a link signed for this viewer and the right to see the request.
    expect((await page.request.get(`/files/requests/${requestId}`)).status()).toBe(404);
    expect((await page.request.get(`/files/official-quotes/${requestId}`)).status()).toBe(404);
    await page.goto("/buyer/quotes?q=privada");
    await expect(page.getByText("Solicitud privada")).toHaveCount(0);
    expect(dbState(server, requestId)).toEqual(before);
  });

  test("un socio no ve ni cotiza una solicitud que no le asignaron", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const requestId = insertRequest(server, buyer.id, "assigned");
    await loginAs(partner, page.context());
    const detail = await page.goto(`/partner/assignments/${requestId}`);
    expect(detail?.status()).toBe(404);
    await expect(page.getByText("Solicitud no encontrada").first()).toBeVisible();
    const post = await page.request.post(`/partner/assignments/${requestId}/quote`, {
      multipart: { amount: "5000", notes: "x" },
    });
    expect(post.status()).toBe(404);
    expect(
      server.sql
        .prepare("SELECT count(*) AS n FROM partner_quotes WHERE quote_request_id = ?")
        .get(requestId),
    ).toEqual({ n: 0 });
  });

  test("un comprador no edita ni cancela la solicitud de otro", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const owner = await createUser({ role: "buyer" });
    const intruder = await createUser({ role: "buyer" });
    const requestId = insertRequest(server, owner.id, "pending");
    await loginAs(intruder, page.context());
    const before = dbState(server, requestId);
    for (const path of ["edit", "cancel"]) {
      const view = await page.goto(`/buyer/quotes/${requestId}/${path}`);
      expect(view?.status(), `GET ${path}`).toBe(404);
      await expect(page.getByText("Datos confidenciales")).toHaveCount(0);
    }
    const cancel = await page.request.post(`/buyer/quotes/${requestId}/cancel`, {
      form: { reason: "No es mía pero la cancelo" },
    });
    expect(cancel.status()).toBe(404);
    const edit = await page.request.post(`/buyer/quotes/${requestId}/edit`, {
      multipart: { title: "Título cambiado", description: "x", quote_deadline: "2099-01-01T10:00" },
    });
    expect(edit.status()).toBe(404);
    expect(dbState(server, requestId)).toEqual(before);
  });

  test("un socio no declina ni ve la asignación de otro; declinado o retirado no puede ofertar", async ({
    page,
    server,
    createUser,
    loginAs,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    const assigned = await createUser({ role: "partner" });
    const other = await createUser({ role: "partner" });
    const requestId = insertRequest(server, buyer.id, "assigned");
    assign(server, requestId, assigned.id);
    await loginAs(other, page.context());
    const before = dbState(server, requestId);
    for (const url of [
      `/partner/assignments/${requestId}`,
      `/partner/assignments/${requestId}/decline`,
      `/partner/assignments/${requestId}/quote`,
    ]) {
      const view = await page.goto(url);
      expect(view?.status(), url).toBe(404);
      await expect(page.getByText("Datos confidenciales")).toHaveCount(0);
    }
    const decline = await page.request.post(`/partner/assignments/${requestId}/decline`, {
      form: { reason: "Declino por otro" },
    });
    expect(decline.status()).toBe(404);
    expect(dbState(server, requestId)).toEqual(before);

    // Declined and withdrawn partners: an offer posted straight to the server stores nothing.
    for (const state of ["declined", "withdrawn"]) {
      const partner = await createUser({ role: "partner" });
      assign(server, requestId, partner.id, state);
      await loginAs(partner, page.context());
      const stored = dbState(server, requestId);
      const post = await page.request.post(`/partner/assignments/${requestId}/quote`, {
        multipart: { amount: "5000", notes: "oferta tardía" },
        maxRedirects: 0,
      });
      expect(post.status(), state).toBe(302);
      expect(post.headers()["location"]).toBe(`/partner/assignments/${requestId}`);
      expect(dbState(server, requestId)).toEqual(stored);
      const detail = await page.goto(`/partner/assignments/${requestId}`);
      expect(detail?.status()).toBe(200);
      await expect(page.getByText("Solicitud cerrada para ti")).toBeVisible();
      await expect(page.getByText("Datos confidenciales")).toHaveCount(0);
    }
  });

  test("quien no es administrador no puede llamar a ninguna acción de administración", async ({
    request: anonymous,
    server,
    createUser,
    pageAs,
  }) => {
    const buyer = await createUser({ role: "buyer" });
    const partner = await createUser({ role: "partner" });
    const requestId = insertRequest(server, buyer.id, "quoted");
    const stamp = new Date().toISOString();
    server.sql
      .prepare(
        `INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)`,
      )
      .run(partner.id, requestId, stamp);
    const before = dbState(server, requestId);
    const attempts: [string, Record<string, string>][] = [
      [`/admin/quotes/${requestId}/assign`, { partner_id: String(partner.id) }],
      [`/admin/quotes/${requestId}/official-quote`, { amount: "999" }],
      [`/admin/quotes/${requestId}/buyer-approval`, { note: "Por teléfono" }],
      [`/admin/quotes/${requestId}/status`, { status: "paid" }],
      [`/admin/quotes/${requestId}/notes`, { admin_notes: "hackeado" }],
      [`/admin/quotes/${requestId}/withdraw`, { partner_id: String(partner.id) }],
      [`/admin/quotes/${requestId}/deadline`, { quote_deadline: "2099-01-01T10:00" }],
      [`/admin/quotes/${requestId}/reopen`, { quote_deadline: "2099-01-01T10:00" }],
      ["/admin/payments", { intent: "confirm_payment", payment_id: "1" }],
    ];
    for (const [user, home] of [
      [buyer, "/buyer"],
      [partner, "/partner"],
    ] as const) {
      const { request } = await pageAs(user);
      for (const [url, form] of attempts) {
        const response = await request.post(url, { form, maxRedirects: 0 });
        expect(response.status(), `${user.role} POST ${url} ${form.intent ?? ""}`).toBe(302);
        expect(response.headers()["location"]).toBe(home);
      }
      const get = await request.get(`/admin/quotes/${requestId}`, { maxRedirects: 0 });
      expect(get.status()).toBe(302);
    }
    // Signed out: sent to sign in.
    const response = await anonymous.post(`/admin/quotes/${requestId}/buyer-approval`, {
      form: { note: "Por teléfono" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toMatch(/^\/auth\?redirectTo=/);
    expect(dbState(server, requestId)).toEqual(before);
  });
});
