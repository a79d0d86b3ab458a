import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, tag, test, type TestUser } from "./fixtures";
import {
  grantPoints,
  insertOfficialQuote,
  insertPartnerQuote,
  insertRedemption,
  insertRequest,
} from "./factories";

/**
 * Every page of every role, on a phone (360 px), with JavaScript on and off: it answers, it has a
 * description for search engines, nothing makes it scroll sideways, axe finds no violation, and with
 * JavaScript the browser console shows no error and no warning. Each role's pages have data in them (a request in each state the
 * role sees, offers, an official quote, a product).
 */

test.use({ viewport: { width: 360, height: 800 } });
// Up to ten pages per test, each with axe: more than a journey's minute on a busy machine.
test.describe.configure({ timeout: 150_000 });

async function checkPage(
  page: Page,
  path: string,
  javaScript: boolean,
  axe: (page: Page) => Promise<void>,
) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const response = await page.goto(path);
  expect.soft(response?.status(), `${path}: estado HTTP`).toBe(200);
  expect
    .soft(
      await page.locator('meta[name="description"]').getAttribute("content"),
      `${path}: meta description`,
    )
    .toMatch(/.{20,}/);
  if (javaScript) await page.waitForLoadState("networkidle");
  const widths = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The first elements that reach past the right edge, to say what to fix.
    const clipped = (e: Element) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible") return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > client + 1 && !clipped(e))
      .slice(0, 3)
      .map((e) => `<${e.tagName.toLowerCase()} class="${e.getAttribute("class") ?? ""}">`);
    return { scroll: document.documentElement.scrollWidth, client, culprits };
  });
  expect
    .soft(
      widths.scroll,
      `${path}: se desplaza ${widths.scroll - widths.client} px hacia el lado (${widths.culprits.join(", ")})`,
    )
    .toBeLessThanOrEqual(widths.client);
  expect.soft(errors, `${path}: errores o avisos en la consola`).toEqual([]);
  await axe(page);
  page.removeAllListeners("console");
  page.removeAllListeners("pageerror");
}

test.describe("Todas las páginas a 360 px", () => {
  let buyer: TestUser;
  let partner: TestUser;
  let admin: TestUser;
  let requestId = 0;
  let approvedId = 0;
  let openId = 0;
  let declinedId = 0;
  let cancelledId = 0;
  let rejectedId = 0;
  let productId = 0;
  let rewardId = 0;
  let invitationToken = "";

  test.beforeEach(async ({ createUser, server }) => {
    buyer = await createUser({ role: "buyer", companyName: "Distribuidora Peñalolén S.A." });
    partner = await createUser({ role: "partner", companyName: "Aceros del Pacífico Ltda." });
    admin = await createUser({ role: "admin" });
    const title = `Suministro de válvulas de compuerta de acero inoxidable ${tag()}`;
    requestId = insertRequest(server, { buyer, title, status: "quoted", partners: [partner] });
    insertPartnerQuote(server, { requestId, partner, amountCents: 1_234_567_89 });
    approvedId = insertRequest(server, {
      buyer,
      title: `Uniformes ignífugos para planta ${tag()}`,
      status: "approved",
      partners: [partner],
    });
    const offer = insertPartnerQuote(server, {
      requestId: approvedId,
      partner,
      amountCents: 98_765_43,
      selected: true,
    });
    insertOfficialQuote(server, {
      requestId: approvedId,
      amountCents: 98_765_43,
      partnerQuoteId: offer.id,
    });
    // The sourcing round: an open invitation, one the partner declined, a cancelled and a rejected
    // request (the operator's reopen form).
    openId = insertRequest(server, {
      buyer,
      // A part number typed without spaces must wrap, not widen every page that shows the title.
      title: `Mangueras ${tag()} REF:${"MHP2500PSI".repeat(12)}`,
      status: "assigned",
      partners: [partner],
    });
    declinedId = insertRequest(server, {
      buyer,
      title: `Bombas centrífugas ${tag()}`,
      status: "assigned",
      partners: [partner],
    });
    server.sql
      .prepare(
        "UPDATE partner_assignments SET state = 'declined', decline_reason = 'Sin stock hasta el próximo trimestre', state_changed_at = ? WHERE quote_request_id = ?",
      )
      .run(new Date().toISOString(), declinedId);
    cancelledId = insertRequest(server, { buyer, title: `Guantes de nitrilo ${tag()}` });
    server.sql
      .prepare(
        "UPDATE quote_requests SET status = 'cancelled', cancellation_reason = 'El proyecto se pospuso al próximo año' WHERE id = ?",
      )
      .run(cancelledId);
    rejectedId = insertRequest(server, {
      buyer,
      title: `Generador diésel de 500 kVA ${tag()}`,
      status: "rejected",
      partners: [partner],
    });
    const category = server.sql
      .prepare("INSERT INTO categories (name) VALUES (?)")
      .run(`Seguridad industrial ${tag()}`).lastInsertRowid;
    productId = Number(
      server.sql
        .prepare(
          `INSERT INTO products (name, description, category_id, supplier_id, base_price_cents, created_at, updated_at)
           VALUES (?, 'Casco dieléctrico clase E', ?, ?, 1999000, datetime('now'), datetime('now'))`,
        )
        .run(`Casco de seguridad ${tag()}`, category, partner.id).lastInsertRowid,
    );
    // Redemptions in both states, and points left for the confirmation of another one.
    grantPoints(server, buyer, 3000);
    insertRedemption(server, buyer, 500);
    insertRedemption(server, buyer, 1000, { deliveredBy: admin });
    rewardId = (
      server.sql.prepare("SELECT id FROM rewards WHERE points_cost = 500").get() as { id: number }
    ).id;
    // Every account state on the users page: a deactivated partner, and an invitation not yet
    // accepted (its «Activa tu cuenta» page is the visitor's).
    const gone = await createUser({ role: "partner", companyName: "Socio Dado de Baja S.A." });
    server.sql
      .prepare("UPDATE users SET deactivated_at = ?, deactivated_by = ? WHERE id = ?")
      .run(new Date().toISOString(), admin.id, gone.id);
    const invited = await createUser({ role: "buyer", verified: false });
    server.sql
      .prepare("UPDATE users SET password_hash = '!no-password' WHERE id = ?")
      .run(invited.id);
    invitationToken = crypto.randomBytes(32).toString("base64url");
    server.sql
      .prepare(
        "INSERT INTO auth_tokens (user_id, purpose, token_hash, expires_at) VALUES (?, 'invitation', ?, ?)",
      )
      .run(
        invited.id,
        crypto.createHash("sha256").update(invitationToken).digest("hex"),
        new Date(Date.now() + 7 * 86_400_000).toISOString(),
      );
  });

  test("visitante", async ({ page, javaScriptEnabled, axe }) => {
    for (const path of [
      "/",
      "/auth",
      "/auth/signup",
      "/auth/forgot",
      `/auth/reset?token=${invitationToken}`,
      "/contact",
      "/terms",
      "/privacy",
    ]) {
      await checkPage(page, path, javaScriptEnabled, axe);
    }
  });

  test("comprador", async ({ pageAs, javaScriptEnabled, axe }) => {
    const page = await pageAs(buyer);
    for (const path of [
      "/buyer",
      "/buyer/quotes",
      "/buyer/quotes/new",
      `/buyer/quotes/${requestId}`,
      `/buyer/quotes/${approvedId}`,
      `/buyer/quotes/${openId}/edit`,
      `/buyer/quotes/${openId}/cancel`,
      `/buyer/quotes/${cancelledId}`,
      `/threads/${requestId}/comprador`,
      "/buyer/payments",
      `/buyer/payments/new?quote=${approvedId}`,
      "/buyer/rewards",
      `/buyer/rewards?canjear=${rewardId}`,
      "/profile",
      "/notifications",
    ]) {
      await checkPage(page, path, javaScriptEnabled, axe);
    }
  });

  test("socio", async ({ pageAs, javaScriptEnabled, axe }) => {
    const page = await pageAs(partner);
    for (const path of [
      "/partner",
      "/partner/assignments",
      `/partner/assignments/${requestId}`,
      `/partner/assignments/${requestId}/quote`,
      `/partner/assignments/${openId}`,
      `/partner/assignments/${openId}/decline`,
      `/partner/assignments/${declinedId}`,
      `/threads/${openId}/socio-${partner.id}`,
      "/partner/quotes",
      "/profile",
      "/notifications",
    ]) {
      await checkPage(page, path, javaScriptEnabled, axe);
    }
  });

  for (const [part, paths] of [
    [
      "solicitudes, pagos y usuarios",
      () => [
        "/admin",
        "/admin/quotes",
        `/admin/quotes/${requestId}`,
        `/admin/quotes/${approvedId}`,
        `/admin/quotes/${openId}`,
        `/admin/quotes/${rejectedId}`,
        `/threads/${openId}/comprador`,
        "/admin/payments",
        "/admin/users",
        "/admin/partners",
        "/admin/analytics",
      ],
    ],
    [
      "catálogo, contactos y configuración",
      () => [
        "/admin/products",
        "/admin/products/new",
        `/admin/products/${productId}`,
        `/admin/products/${productId}/delete`,
        "/admin/categories",
        "/admin/contacts",
        "/admin/settings",
        "/admin/redemptions",
        "/admin/system",
        "/profile",
        "/notifications",
      ],
    ],
  ] as const) {
    test(`administrador: ${part}`, async ({ pageAs, javaScriptEnabled, axe }) => {
      const page = await pageAs(admin);
      for (const path of paths()) {
        await checkPage(page, path, javaScriptEnabled, axe);
      }
    });
  }
});

test("a page of accented text arrives whole, whatever falls on the edge of the renderer's writes", async ({
  createUser,
  pageAs,
  server,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  // Rows of two- and three-byte characters in short pieces of text: edges of the renderer's 2 KB
  // writes fall in the middle of one. React's streaming writer left the unwritten byte there as
  // a NUL («L\0ópez», «T\0ítulo» in a placeholder, shown as «T�ítulo»).
  const title = (n: number) => `Señalización ${n} ${"ñ€".repeat(150)}`;
  for (let n = 1; n <= 25; n++) insertRequest(server, { buyer, title: title(n) });
  const page = await pageAs(admin);
  const html = await (await page.request.get("/admin/quotes")).text();
  expect(html).toContain(title(25));
  // Counted, not matched: a failure prints the number of broken characters, not the whole page.
  const broken = [...html].filter((c) => c === "\u0000" || c === "\uFFFD").length;
  expect(broken, "caracteres rotos").toBe(0);
});
