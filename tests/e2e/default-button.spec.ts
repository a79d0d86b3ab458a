import type { Page } from "@playwright/test";
import { test, expect, tag, type Server } from "./fixtures";
import { insertOfficialQuote, insertPartnerQuote, insertRequest } from "./factories";
import { PDF } from "./files";

/**
 * Enter in a field submits a form as its FIRST submit button would (HTML's implicit submission);
 * without JavaScript nothing else decides it. So the rule, for every form with more than one submit
 * button: it names its main action with `data-main` (exactly one), and its first submit button is
 * that one, or a stand-in kept from people (aria-hidden, out of the tab order) that submits exactly
 * what the main one does (the same name, value and form* overrides, so the same intent) and is
 * enabled. The pages below hold the app's forms with an action chosen by a button (quotes, payments,
 * users, categories, partners, settings, rewards, notifications, profile, sign-in, conversations);
 * today each of those forms has one submit button, except the offer and revision forms.
 */
async function defaultButtons(page: Page): Promise<{ checked: number; problems: string[] }> {
  return page.evaluate(() => {
    const SUBMISSION = [
      "name",
      "value",
      "formaction",
      "formmethod",
      "formenctype",
      "formnovalidate",
    ];
    const label = (b: Element) => `«${(b.textContent ?? "").trim() || "(sin texto)"}»`;
    let checked = 0;
    const problems: string[] = [];
    Array.from(document.forms).forEach((form, index) => {
      const submits = Array.from(form.elements).filter(
        (e): e is HTMLButtonElement | HTMLInputElement =>
          (e instanceof HTMLButtonElement && e.type === "submit") ||
          (e instanceof HTMLInputElement && (e.type === "submit" || e.type === "image")),
      );
      if (submits.length < 2) return;
      checked += 1;
      const where = `formulario ${index + 1} (${form.getAttribute("action") ?? location.pathname})`;
      const mains = submits.filter((b) => b.hasAttribute("data-main"));
      if (mains.length !== 1) {
        problems.push(`${where}: ${mains.length} botones data-main entre ${submits.map(label)}`);
        return;
      }
      const [first] = submits;
      const main = mains[0]!;
      if (first === main) return;
      const same = SUBMISSION.every((a) => first!.getAttribute(a) === main.getAttribute(a));
      const standIn =
        first!.getAttribute("aria-hidden") === "true" && first!.tabIndex === -1 && !first!.disabled;
      if (!same || !standIn)
        problems.push(`${where}: Enter pulsa ${label(first!)}, no ${label(main)}`);
    });
    return { checked, problems };
  });
}

async function expectEnterDoesMain(page: Page, path: string, formsWithSeveral = 0) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  const { checked, problems } = await defaultButtons(page);
  expect(problems, path).toEqual([]);
  expect(checked, `formularios con varios botones en ${path}`).toBe(formsWithSeveral);
}

function addThreadMessage(
  server: Server,
  requestId: number,
  author: { id: number; role: "buyer" | "partner" },
  body: string,
) {
  const at = new Date().toISOString();
  const assignment =
    author.role === "partner"
      ? (
          server.sql
            .prepare(
              "SELECT id FROM partner_assignments WHERE quote_request_id = ? AND partner_id = ?",
            )
            .get(requestId, author.id) as { id: number }
        ).id
      : null;
  const threadId = Number(
    server.sql
      .prepare(
        "INSERT INTO threads (quote_request_id, kind, assignment_id, created_at) VALUES (?, ?, ?, ?)",
      )
      .run(requestId, author.role, assignment, at).lastInsertRowid,
  );
  server.sql
    .prepare(
      "INSERT INTO thread_messages (thread_id, author_id, author_role, body, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .run(threadId, author.id, author.role, body, at);
}

test("Enter en un campo hace lo que el botón principal de su formulario", async ({
  server,
  createUser,
  pageAs,
  page,
}) => {
  test.slow();
  const buyer = await createUser({ role: "buyer" });
  const partner = await createUser({ role: "partner" });
  const admin = await createUser({ role: "admin" });

  // A request with its official quote (the buyer may approve or reject it; the operator may revise
  // it) and a question on each side; one approved, whose payment proof waits for review; one a
  // partner is still invited to offer on.
  const quoted = insertRequest(server, {
    buyer,
    title: `Tubería cotizada ${tag()}`,
    status: "quoted",
    partners: [partner],
  });
  const offer = insertPartnerQuote(server, {
    requestId: quoted,
    partner,
    amountCents: 150_000,
    selected: true,
  });
  insertOfficialQuote(server, {
    requestId: quoted,
    amountCents: 150_000,
    partnerQuoteId: offer.id,
  });
  addThreadMessage(server, quoted, { id: buyer.id, role: "buyer" }, "¿Incluye el flete?");
  addThreadMessage(server, quoted, { id: partner.id, role: "partner" }, "¿Cédula 40 o 80?");
  const approved = insertRequest(server, {
    buyer,
    title: `Tubería aprobada ${tag()}`,
    status: "approved",
  });
  insertOfficialQuote(server, {
    requestId: approved,
    amountCents: 90_000,
    payment: {
      method: "transfer",
      proof: { name: "comprobante.pdf", type: "application/pdf", buffer: PDF },
    },
  });
  const open = insertRequest(server, {
    buyer,
    title: `Tubería por cotizar ${tag()}`,
    status: "assigned",
    partners: [partner],
  });
  server.sql
    .prepare("UPDATE quote_requests SET quote_deadline = ? WHERE id = ?")
    .run(new Date(Date.now() + 48 * 3600_000).toISOString(), open);

  await expectEnterDoesMain(page, "/auth");

  const buyerPage = await pageAs(buyer);
  for (const path of [`/buyer/quotes/${quoted}`, "/buyer/rewards", "/notifications", "/profile"])
    await expectEnterDoesMain(buyerPage, path);

  // The offer form: «Quitar renglón» buttons come with a second row, before the main button.
  const partnerPage = await pageAs(partner);
  await expectEnterDoesMain(partnerPage, `/partner/assignments/${open}/quote`, 1);
  await partnerPage.getByRole("button", { name: "Añadir renglón" }).click();
  await expect(partnerPage.locator("#item-1-description")).toBeVisible();
  expect(await defaultButtons(partnerPage)).toEqual({ checked: 1, problems: [] });

  const adminPage = await pageAs(admin);
  for (const path of [
    `/admin/quotes/${quoted}`,
    "/admin/payments",
    "/admin/users",
    "/admin/categories",
    "/admin/partners",
    "/admin/settings",
  ])
    await expectEnterDoesMain(adminPage, path);

  // A real Enter in the amount of the revision form issues the version, as «Emitir nueva versión»
  // does; without the form's stand-in it would press «Añadir renglón», its first visible button.
  await expectEnterDoesMain(adminPage, `/admin/quotes/${quoted}/revise`, 1);
  await adminPage.getByLabel("Motivo de la nueva versión").fill("Ajuste de precio del proveedor");
  const amount = adminPage.getByLabel("Monto sin impuestos (USD)");
  await amount.fill("1400");
  await amount.press("Enter");
  await expect(adminPage.getByText("Versión 2 emitida")).toBeVisible();
  expect(
    server.sql
      .prepare(
        "SELECT version, final_amount_cents AS total FROM official_quotes WHERE quote_request_id = ? AND superseded_at IS NULL",
      )
      .get(quoted),
  ).toEqual({ version: 2, total: 140_000 });
});
