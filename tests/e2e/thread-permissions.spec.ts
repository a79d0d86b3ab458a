import fs from "node:fs";
import path from "node:path";
import { test, expect, type Server } from "./fixtures";
import { insertRequest, storeFile } from "./factories";
import { PDF } from "./files";

/**
 * The conversations of a request through the real server: every thread page, form and attachment
 * is not found to anyone outside the thread (the other buyer, a partner never assigned, a partner
 * withdrawn); a signed-out visitor is sent to sign in; posting where one may not stores nothing.
 * Stored text is shown as text: no markup, no script, no link, and a long word wraps at 360 px.
 */

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

/** A thread of the request with one message (and an attachment), as posting would leave it. */
function insertMessage(
  server: Server,
  {
    requestId,
    assignmentId = null,
    authorId,
    authorRole,
    body,
    fileName,
  }: {
    requestId: number;
    assignmentId?: number | null;
    authorId: number;
    authorRole: "buyer" | "partner" | "admin";
    body: string;
    fileName?: string;
  },
): number {
  const kind = assignmentId === null ? "buyer" : "partner";
  const existing = server.sql
    .prepare(
      "SELECT id FROM threads WHERE quote_request_id = ? AND kind = ? AND assignment_id IS ?",
    )
    .get(requestId, kind, assignmentId) as { id: number } | undefined;
  const threadId =
    existing?.id ??
    Number(
      server.sql
        .prepare("INSERT INTO threads (quote_request_id, kind, assignment_id) VALUES (?, ?, ?)")
        .run(requestId, kind, assignmentId).lastInsertRowid,
    );
  const file = fileName ? storeFile(server, fileName) : null;
  return Number(
    server.sql
      .prepare(
        `INSERT INTO thread_messages (thread_id, author_id, author_role, body, file_name, file_type, file_key, file_size)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        threadId,
        authorId,
        authorRole,
        body,
        file?.name ?? null,
        file?.type ?? null,
        file?.key ?? null,
        file?.size ?? null,
      ).lastInsertRowid,
  );
}

function assignmentOf(server: Server, requestId: number, partnerId: number): number {
  return (
    server.sql
      .prepare("SELECT id FROM partner_assignments WHERE quote_request_id = ? AND partner_id = ?")
      .get(requestId, partnerId) as { id: number }
  ).id;
}

const messageCount = (server: Server) =>
  (server.sql.prepare("SELECT count(*) AS n FROM thread_messages").get() as { n: number }).n;

test("las conversaciones, sus mensajes y adjuntos no existen para quien no participa", async ({
  server,
  createUser,
  pageAs,
  browser,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const partner = await createUser({ role: "partner", companyName: "Socio Legítimo" });
  const withdrawn = await createUser({ role: "partner", companyName: "Socio Retirado" });
  const otherBuyer = await createUser({ role: "buyer" });
  const stranger = await createUser({ role: "partner", companyName: "Socio Ajeno" });
  const requestId = insertRequest(server, {
    buyer,
    title: "Solicitud con conversación privada",
    status: "assigned",
    partners: [partner, withdrawn],
  });
  const partnerAssignment = assignmentOf(server, requestId, partner.id);
  const withdrawnAssignment = assignmentOf(server, requestId, withdrawn.id);
  insertMessage(server, {
    requestId,
    authorId: buyer.id,
    authorRole: "buyer",
    body: "Secreto del comprador: entrega en la planta 2",
    fileName: "anexo-comprador.pdf",
  });
  insertMessage(server, {
    requestId,
    assignmentId: partnerAssignment,
    authorId: partner.id,
    authorRole: "partner",
    body: "Secreto del socio: precio especial",
    fileName: "anexo-socio.pdf",
  });
  insertMessage(server, {
    requestId,
    assignmentId: withdrawnAssignment,
    authorId: withdrawn.id,
    authorRole: "partner",
    body: "Pregunta del socio retirado",
    fileName: "anexo-retirado.pdf",
  });
  server.sql
    .prepare("UPDATE partner_assignments SET state = 'withdrawn' WHERE id = ?")
    .run(withdrawnAssignment);

  // The participants' own signed links to each attachment.
  const adminPage = await pageAs(admin);
  await adminPage.goto(`/admin/quotes/${requestId}`);
  const links = await adminPage
    .locator('a[href^="/files/messages/"]')
    .evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")!));
  expect(links).toHaveLength(3);
  for (const link of links) {
    expect((await adminPage.request.get(link)).status()).toBe(200);
  }
  const messageIds = links.map((link) => new URL(link, server.url).pathname);

  const threadUrls = [
    `/threads/${requestId}/comprador`,
    `/threads/${requestId}/socio-${partner.id}`,
    `/threads/${requestId}/socio-${withdrawn.id}`,
  ];
  // The other buyer, a partner never assigned, and the partner withdrawn from the round.
  const visitors = [otherBuyer, stranger, withdrawn];
  const before = messageCount(server);
  const filesBefore = storedFiles(server);
  for (const user of visitors) {
    const page = await pageAs(user);
    for (const url of threadUrls) {
      const response = await page.goto(url);
      expect(response?.status(), `${user.companyName} → ${url}`).toBe(404);
      await expect(page.getByText(/Secreto del|Pregunta del socio retirado/)).toHaveCount(0);
      const older = await page.request.get(`${url}?antes=999999999`);
      expect(older.status()).toBe(404);
      // Posting (with a file) is refused and stores nothing.
      for (const intent of ["post", "relay", "forward"]) {
        const post = await page.request.post(url, {
          multipart: {
            intent,
            body: "Intento de escribir",
            message_id: "1",
            file: { name: "intruso.pdf", mimeType: "application/pdf", buffer: PDF },
          },
        });
        expect(post.status(), `${user.companyName} ${intent} → ${url}`).toBe(404);
      }
    }
    // Another participant's signed link, and the bare URL, are not found.
    for (const link of [...links, ...messageIds]) {
      expect((await page.request.get(link)).status()).toBe(404);
    }
    await page.goto(
      user.role === "buyer" ? `/buyer/quotes/${requestId}` : `/partner/assignments/${requestId}`,
    );
    await expect(page.getByText(/Secreto del|Pregunta del socio retirado/)).toHaveCount(0);
  }
  expect(messageCount(server)).toBe(before);
  expect(storedFiles(server)).toEqual(filesBefore);

  // The buyer and the partner in the round reach only their own thread.
  const buyerPage = await pageAs(buyer);
  expect((await buyerPage.goto(threadUrls[0]!))?.status()).toBe(200);
  await expect(buyerPage.getByText("Secreto del comprador")).toBeVisible();
  for (const url of threadUrls.slice(1)) {
    expect((await buyerPage.goto(url))?.status()).toBe(404);
  }
  const partnerPage = await pageAs(partner);
  expect((await partnerPage.goto(threadUrls[1]!))?.status()).toBe(200);
  for (const url of [threadUrls[0]!, threadUrls[2]!]) {
    expect((await partnerPage.goto(url))?.status()).toBe(404);
  }

  // Signed out: every URL leads to the sign-in page, with nothing of the thread.
  const anonymous = await browser.newContext({ baseURL: server.url });
  const visitor = await anonymous.newPage();
  for (const url of [...threadUrls, ...links]) {
    await visitor.goto(url);
    await expect(visitor).toHaveURL(/\/auth\?redirectTo=/);
    await expect(visitor.getByText(/Secreto del|Pregunta del socio retirado/)).toHaveCount(0);
  }
  const post = await visitor.request.post(threadUrls[0]!, {
    multipart: {
      body: "Anónimo",
      file: { name: "x.pdf", mimeType: "application/pdf", buffer: PDF },
    },
    maxRedirects: 0,
  });
  expect([302, 303]).toContain(post.status());
  await anonymous.close();
  expect(messageCount(server)).toBe(before);
  expect(storedFiles(server)).toEqual(filesBefore);
});

test("el texto guardado se muestra inerte y no rompe la página a 360 px", async ({
  server,
  createUser,
  pageAs,
}) => {
  const buyer = await createUser({ role: "buyer" });
  const admin = await createUser({ role: "admin" });
  const requestId = insertRequest(server, {
    buyer,
    title: "Solicitud con texto hostil",
    status: "assigned",
  });
  const longWord = "A".repeat(300);
  const hostile = [
    '<script>window.__inyectado = 1</script><img src=x onerror="window.__inyectado = 2">',
    "[Haz clic](javascript:window.__inyectado=3) javascript:window.__inyectado=4",
    longWord,
  ];
  for (const body of hostile) {
    insertMessage(server, { requestId, authorId: admin.id, authorRole: "admin", body });
  }

  const page = await pageAs(buyer);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/buyer/quotes/${requestId}`);
  const thread = page.getByTestId("conversacion-comprador");
  await expect(
    thread.getByText("<script>window.__inyectado = 1</script>", { exact: false }),
  ).toBeVisible();
  await expect(thread.getByText("javascript:window.__inyectado=4", { exact: false })).toBeVisible();
  await expect(thread.locator("script, img[onerror], a[href^='javascript:']")).toHaveCount(0);
  if (test.info().project.name !== "nojs") {
    expect(
      await page.evaluate(() => (window as { __inyectado?: number }).__inyectado),
    ).toBeUndefined();
  }
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  const box = await thread.getByText(longWord.slice(0, 40), { exact: false }).boundingBox();
  expect(box!.width).toBeLessThanOrEqual(360);
});
