/**
 * Hostile inputs found in review: list fields with far indices, a Host that disagrees with the
 * Origin, and password guessing spread over many addresses. Raw HTTP against the built server.
 */
import {
  count,
  createSession,
  createUser,
  expect,
  expectAlive,
  FORM,
  multipart,
  PASSWORD,
  readMails,
  rssOf,
  send,
  sameOrigin,
  startServer,
  test,
  uniqueEmail,
  urlencoded,
  type Server,
  type TestUser,
} from "./helpers";

const MB = 1024 * 1024;
const ROWS_MESSAGE = "Este formulario admite hasta 50 renglones";

/** A request of a fresh buyer, in its sourcing round, assigned to a fresh partner. */
async function assignedRequest(server: Server): Promise<{ requestId: number; cookie: string }> {
  const buyer = createUser(server, { role: "buyer" });
  const partner = createUser(server, { role: "partner" });
  const at = new Date().toISOString();
  const deadline = new Date(Date.now() + 48 * 3600_000).toISOString();
  const requestId = Number(
    server.sql
      .prepare(
        `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, quote_deadline, created_at, updated_at)
         VALUES (?, 'Tubería para planta', 'Tubería de acero', 'requisitos.pdf', 'application/pdf', 'edge/none.pdf', 10, 'assigned', ?, ?, ?)`,
      )
      .run(buyer.id, deadline, at, at).lastInsertRowid,
  );
  server.sql
    .prepare(
      "INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)",
    )
    .run(partner.id, requestId, at);
  const { cookie } = await createSession(server, partner);
  return { requestId, cookie };
}

function offerRow(i: number, price = "100") {
  return [
    { name: `items[${i}].description`, value: `Renglón ${i}` },
    { name: `items[${i}].quantity`, value: "1" },
    { name: `items[${i}].unit`, value: "pza" },
    { name: `items[${i}].unit_price`, value: price },
  ];
}

function postOffer(
  server: Server,
  requestId: number,
  cookie: string,
  parts: { name: string; value: string }[],
) {
  const { body, contentType } = multipart([
    ...parts,
    { name: "tax_rate", value: "16" },
    { name: "lead_time_days", value: "10" },
  ]);
  return send(server, {
    method: "POST",
    path: `/partner/assignments/${requestId}/quote`,
    headers: [...sameOrigin(server, contentType), ["Cookie", cookie]],
    body,
    timeoutMs: 10_000,
  });
}

const offers = (server: Server, requestId: number) =>
  count(server, "partner_quotes", "quote_request_id = ?", requestId);

test.describe("1. Campos de lista con índices lejanos", () => {
  test("un renglón inválido más items[1000000]: 400 en menos de 1 s, la memoria no sube 50 MB y / sigue respondiendo", async ({
    server,
  }) => {
    const { requestId, cookie } = await assignedRequest(server);
    const before = rssOf(server.pid);
    const res = await postOffer(server, requestId, cookie, [
      ...offerRow(0, "abc"),
      { name: "items[1000000].description", value: "x" },
      { name: "intent", value: "submit" },
    ]);
    const after = rssOf(server.pid);
    expect(res.status).toBe(400);
    expect(res.body).toContain(ROWS_MESSAGE);
    expect(res.responseMs).toBeLessThan(1_000);
    expect(res.body.length).toBeLessThan(100_000);
    expect(after - before, "RSS después - antes").toBeLessThan(50 * MB);
    expect(offers(server, requestId)).toBe(0);
    await expectAlive(server);
  });

  test("«Añadir renglón» con items[100000]: 400 sin eco de filas", async ({ server }) => {
    const { requestId, cookie } = await assignedRequest(server);
    const res = await postOffer(server, requestId, cookie, [
      ...offerRow(0),
      { name: "items[100000].description", value: "x" },
      { name: "intent", value: "add_row" },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toContain(ROWS_MESSAGE);
    expect(res.body.length).toBeLessThan(100_000);
    await expectAlive(server);
  });

  test("una oferta válida con un índice lejano se rechaza entera y no se guarda", async ({
    server,
  }) => {
    const { requestId, cookie } = await assignedRequest(server);
    const res = await postOffer(server, requestId, cookie, [...offerRow(0), ...offerRow(50)]);
    expect(res.status).toBe(400);
    expect(res.body).toContain(ROWS_MESSAGE);
    expect(offers(server, requestId)).toBe(0);
  });

  test("nombres de campo que el lector de formularios no puede leer: 400, nunca 500", async ({
    server,
  }) => {
    const { requestId, cookie } = await assignedRequest(server);
    for (const name of ["items[x].unit", "items[].unit", "a..b", "__proto__.x", "items[-1].unit"]) {
      const res = await postOffer(server, requestId, cookie, [
        ...offerRow(0),
        { name, value: "x" },
      ]);
      expect(res.status, name).toBe(400);
    }
    // The same names on a form without a file (urlencoded), signed out.
    const contact = await send(server, {
      method: "POST",
      path: "/contact",
      headers: sameOrigin(server, FORM),
      body: `${urlencoded({ name: "Ana", email: "ana@ejemplo.test", message: "Hola" })}&items%5Bx%5D=1`,
    });
    expect(contact.status).toBe(400);
    expect(offers(server, requestId)).toBe(0);
    await expectAlive(server);
  });

  test("51 renglones reciben el mensaje de los 50 renglones (no «Envío demasiado grande»); 50 se guardan", async ({
    server,
  }) => {
    const { requestId, cookie } = await assignedRequest(server);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => offerRow(i)).flat();
    const tooMany = await postOffer(server, requestId, cookie, rows(51));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toContain(ROWS_MESSAGE);
    expect(tooMany.body).not.toContain("demasiado grande");
    expect(offers(server, requestId)).toBe(0);

    const fifty = await postOffer(server, requestId, cookie, rows(50));
    expect(fifty.status, fifty.body.slice(0, 300)).toBe(302);
    expect(offers(server, requestId)).toBe(1);
    const lines = server.sql
      .prepare(
        "SELECT count(*) AS n FROM partner_quote_items WHERE partner_quote_id = (SELECT id FROM partner_quotes WHERE quote_request_id = ?)",
      )
      .get(requestId) as { n: number };
    expect(lines.n).toBe(50);
  });
});

test.describe("2. Host y Origin", () => {
  test("con APP_URL, un POST con su Origin y otro Host inicia sesión (sin 500); uno de otro Origin recibe 403", async () => {
    const app = await startServer({ APP_URL: "https://cotiza.example" });
    try {
      const user = createUser(app);
      const signIn = (origin: string) =>
        send(app, {
          method: "POST",
          path: "/auth",
          headers: [
            ["Host", `127.0.0.1:${app.port}`],
            ["Origin", origin],
            ["Content-Type", FORM],
          ],
          body: urlencoded({ intent: "signin", email: user.email, password: PASSWORD }),
        });
      const ours = await signIn("https://cotiza.example");
      expect(ours.status).toBe(302);
      expect(ours.setCookies.join("\n")).toContain("__session=");
      const foreign = await signIn(`http://127.0.0.1:${app.port}`);
      expect(foreign.status).toBe(403);
      await expectAlive(app);
    } finally {
      await app.stop();
    }
  });

  test("sin TRUST_PROXY, un X-Forwarded-Host enviado por el cliente no provoca un 500", async ({
    server,
  }) => {
    const user = createUser(server);
    for (const forwarded of ["otro.example", "otro.example, 127.0.0.1", ""]) {
      const res = await send(server, {
        method: "POST",
        path: "/auth",
        headers: [
          ["Origin", server.url],
          ["X-Forwarded-Host", forwarded],
          ["Content-Type", FORM],
        ],
        body: urlencoded({ intent: "signin", email: user.email, password: PASSWORD }),
      });
      expect(res.status, forwarded).toBe(302);
    }
  });

  test("con TRUST_PROXY y sin APP_URL, un X-Forwarded-Host que no es el del Origin recibe 403, no 500", async () => {
    const proxied = await startServer({ TRUST_PROXY: "1", APP_URL: "" });
    try {
      const user = createUser(proxied);
      for (const [origin, forwarded, status] of [
        [proxied.url, "otro.example", 403],
        ["http://otro.example", "otro.example", 302],
        ["http://otro.example", "otro.example, 127.0.0.1", 403],
      ] as const) {
        const res = await send(proxied, {
          method: "POST",
          path: "/auth",
          headers: [
            ["Origin", origin],
            ["X-Forwarded-Host", forwarded],
            ["Content-Type", FORM],
          ],
          body: urlencoded({ intent: "signin", email: user.email, password: PASSWORD }),
        });
        expect(res.status, `${origin} / ${forwarded}`).toBe(status);
      }
      await expectAlive(proxied);
    } finally {
      await proxied.stop();
    }
  });
});

test.describe("3. Contraseñas probadas desde muchas direcciones (TRUST_PROXY=1)", () => {
  let proxied: Server;
  test.beforeAll(async () => {
    proxied = await startServer({ TRUST_PROXY: "1" });
  });
  test.afterAll(async () => {
    await proxied?.stop();
  });

  function signIn(email: string, password: string, ip: string, cookie?: string) {
    return send(proxied, {
      method: "POST",
      path: "/auth",
      headers: [
        ["Fly-Client-IP", ip],
        ["Content-Type", FORM],
        ...(cookie ? ([["Cookie", cookie]] as [string, string][]) : []),
      ],
      body: urlencoded({ intent: "signin", email, password }),
    });
  }

  const deviceCookie = (setCookies: string[]) =>
    setCookies.find((c) => c.startsWith("__dispositivo="))?.split(";")[0];

  /** 30 wrong passwords, each from its own address; the answers' statuses and messages. */
  async function guessFromThirtyAddresses(email: string, subnet: number) {
    const answers: string[] = [];
    for (let i = 1; i <= 30; i++) {
      const res = await signIn(email, `incorrecta-${i}`, `203.0.${subnet}.${i}`);
      const message = /Credenciales inválidas|Acceso bloqueado temporalmente/.exec(res.body)?.[0];
      answers.push(`${res.status} ${message}`);
    }
    return answers;
  }

  test("tras 30 intentos desde 30 direcciones, la contraseña correcta no entra desde un navegador nuevo y sí desde el del dueño", async () => {
    const owner: TestUser = createUser(proxied);
    const first = await signIn(owner.email, PASSWORD, "198.51.100.1");
    expect(first.status).toBe(302);
    const device = deviceCookie(first.setCookies);
    expect(device, "la cookie de dispositivo").toBeTruthy();
    const attributes = first.setCookies.find((c) => c.startsWith("__dispositivo="))!;
    expect(attributes).toMatch(/HttpOnly/i);
    expect(attributes).toMatch(/SameSite=Lax/i);

    const answers = await guessFromThirtyAddresses(owner.email, 113);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill("401 Credenciales inválidas"));
    expect(answers.slice(10)).toEqual(Array(20).fill("429 Acceso bloqueado temporalmente"));

    const newBrowser = await signIn(owner.email, PASSWORD, "192.0.2.200");
    expect(newBrowser.status, "navegador nuevo con la contraseña correcta").toBe(429);
    expect(newBrowser.setCookies.join("\n")).not.toContain("__session=");

    const tampered = `${device!.slice(0, -3)}abc`;
    expect((await signIn(owner.email, PASSWORD, "192.0.2.201", tampered)).status).toBe(429);

    const known = await signIn(owner.email, PASSWORD, "192.0.2.202", device);
    expect(known.status, "el navegador del dueño entra").toBe(302);
    expect(known.setCookies.join("\n")).toContain("__session=");

    // The cookie is for that account only.
    const other = createUser(proxied);
    for (let i = 1; i <= 10; i++) await signIn(other.email, "incorrecta", `203.0.114.${i}`);
    expect((await signIn(other.email, PASSWORD, "192.0.2.203", device)).status).toBe(429);

    const warnings = readMails(proxied, owner.email).filter((m) =>
      /Intentos fallidos/.test(m.subject),
    );
    expect(warnings.length).toBeLessThanOrEqual(1);
  });

  test("un correo sin cuenta recibe exactamente las mismas respuestas", async () => {
    const existing = createUser(proxied);
    const known = await guessFromThirtyAddresses(existing.email, 115);
    const unknown = await guessFromThirtyAddresses(uniqueEmail("nadie"), 116);
    expect(unknown).toEqual(known);
  });

  test("un navegador conocido que falla cinco veces queda bloqueado él solo", async () => {
    const owner = createUser(proxied);
    const device = deviceCookie((await signIn(owner.email, PASSWORD, "198.51.100.2")).setCookies);
    for (let i = 1; i <= 5; i++)
      expect((await signIn(owner.email, "incorrecta", "198.51.100.2", device)).status).toBe(401);
    expect((await signIn(owner.email, PASSWORD, "198.51.100.2", device)).status).toBe(429);
    // Its failures count against the device, not the address: a new browser there still enters.
    expect((await signIn(owner.email, PASSWORD, "198.51.100.2")).status).toBe(302);
  });
});
