import type { Page } from "@playwright/test";
import { test, expect, readMails, screenshots, tag, waitForMail, type Server } from "./fixtures";
import { insertPartnerQuote, insertRequest } from "./factories";
import { pdfFile } from "./files";

/**
 * Questions and answers brokered by the operator (DECISIONS §8), with JavaScript on and off: a
 * partner asks with an attachment, the operator answers every partner at once, the buyer adds a
 * requirement, the operator forwards a partner's question to the buyer without the partner's name.
 * Everyone sees exactly their own threads, unread markers clear on reading, and each recipient gets
 * at most one e-mail per thread per 10 minutes.
 */

function setDeadline(server: Server, requestId: number, hoursFromNow: number) {
  const deadline = new Date(Date.now() + hoursFromNow * 3600_000).toISOString();
  server.sql
    .prepare("UPDATE quote_requests SET quote_deadline = ? WHERE id = ?")
    .run(deadline, requestId);
}

function messages(server: Server, requestId: number) {
  return server.sql
    .prepare(
      `SELECT m.body, m.kind, m.author_role, m.file_name, t.kind AS thread, pa.partner_id
       FROM thread_messages m JOIN threads t ON t.id = m.thread_id
       LEFT JOIN partner_assignments pa ON pa.id = t.assignment_id
       WHERE t.quote_request_id = ? ORDER BY m.id`,
    )
    .all(requestId) as {
    body: string;
    kind: string;
    author_role: string;
    file_name: string | null;
    thread: string;
    partner_id: number | null;
  }[];
}

/** The conversation mails `to` received about the request titled `title`. */
const digests = (server: Server, to: string, title: string) =>
  readMails(server, to).filter((m) => m.subject.includes(`sobre «${title}»`));

/** Writes a message in the thread shown in `thread` (a section of the page) and waits for it. */
async function writeIn(
  page: Page,
  testId: string,
  body: string,
  file?: ReturnType<typeof pdfFile>,
) {
  const thread = page.getByTestId(testId);
  await thread.getByLabel("Tu mensaje").fill(body);
  if (file) await thread.getByLabel("Adjunto (opcional)").setInputFiles(file);
  await thread.getByRole("button", { name: "Enviar mensaje" }).click();
  await expect(page.getByTestId(testId).getByText(body)).toBeVisible();
}

test("preguntas y respuestas: socio pregunta, el operador responde a todos, reenvía al comprador y cada uno ve solo lo suyo", async ({
  server,
  createUser,
  pageAs,
  axe,
}, testInfo) => {
  const buyer = await createUser({ role: "buyer", companyName: "Compradora Reservada SA" });
  const admin = await createUser({ role: "admin" });
  const asking = await createUser({ role: "partner", companyName: "Aceros Preguntones" });
  const other = await createUser({ role: "partner", companyName: "Válvulas Calladas" });
  const title = `Bridas con plano ${tag()}`;
  const requestId = insertRequest(server, {
    buyer,
    title,
    status: "assigned",
    partners: [asking, other],
  });
  setDeadline(server, requestId, 48);
  insertPartnerQuote(server, { requestId, partner: other, amountCents: 250_000 });
  const [askingPage, otherPage, adminPage, buyerPage] = await Promise.all([
    pageAs(asking),
    pageAs(other),
    pageAs(admin),
    pageAs(buyer),
  ]);
  const askingThread = `conversacion-socio-${asking.id}`;
  const otherThread = `conversacion-socio-${other.id}`;

  // 1. A partner asks, with an attachment.
  await askingPage.goto(`/partner/assignments/${requestId}`);
  await expect(askingPage.getByTestId(askingThread)).toContainText("Todavía no hay mensajes.");
  // An empty message is refused next to the field and stores nothing.
  await askingPage
    .getByTestId(askingThread)
    .getByRole("button", { name: "Enviar mensaje" })
    .click();
  await expect(askingPage.getByText("El mensaje es obligatorio.")).toBeVisible();
  expect(messages(server, requestId)).toEqual([]);
  await askingPage.goto(`/partner/assignments/${requestId}`);
  await writeIn(
    askingPage,
    askingThread,
    "¿El plano incluye las bridas ciegas?\nSi no, ¿qué norma aplican?",
    pdfFile("plano-revision-b.pdf"),
  );
  await expect(
    askingPage
      .getByTestId(askingThread)
      .getByRole("link", { name: "Adjunto: plano-revision-b.pdf" }),
  ).toBeVisible();
  await axe(askingPage);
  await screenshots(askingPage, "thread-partner", testInfo);
  expect(messages(server, requestId)).toEqual([
    expect.objectContaining({
      thread: "partner",
      partner_id: asking.id,
      author_role: "partner",
      file_name: "plano-revision-b.pdf",
    }),
  ]);
  await waitForMail(server, admin.email, `Nuevo mensaje sobre «${title}»`);

  // 2. The operator sees it unread on the list, reads it and answers every partner at once.
  await adminPage.goto(`/admin/quotes?q=${encodeURIComponent(title)}`);
  await expect(adminPage.getByTestId("sin-leer")).toHaveText("1 mensaje sin leer");
  await adminPage.goto(`/admin/quotes/${requestId}`);
  const question = adminPage.getByTestId(askingThread);
  await expect(question).toContainText("¿El plano incluye las bridas ciegas?");
  await expect(question).toContainText("Aceros Preguntones");
  await expect(question.getByText("Nuevo", { exact: true })).toBeVisible();
  await question.getByText("Responder a todos los socios").click();
  await question
    .getByLabel("Respuesta para todos los socios")
    .fill("Sí, el plano incluye las bridas ciegas (norma ASME B16.5).");
  await question.getByRole("button", { name: "Publicar a los socios" }).click();
  await expect(adminPage.getByText("Respuesta publicada")).toBeVisible();
  await axe(adminPage);
  await screenshots(adminPage, "thread-admin", testInfo);
  await adminPage.goto(`/admin/quotes?q=${encodeURIComponent(title)}`);
  await expect(adminPage.getByTestId("sin-leer")).toHaveCount(0);
  expect(
    messages(server, requestId)
      .filter((m) => m.kind === "relay")
      .map((m) => m.partner_id)
      .sort(),
  ).toEqual([asking.id, other.id].sort());

  // Each partner is mailed (a digest only reports what is still unread, so before they read it).
  for (const partner of [asking, other]) {
    await waitForMail(server, partner.email, `Nuevo mensaje sobre «${title}»`);
  }

  // Both partners read the answer from the team; the other partner never sees the question.
  for (const [page, testId] of [
    [askingPage, askingThread],
    [otherPage, otherThread],
  ] as const) {
    await page.goto(`/partner/assignments/${requestId}`);
    const thread = page.getByTestId(testId);
    await expect(thread).toContainText("Sí, el plano incluye las bridas ciegas");
    await expect(thread).toContainText("Respuesta del equipo para todos los socios");
    await expect(thread).toContainText("Equipo CotizaHub");
    await expect(page.locator('[data-testid^="conversacion-"]')).toHaveCount(1);
    // The partner's request page names the client (as it always has); the relayed answer does not.
    await expect(thread.getByText("Compradora Reservada SA")).toHaveCount(0);
  }
  await expect(otherPage.getByText("¿El plano incluye las bridas ciegas?")).toHaveCount(0);

  // 3. The buyer adds a requirement in their thread.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await writeIn(
    buyerPage,
    "conversacion-comprador",
    "Añadimos un requisito: certificado de material 3.1 con cada lote.",
  );
  await axe(buyerPage);
  await screenshots(buyerPage, "thread-buyer", testInfo);
  await expect(buyerPage.getByText("¿El plano incluye las bridas ciegas?")).toHaveCount(0);

  // The operator is mailed about the buyer's thread too (before reading it: a digest only
  // reports what is still unread).
  await expect
    .poll(() => digests(server, admin.email, title).some((m) => m.body.includes("material 3.1")), {
      timeout: 30_000,
    })
    .toBe(true);

  // 4. The operator forwards the partner's question to the buyer, without the partner's name.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.getByTestId("conversacion-comprador")).toContainText(
    "certificado de material 3.1",
  );
  const partnerThread = adminPage.getByTestId(askingThread);
  await partnerThread.getByText("Reenviar al comprador").click();
  await expect(partnerThread.getByLabel("Pregunta para el comprador")).toHaveValue(
    "¿El plano incluye las bridas ciegas?\nSi no, ¿qué norma aplican?",
  );
  await partnerThread.getByRole("button", { name: "Reenviar sin el nombre del socio" }).click();
  await expect(adminPage.getByText("Pregunta reenviada", { exact: true })).toBeVisible();

  await waitForMail(server, buyer.email, `Nuevo mensaje sobre «${title}»`);
  await buyerPage.goto("/buyer/quotes");
  await expect(buyerPage.getByTestId("sin-leer")).toHaveText("1 mensaje sin leer");
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  const buyerThread = buyerPage.getByTestId("conversacion-comprador");
  await expect(buyerThread).toContainText("Pregunta de un socio");
  await expect(buyerThread).toContainText("¿El plano incluye las bridas ciegas?");
  await expect(buyerThread).toContainText("Equipo CotizaHub");
  await expect(buyerPage.getByText("Aceros Preguntones")).toHaveCount(0);
  await expect(buyerPage.getByText("plano-revision-b.pdf")).toHaveCount(0);
  await expect(buyerPage.locator('[data-testid^="conversacion-"]')).toHaveCount(1);
  // Read: the marker is gone from the list.
  await buyerPage.goto("/buyer/quotes");
  await expect(buyerPage.getByTestId("sin-leer")).toHaveCount(0);

  // The operator has every thread; the history logs the messages, the relay and the forward.
  await adminPage.goto(`/admin/quotes/${requestId}`);
  await expect(adminPage.locator('[data-testid^="conversacion-"]')).toHaveCount(3);
  const history = adminPage.getByRole("region", { name: "Historial" });
  await expect(history.getByText("Respuesta a los socios")).toBeVisible();
  await expect(history.getByText("Pregunta reenviada al comprador")).toBeVisible();
  // The buyer's history does not list the conversations.
  await buyerPage.goto(`/buyer/quotes/${requestId}`);
  await expect(
    buyerPage.getByRole("region", { name: "Historial" }).getByText("Respuesta a los socios"),
  ).toHaveCount(0);

  // 5. E-mail: once per thread per window. The buyer got one digest, for the forward.
  expect(digests(server, buyer.email, title)).toHaveLength(1);
  // One per thread so far: the partner's and the buyer's.
  const mailedBefore = digests(server, admin.email, title).length;
  expect(mailedBefore).toBe(2);
  // A second question within 10 minutes of the last e-mail waits for the window… (the last
  // e-mail is dated now, so however long the steps above took, the window is still open).
  const { id: threadId } = server.sql
    .prepare(
      `SELECT t.id FROM threads t JOIN partner_assignments pa ON pa.id = t.assignment_id
       WHERE pa.quote_request_id = ? AND pa.partner_id = ?`,
    )
    .get(requestId, asking.id) as { id: number };
  server.sql
    .prepare("UPDATE thread_participants SET mailed_at = ? WHERE thread_id = ? AND user_id = ?")
    .run(new Date().toISOString(), threadId, admin.id);
  await askingPage.goto(`/partner/assignments/${requestId}`);
  await writeIn(askingPage, askingThread, "Otra duda: ¿se aceptan entregas parciales?");
  const digestKey = `thread_digest:${threadId}:${admin.id}:%`;
  const pending = server.sql
    .prepare("SELECT run_at FROM jobs WHERE key LIKE ? AND done_at IS NULL AND failed_at IS NULL")
    .all(digestKey) as { run_at: string }[];
  expect(pending).toHaveLength(1);
  expect(Date.parse(pending[0]!.run_at)).toBeGreaterThan(Date.now() + 8 * 60_000);
  expect(digests(server, admin.email, title)).toHaveLength(mailedBefore);
  // …and goes once the window has passed (time moved through the data, not waited for).
  server.sql
    .prepare("UPDATE jobs SET run_at = ? WHERE key LIKE ? AND done_at IS NULL")
    .run(new Date(Date.now() - 1000).toISOString(), digestKey);
  await expect
    .poll(() => digests(server, admin.email, title).length, { timeout: 30_000 })
    .toBe(mailedBefore + 1);
  expect(digests(server, admin.email, title).at(-1)!.body).toContain(
    "¿se aceptan entregas parciales?",
  );
});
