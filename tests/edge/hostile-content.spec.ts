/**
 * Hostile content rather than hostile requests, against the real built server (and, for the
 * restore, the real script): a partner's question carrying its contact details on its way to the
 * buyer, a request title a spreadsheet would run as a formula, and backup archives holding entries
 * a backup never holds. Data is written straight into SQLite, requests go over raw HTTP.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { csvRows, csvText } from "../csv";
import { backupWith, type ArchiveEntry } from "../tar-archive";
import {
  createSession,
  createUser,
  expect,
  expectAlive,
  multipart,
  PDF,
  sameOrigin,
  send,
  test,
  type Server,
  type TestUser,
} from "./helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** An assigned request of `buyer` with `partner` in its round, written as the app would store it. */
function insertRequest(server: Server, buyer: TestUser, partner: TestUser, title: string) {
  const key = `edge/${process.pid}-${Date.now()}.pdf`;
  fs.mkdirSync(path.join(server.uploadsDir, "edge"), { recursive: true });
  fs.writeFileSync(path.join(server.uploadsDir, key), PDF);
  const at = new Date().toISOString();
  const requestId = Number(
    server.sql
      .prepare(
        `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, created_at, updated_at)
         VALUES (?, ?, 'Suministro de prueba.', 'requisitos.pdf', 'application/pdf', ?, ?, 'assigned', ?, ?)`,
      )
      .run(buyer.id, title, key, PDF.length, at, at).lastInsertRowid,
  );
  const assignmentId = Number(
    server.sql
      .prepare(
        "INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)",
      )
      .run(partner.id, requestId, at).lastInsertRowid,
  );
  return { requestId, assignmentId };
}

/** The text of a textarea as the server rendered it (React escapes & < > " '). */
function textareaValue(html: string, id: string): string | null {
  const match = new RegExp(`<textarea[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  if (!match) return null;
  return match[1]!
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/^\n/, "");
}

test.describe("1. Reenviar al comprador la pregunta de un socio", () => {
  test.afterEach(async ({ server }) => {
    await expectAlive(server);
  });

  test("la copia prellenada oculta correo, teléfono, sitio y empresa del socio, y el comprador no recibe ninguno", async ({
    server,
  }) => {
    const buyer = createUser(server, { role: "buyer" });
    const admin = createUser(server, { role: "admin" });
    const partner = createUser(server, { role: "partner" });
    server.sql
      .prepare("UPDATE users SET first_name = ?, last_name = ?, company_name = ? WHERE id = ?")
      .run("Rogelio", "Villarreal", "Tubería Regia, S.A. de C.V.", partner.id);
    const { requestId, assignmentId } = insertRequest(
      server,
      buyer,
      partner,
      "Tubería de acero A36",
    );
    const at = new Date().toISOString();
    const threadId = Number(
      server.sql
        .prepare(
          "INSERT INTO threads (quote_request_id, kind, assignment_id, created_at) VALUES (?, 'partner', ?, ?)",
        )
        .run(requestId, assignmentId, at).lastInsertRowid,
    );
    const question =
      "Buen día, soy Rogelio Villarreal de Tubería Regia. ¿El acero es A36 o A53?\n" +
      "Cualquier duda a rogelio@tuberiaregia.com.mx, cel. +52 81 1234 5678, " +
      "o vean https://tuberiaregia.com.mx/catalogo";
    const messageId = Number(
      server.sql
        .prepare(
          "INSERT INTO thread_messages (thread_id, author_id, author_role, body, created_at) VALUES (?, ?, 'partner', ?, ?)",
        )
        .run(threadId, partner.id, question, at).lastInsertRowid,
    );
    const secrets = ["Rogelio", "Villarreal", "Tubería Regia", "tuberiaregia", "1234 5678"];

    // The operator's page, as the server renders it (no JavaScript involved).
    const { cookie: adminCookie } = await createSession(server, admin);
    const threadPath = `/threads/${requestId}/socio-${partner.id}`;
    const page = await send(server, { path: threadPath, headers: [["Cookie", adminCookie]] });
    expect(page.status).toBe(200);
    const copy = textareaValue(page.body, `mensaje-${messageId}-forward`);
    expect(copy).toBe(
      "Buen día, soy [dato de contacto oculto] de [dato de contacto oculto]. ¿El acero es A36 o A53?\n" +
        "Cualquier duda a [dato de contacto oculto], cel. [dato de contacto oculto], " +
        "o vean [dato de contacto oculto]",
    );
    for (const secret of secrets) expect(copy, secret).not.toContain(secret);
    expect(page.body).toContain("Se ocultaron 5 datos de contacto del socio en esta copia.");
    // The operator still reads the original, each detail marked and named for screen readers.
    expect(page.body).toMatch(
      /<mark[^>]*><span class="sr-only">Dato de contacto \(correo electrónico\): <\/span>rogelio@tuberiaregia\.com\.mx<\/mark>/,
    );

    // Forwarded as pre-filled, without JavaScript.
    const form = multipart([
      { name: "intent", value: "forward" },
      { name: "message_id", value: String(messageId) },
      { name: "body", value: copy! },
    ]);
    const forwarded = await send(server, {
      method: "POST",
      path: threadPath,
      headers: [...sameOrigin(server, form.contentType), ["Cookie", adminCookie]],
      body: form.body,
    });
    expect(forwarded.status).toBe(302);

    const stored = server.sql
      .prepare(
        "SELECT m.body FROM thread_messages m JOIN threads t ON t.id = m.thread_id WHERE t.quote_request_id = ? AND t.kind = 'buyer'",
      )
      .all(requestId) as { body: string }[];
    expect(stored).toEqual([{ body: copy }]);

    const { cookie: buyerCookie } = await createSession(server, buyer);
    const buyerPage = await send(server, {
      path: `/buyer/quotes/${requestId}`,
      headers: [["Cookie", buyerCookie]],
    });
    expect(buyerPage.status).toBe(200);
    expect(buyerPage.body).toContain("Pregunta de un socio");
    expect(buyerPage.body).toContain("¿El acero es A36 o A53?");
    for (const secret of secrets) expect(buyerPage.body, secret).not.toContain(secret);
  });
});

test.describe("2. Exportar a CSV un título que empieza con una fórmula de ancho completo", () => {
  test.afterEach(async ({ server }) => {
    await expectAlive(server);
  });

  test("＝1+1 llega a la hoja de cálculo como texto, con el apóstrofo delante", async ({
    server,
  }) => {
    const buyer = createUser(server, { role: "buyer" });
    const admin = createUser(server, { role: "admin" });
    const partner = createUser(server, { role: "partner" });
    const titles = {
      wide: "\uFF1D1+1 Válvulas",
      hidden: "\u200B\uFF0BHYPERLINK(1)",
      minus: "\u2212SUM(A1)",
    };
    const ids = Object.fromEntries(
      Object.entries(titles).map(([name, title]) => [
        name,
        insertRequest(server, buyer, partner, title).requestId,
      ]),
    );
    const { cookie } = await createSession(server, admin);
    const res = await send(server, { path: "/admin/quotes.csv", headers: [["Cookie", cookie]] });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const { rows } = csvRows(csvText(new TextEncoder().encode(res.body)));
    const titleOf = (id: number) => rows.find((row) => row.Solicitud === String(id))?.Título;
    expect(titleOf(ids.wide!)).toBe(`'${titles.wide}`);
    expect(titleOf(ids.hidden!)).toBe(`'${titles.hidden}`);
    expect(titleOf(ids.minus!)).toBe(`'${titles.minus}`);
  });
});

test.describe("3. Restaurar una copia con entradas que no son archivos ni carpetas", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-edge-restore-"));
  test.afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /** `npm run restore -- archive` in a fresh folder of its own. */
  function restore(archive: string, dir: string) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_PATH: path.join(dir, "datos/app.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      MAIL_DIR: path.join(dir, "mail"),
      TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"),
    };
    return new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        path.join(ROOT, "node_modules/.bin/tsx"),
        [path.join(ROOT, "scripts/restore.ts"), archive],
        { cwd: dir, env },
      );
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => resolve({ code, out }));
    });
  }

  const cases: [string, ArchiveEntry, string][] = [
    [
      "enlace duro",
      { path: "files/2026/enlace.pdf", type: "Link", linkpath: "files/no-existe.pdf" },
      "la entrada «files/2026/enlace.pdf» es un enlace duro",
    ],
    [
      "enlace simbólico",
      { path: "files/2026/atajo", type: "SymbolicLink", linkpath: "/etc" },
      "la entrada «files/2026/atajo» es un enlace simbólico",
    ],
    ["FIFO", { path: "files/fifo", type: "FIFO" }, "la entrada «files/fifo» es una tubería"],
    [
      "dispositivo de caracteres",
      { path: "files/null", type: "CharacterDevice" },
      "la entrada «files/null» es un dispositivo de caracteres",
    ],
  ];
  for (const [name, entry, message] of cases) {
    test(`un ${name} se rechaza en español, nombrado, sin dejar nada en uploads/.tmp`, async () => {
      const dir = path.join(work, name.replace(/\s+/g, "-"));
      fs.mkdirSync(dir);
      const archive = path.join(dir, "copia.tar.gz");
      backupWith(archive, [entry]);
      const result = await restore(archive, dir);
      expect(result.out).toContain(`La restauración falló: ${message}`);
      expect(result.out).not.toMatch(/ENOTEMPTY|rmdir|Error:/);
      expect(result.code).toBe(1);
      const staging = path.join(dir, "uploads/.tmp");
      expect(fs.existsSync(staging) ? fs.readdirSync(staging) : []).toEqual([]);
      expect(fs.existsSync(path.join(dir, "datos/app.sqlite"))).toBe(false);
    });
  }
});
