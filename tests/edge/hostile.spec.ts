/**
 * Hostile requests against the real built server (tests/edge/helpers.ts starts one per worker):
 * oversized and endless bodies, cross-site writes, malformed forms, hostile uploads, open
 * redirects, sign-in lockout and timing, security headers. Every test checks the status, that
 * nothing was stored (row counts and the files under UPLOADS_DIR) and that the server still answers.
 */
import fs from "node:fs";
import path from "node:path";
import {
  count,
  createSession,
  createUser,
  EXE,
  expect,
  expectAlive,
  expectNothingStored,
  FORM,
  multipart,
  PASSWORD,
  PDF,
  readMails,
  rssOf,
  sameOrigin,
  send,
  sessionIdOf,
  snapshot,
  stackTracesSince,
  startServer,
  test,
  uniqueEmail,
  urlencoded,
  validContact,
  waitForMail,
  type RawResponse,
  type Server,
  type TestUser,
} from "./helpers";

const MB = 1024 * 1024;
const ROOT = path.resolve(import.meta.dirname, "../..");

test.afterEach(async ({ server }) => {
  await expectAlive(server);
});

/** The edge's refusal page: Spanish, HTML, with the security headers. */
const REFUSAL_TITLES = {
  403: "Solicitud rechazada",
  405: "Método no permitido",
  413: "Envío demasiado grande",
} as const;

function expectRefusalPage(res: RawResponse, status: 403 | 405 | 413, what: string): void {
  expect(res.status, what).toBe(status);
  expect(res.headers["content-type"], what).toMatch(/^text\/html/);
  expect(res.body, what).toContain('lang="es"');
  expect(res.body, what).toContain(REFUSAL_TITLES[status]);
  expect(res.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(res.headers["content-security-policy"], what).toContain("base-uri 'none'");
  expect(res.headers["x-content-type-options"], what).toBe("nosniff");
  expect(res.headers["x-frame-options"], what).toBe("DENY");
  expect(res.headers["referrer-policy"], what).toBeTruthy();
  expect(res.setCookies, what).toEqual([]);
}

function postContact(server: Server, headers: [string, string][], tag: string, p = "/contact") {
  return send(server, {
    method: "POST",
    path: p,
    headers: [...headers, ["Content-Type", FORM]],
    body: urlencoded(validContact(tag)),
  });
}

function signIn(
  server: Server,
  email: string,
  password: string,
  { redirectTo, headers = [] }: { redirectTo?: string; headers?: [string, string][] } = {},
) {
  const fields: Record<string, string> = { intent: "signin", email, password };
  if (redirectTo !== undefined) fields.redirectTo = redirectTo;
  return send(server, {
    method: "POST",
    path: "/auth",
    headers: [...headers, ["Content-Type", FORM]],
    body: urlencoded(fields),
  });
}

async function buyerCookie(server: Server): Promise<{ user: TestUser; cookie: string }> {
  const user = createUser(server, { role: "buyer" });
  const { cookie } = await createSession(server, user);
  return { user, cookie };
}

/** Runs `fn` against a server of its own (for requests that may bring the server down). */
async function onOwnServer(fn: (server: Server) => Promise<void>): Promise<void> {
  const own = await startServer();
  try {
    await fn(own);
  } finally {
    await own.stop();
  }
}

function postUpload(server: Server, cookie: string, body: Buffer, contentType: string) {
  return send(server, {
    method: "POST",
    path: "/buyer/quotes/new",
    headers: [...sameOrigin(server, contentType), ["Cookie", cookie]],
    body,
  });
}

test.describe("1. Límite de tamaño del cuerpo", () => {
  test("un urlencoded que declara 60 MB recibe 413 por las cabeceras, sin leer el cuerpo", async ({
    server,
  }) => {
    const before = snapshot(server);
    const res = await send(server, {
      method: "POST",
      path: "/contact",
      headers: [
        ["Content-Type", FORM],
        ["Content-Length", String(60 * MB)],
      ],
      timeoutMs: 10_000,
    });
    expectRefusalPage(res, 413, "60 MB declarados");
    expect(res.sentAtResponse, "respondió sin esperar el cuerpo").toBe(0);
    expect(res.headers.connection).toBe("close");
    await expectNothingStored(server, before);
  });

  test("un urlencoded chunked de 60 MB recibe 413 y la conexión se corta", async ({ server }) => {
    const before = snapshot(server);
    const res = await send(server, {
      method: "POST",
      path: "/contact",
      headers: [["Content-Type", FORM]],
      // 10 MB/s after the first bytes: 60 MB would take 6 s, so a cut shows before the end.
      stream: {
        total: 60 * MB,
        prefix: Buffer.from("name=Ana&email=ana%40ejemplo.test&message="),
        bytesPerSecond: 10 * MB,
      },
      timeoutMs: 20_000,
    });
    expect(res.status).toBe(413);
    // Counted on our side: loopback socket buffers take a few MB before the server reads them.
    expect(res.sentAtResponse, "respondió al pasar el límite de 256 KB").toBeLessThan(8 * MB);
    expect(res.cut, `el servidor cortó la conexión (enviados ${res.sent} bytes)`).toBe(true);
    expect(res.sent).toBeLessThan(60 * MB);
    expect(res.closedAfterResponseMs).not.toBeNull();
    expect(res.closedAfterResponseMs!).toBeLessThan(5_000);
    await expectNothingStored(server, before);
  });

  const preamble12 = (boundary: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nDemasiado grande\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="grande.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );

  test("un multipart que declara 12 MB a /buyer/quotes/new con sesión recibe 413 y no deja archivo", async ({
    server,
  }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const res = await send(server, {
      method: "POST",
      path: "/buyer/quotes/new",
      headers: [
        ...sameOrigin(server, "multipart/form-data; boundary=xyz"),
        ["Cookie", cookie],
        ["Content-Length", String(12 * MB)],
      ],
      stream: { total: 12 * MB, prefix: preamble12("xyz"), chunked: false },
    });
    expectRefusalPage(res, 413, "12 MB declarados");
    await expectNothingStored(server, before);
  });

  test("un multipart chunked de 12 MB a /buyer/quotes/new con sesión recibe 413 y no deja archivo", async ({
    server,
  }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const res = await send(server, {
      method: "POST",
      path: "/buyer/quotes/new",
      headers: [...sameOrigin(server, "multipart/form-data; boundary=xyz"), ["Cookie", cookie]],
      stream: { total: 12 * MB, prefix: preamble12("xyz") },
    });
    expect(res.status).toBe(413);
    expect(res.sentAtResponse).toBeGreaterThan(10 * MB);
    await expectNothingStored(server, before);
  });

  /** Four paced 50 MB chunked posts at once, sampling the server's RSS and timing GET /. */
  async function fourBigPosts(server: Server, type: "urlencoded" | "multipart") {
    const before = snapshot(server);
    // Warm up the page so the first render's one-time work is not measured as memory growth.
    const quiet: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await send(server, { path: "/" });
      expect(page.status).toBe(200);
      quiet.push(page.responseMs);
    }
    // Under 1 s, or (on a machine busy with other work) within 4× the same page just before.
    const pageBudget = Math.max(1_000, 4 * quiet.sort((a, b) => a - b)[1]!);
    const rssBefore = rssOf(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssOf(server.pid));
      } catch {
        // the process is gone; the checks below report it
      }
    }, 100);
    const boundary = "cincuenta";
    const [contentType, prefix] =
      type === "multipart"
        ? [
            `multipart/form-data; boundary=${boundary}`,
            `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--${boundary}\r\nContent-Disposition: form-data; name="adjunto"; filename="x.bin"\r\n\r\n`,
          ]
        : [FORM, "name=Ana&email=ana%40ejemplo.test&message="];
    const posts = Array.from({ length: 4 }, () =>
      send(server, {
        method: "POST",
        path: "/contact",
        headers: [["Content-Type", contentType]],
        // Paced (15 MB/s each) to stay light on a shared machine; the server reads up to its cap,
        // answers 413, then drains for a moment and cuts.
        stream: { total: 50 * MB, prefix: Buffer.from(prefix), bytesPerSecond: 15 * MB },
        timeoutMs: 30_000,
      }),
    );
    const pageTimes: number[] = [];
    let results: RawResponse[];
    try {
      for (const wait of [300, 700, 1_000]) {
        await new Promise((r) => setTimeout(r, wait));
        const page = await send(server, { path: "/", timeoutMs: 5_000 });
        expect(page.status, "GET / durante los envíos").toBe(200);
        pageTimes.push(page.responseMs);
      }
    } finally {
      results = await Promise.all(posts);
      clearInterval(sampler);
    }
    for (const res of results) expect(res.status).toBe(413);
    await new Promise((r) => setTimeout(r, 500));
    const rssAfter = rssOf(server.pid);
    test.info().annotations.push({
      type: "memoria",
      description: `GET / sin carga ${quiet.join(", ")} ms; RSS antes ${(rssBefore / MB).toFixed(1)} MB, pico ${(peak / MB).toFixed(1)} MB, después ${(rssAfter / MB).toFixed(1)} MB; GET / ${pageTimes.join(", ")} ms; enviados ${results.map((r) => (r.sent / MB).toFixed(0)).join(", ")} MB`,
    });
    expect(rssAfter - rssBefore, "RSS después - antes").toBeLessThan(50 * MB);
    expect(peak - rssBefore, "RSS pico - antes").toBeLessThan(50 * MB);
    for (const ms of pageTimes) expect(ms, "GET / durante los envíos").toBeLessThan(pageBudget);
    for (const res of results) expect(res.cut, "cada envío se corta").toBe(true);
    await expectNothingStored(server, before);
    await expectAlive(server);
  }

  test("cuatro urlencoded chunked de 50 MB a la vez: la memoria no sube más de 50 MB y / responde en < 1 s", async ({
    server,
  }) => {
    await fourBigPosts(server, "urlencoded");
  });

  test("cuatro multipart chunked de 50 MB a la vez: la memoria no sube más de 50 MB y / responde en < 1 s", async () => {
    await onOwnServer((own) => fourBigPosts(own, "multipart"));
  });

  test("un multipart truncado con una parte de archivo abierta: 400 y el servidor sigue vivo", async () => {
    await onOwnServer(async (own) => {
      const body = `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--b\r\nContent-Disposition: form-data; name="adjunto"; filename="x.bin"\r\n\r\nabcdef`;
      for (const target of ["/contact", "/auth"]) {
        const res = await send(own, {
          method: "POST",
          path: target,
          headers: [["Content-Type", "multipart/form-data; boundary=b"]],
          body,
          timeoutMs: 5_000,
        });
        expect(res.status, target).toBe(400);
        await expectAlive(own);
      }
    });
  });

  test("un cliente que cuelga a mitad de una parte de archivo no tumba el servidor", async () => {
    await onOwnServer(async (own) => {
      const before = snapshot(own);
      await send(own, {
        method: "POST",
        path: "/contact",
        headers: [
          ["Content-Type", "multipart/form-data; boundary=b"],
          ["Content-Length", String(5 * MB)],
        ],
        stream: {
          total: 5 * MB,
          chunked: false,
          prefix: Buffer.from(
            `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nAna\r\n--b\r\nContent-Disposition: form-data; name="adjunto"; filename="x.bin"\r\n\r\n`,
          ),
          abortAfter: MB,
        },
      });
      await new Promise((r) => setTimeout(r, 500));
      await expectAlive(own);
      await expectNothingStored(own, before);
    });
  });
});

test.describe("2. Escrituras desde otro sitio", () => {
  const crossSite = (server: Server): [string, [string, string][]][] => [
    ["Origin https://evil.example", [["Origin", "https://evil.example"]]],
    ["Origin null", [["Origin", "null"]]],
    ["Origin puerto.evil.example", [["Origin", `${server.url}.evil.example`]]],
    ["Origin con usuario@", [["Origin", `${server.url}@evil.example`]]],
    ["Origin con otro puerto", [["Origin", `${server.url}0`]]],
    ["Origin https del mismo host", [["Origin", `https://127.0.0.1:${server.port}`]]],
    ["Origin localhost (otro nombre)", [["Origin", `http://localhost:${server.port}`]]],
    ["Origin con barra final", [["Origin", `${server.url}/`]]],
    ["sin Origin, Sec-Fetch-Site cross-site", [["Sec-Fetch-Site", "cross-site"]]],
    ["sin Origin, Sec-Fetch-Site same-site", [["Sec-Fetch-Site", "same-site"]]],
    [
      "Origin propio pero Sec-Fetch-Site cross-site",
      [
        ["Origin", server.url],
        ["Sec-Fetch-Site", "cross-site"],
      ],
    ],
    [
      "dos cabeceras Origin (propia y ajena)",
      [
        ["Origin", server.url],
        ["Origin", "https://evil.example"],
      ],
    ],
  ];

  for (const target of ["/contact", "/contact.data"]) {
    test(`POST ${target} desde otro origen recibe 403 y no guarda nada`, async ({ server }) => {
      const before = snapshot(server);
      for (const [what, headers] of crossSite(server)) {
        const res = await postContact(server, headers, what, target);
        expectRefusalPage(res, 403, `${target}: ${what}`);
      }
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const res = await send(server, {
          method,
          path: target,
          headers: [
            ["Origin", "https://evil.example"],
            ["Content-Type", FORM],
          ],
          body: urlencoded(validContact(method)),
        });
        // Refused before its origin is looked at: the app answers no such method.
        expectRefusalPage(res, 405, `${method} ${target}`);
      }
      await expectNothingStored(server, before);
    });
  }

  test("iniciar sesión con la contraseña correcta desde otro origen: 403 y sin cookie de sesión", async ({
    server,
  }) => {
    const user = createUser(server);
    const before = snapshot(server);
    for (const origin of ["https://evil.example", "null", `${server.url}.evil.example`]) {
      const res = await signIn(server, user.email, PASSWORD, { headers: [["Origin", origin]] });
      expectRefusalPage(res, 403, `inicio de sesión con Origin ${origin}`);
      expect(res.setCookies.join("\n")).not.toContain("__session");
    }
    await expectNothingStored(server, before);
  });

  test("una subida con sesión desde otro origen recibe 403 y no guarda nada", async ({
    server,
  }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const form = multipart([
      { name: "title", value: "Desde otro sitio" },
      { name: "file", filename: "ok.pdf", content: PDF, type: "application/pdf" },
    ]);
    const res = await send(server, {
      method: "POST",
      path: "/buyer/quotes/new",
      headers: [
        ["Origin", "https://evil.example"],
        ["Content-Type", form.contentType],
        ["Cookie", cookie],
      ],
      body: form.body,
    });
    expectRefusalPage(res, 403, "subida desde otro origen");
    await expectNothingStored(server, before);
  });

  test("cerrar sesión desde otro origen recibe 403 y la sesión sigue", async ({ server }) => {
    const user = createUser(server);
    const session = await createSession(server, user);
    const res = await send(server, {
      method: "POST",
      path: "/auth/logout",
      headers: [
        ["Origin", "https://evil.example"],
        ["Content-Type", FORM],
        ["Cookie", session.cookie],
      ],
      body: "",
    });
    expectRefusalPage(res, 403, "cierre de sesión desde otro origen");
    expect(count(server, "sessions", "id = ?", session.id)).toBe(1);
  });
});

test.describe("3. Mismo origen", () => {
  test("POST /contact con el Origin del servidor guarda el mensaje", async ({ server }) => {
    const before = count(server, "contact_submissions");
    const res = await postContact(
      server,
      [
        ["Origin", server.url],
        ["Sec-Fetch-Site", "same-origin"],
      ],
      "mismo origen",
    );
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/contact?enviado=1");
    expect(count(server, "contact_submissions")).toBe(before + 1);
    expect(
      count(server, "contact_submissions", "message = ?", "Mensaje de prueba mismo origen"),
    ).toBe(1);
  });

  test("un POST tipo curl (sin Origin ni Sec-Fetch-*) guarda el mensaje", async ({ server }) => {
    const before = count(server, "contact_submissions");
    const res = await postContact(server, [["User-Agent", "curl/8.5.0"]], "curl");
    expect(res.status).toBe(302);
    expect(count(server, "contact_submissions")).toBe(before + 1);
  });

  test("una petición de datos (single fetch) del mismo origen guarda el mensaje", async ({
    server,
  }) => {
    const before = count(server, "contact_submissions");
    const res = await postContact(
      server,
      [
        ["Origin", server.url],
        ["Sec-Fetch-Site", "same-origin"],
      ],
      "single fetch",
      "/contact.data",
    );
    expect(res.status).toBeLessThan(400);
    expect(count(server, "contact_submissions")).toBe(before + 1);
  });

  test("con el honeypot lleno se contesta como si nada pero no se guarda", async ({ server }) => {
    const before = snapshot(server);
    const res = await send(server, {
      method: "POST",
      path: "/contact",
      headers: sameOrigin(server, FORM),
      body: urlencoded({ ...validContact("bot"), website: "https://spam.example" }),
    });
    expect(res.status).toBe(302);
    await expectNothingStored(server, before);
  });
});

test.describe("4. Cuerpos mal formados", () => {
  const boundary = "limite";
  const malformed: { what: string; type: string; body: string; status: number }[] = [
    {
      what: "multipart sin boundary",
      type: "multipart/form-data",
      body: `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--${boundary}--\r\n`,
      status: 400,
    },
    {
      what: "multipart con boundary vacío",
      type: "multipart/form-data; boundary=",
      body: `--\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n----\r\n`,
      status: 400,
    },
    {
      what: "multipart truncado (sin boundary de cierre)",
      type: `multipart/form-data; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nsin ci`,
      status: 400,
    },
    {
      what: "parte sin Content-Disposition",
      type: `multipart/form-data; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Type: text/plain\r\n\r\nhola\r\n--${boundary}--\r\n`,
      status: 400,
    },
    { what: "text/plain", type: "text/plain", body: "email=a@b.c&password=x", status: 415 },
    {
      what: "application/json",
      type: "application/json",
      body: JSON.stringify({ email: "a@b.c", password: "x", name: "x", message: "x" }),
      status: 415,
    },
    {
      what: "multipart/mixed",
      type: `multipart/mixed; boundary=${boundary}`,
      body: "x",
      status: 415,
    },
    { what: "sin Content-Type", type: "", body: "email=a@b.c&password=x", status: 415 },
  ];

  for (const target of ["/contact", "/auth", "/buyer/quotes/new"]) {
    test(`${target}: 400/415 sin guardar nada, sin 500 y sin trazas en el registro`, async ({
      server,
    }) => {
      const { cookie } = await buyerCookie(server);
      const before = snapshot(server);
      const logFrom = server.log().length;
      for (const { what, type, body, status } of malformed) {
        const headers: [string, string][] = [["Origin", server.url]];
        // Only the buyer route needs the session (/auth would send a signed-in user home).
        if (target === "/buyer/quotes/new") headers.push(["Cookie", cookie]);
        if (type) headers.push(["Content-Type", type]);
        const res = await send(server, { method: "POST", path: target, headers, body });
        expect(res.status, `${target}: ${what}`).toBe(status);
      }
      await expectNothingStored(server, before);
      expect(stackTracesSince(server, logFrom)).toEqual([]);
    });
  }

  test("encuadre HTTP hostil: Content-Length y chunked a la vez, chunk roto, longitud no numérica, cabeceras enormes", async ({
    server,
  }) => {
    const before = snapshot(server);
    const logFrom = server.log().length;
    const host = `Host: 127.0.0.1:${server.port}\r\n`;
    const body = urlencoded(validContact("encuadre"));
    const cases: [string, string, number[]][] = [
      [
        "Content-Length + Transfer-Encoding (contrabando)",
        `POST /contact HTTP/1.1\r\n${host}Content-Type: ${FORM}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
        [400],
      ],
      [
        "tamaño de chunk no hexadecimal",
        `POST /contact HTTP/1.1\r\n${host}Content-Type: ${FORM}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
        [400],
      ],
      [
        "Content-Length no numérico",
        `POST /contact HTTP/1.1\r\n${host}Content-Type: ${FORM}\r\nContent-Length: abc\r\n\r\n${body}`,
        [400],
      ],
      [
        "Content-Length negativo",
        `POST /contact HTTP/1.1\r\n${host}Content-Type: ${FORM}\r\nContent-Length: -1\r\n\r\n${body}`,
        [400],
      ],
      [
        "cabecera de 64 KB",
        `GET / HTTP/1.1\r\n${host}X-Relleno: ${"a".repeat(64 * 1024)}\r\n\r\n`,
        [431, 400],
      ],
      ["URL de 64 KB", `GET /${"a".repeat(64 * 1024)} HTTP/1.1\r\n${host}\r\n`, [431, 414, 400]],
    ];
    for (const [what, raw, statuses] of cases) {
      const res = await send(server, { raw, timeoutMs: 10_000 });
      expect(statuses, `${what}: ${res.status} ${res.error ?? ""}`).toContain(res.status);
    }
    await expectNothingStored(server, before);
    expect(stackTracesSince(server, logFrom)).toEqual([]);
  });

  test("demasiados campos o un campo de texto enorme en multipart: 413", async ({ server }) => {
    const before = snapshot(server);
    const many = multipart(
      Array.from({ length: 300 }, (_, i) => ({ name: `campo${i}`, value: "x" })),
    );
    const huge = multipart([
      { name: "name", value: "Ana" },
      { name: "message", value: "m".repeat(70 * 1024) },
    ]);
    for (const [what, form] of [
      ["300 campos", many],
      ["campo de 70 KB", huge],
    ] as const) {
      const res = await send(server, {
        method: "POST",
        path: "/contact",
        headers: [["Content-Type", form.contentType]],
        body: form.body,
      });
      expect(res.status, what).toBe(413);
    }
    // An urlencoded body just over its 256 KB cap, sent in one piece with a true length.
    const res = await send(server, {
      method: "POST",
      path: "/contact",
      headers: [["Content-Type", FORM]],
      body: `name=Ana&message=${"m".repeat(257 * 1024)}`,
    });
    expect(res.status, "urlencoded de 257 KB").toBe(413);
    await expectNothingStored(server, before);
  });

  test("codificación porcentual rota y caracteres de control: sin 500", async ({ server }) => {
    const logFrom = server.log().length;
    for (const body of [
      "name=Ana&email=%E0%A4&message=%",
      "name=%00%01&email=a%40b.c&message=%C0%AF",
      "=&&&==&name",
    ]) {
      const res = await send(server, {
        method: "POST",
        path: "/contact",
        headers: [["Content-Type", FORM]],
        body,
      });
      expect(res.status, body).toBeLessThan(500);
    }
    expect(stackTracesSince(server, logFrom)).toEqual([]);
  });
  test("un urlencoded con un escape inválido (%ZZ) recibe 400 y no se queda colgado", async ({
    server,
  }) => {
    const before = snapshot(server);
    for (const [target, body] of [
      ["/contact", "name=%ZZ&email=a%40b.c&message=hola"],
      ["/auth", "intent=signin&email=a%40b.c&password=%G1"],
    ]) {
      const res = await send(server, {
        method: "POST",
        path: target,
        headers: [["Content-Type", FORM]],
        body,
        timeoutMs: 5_000,
      });
      expect(res.error, `${target}: ${body}`).toBeNull();
      expect(res.status, `${target}: ${body}`).toBe(400);
    }
    await expectNothingStored(server, before);
  });
});

test.describe("5. Subidas", () => {
  const newQuote = (filename: string, content: Buffer, disposition?: string) =>
    multipart([
      { name: "title", value: "Válvulas de prueba" },
      { name: "description", value: "Descripción" },
      { name: "file", filename, content, type: "application/pdf", disposition },
    ]);

  test("un PDF real llamado a;b.pdf se acepta y se guarda con ese nombre", async ({ server }) => {
    const { user, cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const form = newQuote("a;b.pdf", PDF);
    const res = await postUpload(server, cookie, form.body, form.contentType);
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/buyer\/quotes\/\d+$/);
    const row = server.sql
      .prepare("SELECT file_name, file_key, file_size FROM quote_requests WHERE buyer_id = ?")
      .get(user.id) as { file_name: string; file_key: string; file_size: number };
    expect(row.file_name).toBe("a;b.pdf");
    expect(row.file_size).toBe(PDF.length);
    const after = snapshot(server);
    expect(after.files.length).toBe(before.files.length + 1);
    expect(after.files).toContain(path.normalize(row.file_key));
    expect(fs.readFileSync(path.join(server.uploadsDir, row.file_key))).toEqual(PDF);
    expect(after.rows.quote_requests).toBe(before.rows.quote_requests + 1);
  });

  test("nombres con ruta se rechazan con 400 y el mensaje en español", async ({ server }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const names: [string, string | undefined][] = [
      ["../../x.pdf", undefined],
      ["..\\x.pdf", undefined],
      // A backslash escaped as the quoted-string rules allow: the server sees ..\x.pdf.
      ["..\\\\x.pdf", undefined],
      ["/etc/x.pdf", undefined],
      ["C:\\\\fakepath\\\\x.pdf", undefined],
      ["ext-valor", `form-data; name="file"; filename*=UTF-8''..%2F..%2Fx.pdf`],
      ["ext-valor-barra", `form-data; name="file"; filename*=UTF-8''%2Fetc%2Fx.pdf`],
    ];
    for (const [name, disposition] of names) {
      const form = newQuote(name, PDF, disposition);
      const res = await postUpload(server, cookie, form.body, form.contentType);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toContain("El nombre del archivo no es válido.");
    }
    await expectNothingStored(server, before);
  });

  test("contenido que no es lo que dice el nombre: 400 y nada guardado", async ({ server }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const cases: [string, string, Buffer, string][] = [
      ["ejecutable de Windows (MZ) como x.pdf", "x.pdf", EXE, "Tipo de archivo no permitido"],
      [
        "HTML como x.pdf",
        "x.pdf",
        Buffer.from("<!DOCTYPE html><script>alert(1)</script>"),
        "Tipo de archivo no permitido",
      ],
      ["PDF como x.png", "x.png", PDF, "Tipo de archivo no permitido"],
      ["ejecutable como x.exe", "x.exe", EXE, "Tipo de archivo no permitido"],
      ["archivo vacío", "vacio.pdf", Buffer.alloc(0), "El archivo está vacío."],
    ];
    for (const [what, name, content, message] of cases) {
      const form = newQuote(name, content);
      const res = await postUpload(server, cookie, form.body, form.contentType);
      expect(res.status, what).toBe(400);
      expect(res.body, what).toContain(message);
    }
    await expectNothingStored(server, before);
  });

  test("un archivo de 10,5 MB (bajo el tope del cuerpo) se rechaza con 400 y no queda nada", async ({
    server,
  }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const big = Buffer.concat([PDF, Buffer.alloc(10.5 * MB - PDF.length, 0x20)]);
    const form = newQuote("grande.pdf", big);
    const res = await postUpload(server, cookie, form.body, form.contentType);
    expect(res.status).toBe(400);
    expect(res.body).toContain("El archivo debe pesar menos de 10 MB");
    await expectNothingStored(server, before);
  });

  test("dos archivos en un formulario: solo se guarda el primero", async ({ server }) => {
    const { user, cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const form = multipart([
      { name: "title", value: "Dos archivos" },
      { name: "file", filename: "uno.pdf", content: PDF, type: "application/pdf" },
      { name: "file", filename: "dos.pdf", content: EXE, type: "application/pdf" },
    ]);
    const res = await postUpload(server, cookie, form.body, form.contentType);
    expect(res.status).toBe(302);
    const rows = server.sql
      .prepare("SELECT file_name FROM quote_requests WHERE buyer_id = ?")
      .all(user.id) as { file_name: string }[];
    expect(rows).toEqual([{ file_name: "uno.pdf" }]);
    expect(snapshot(server).files.length).toBe(before.files.length + 1);
  });

  test("una subida cortada a mitad no deja archivo ni fila", async ({ server }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const logFrom = server.log().length;
    const res = await send(server, {
      method: "POST",
      path: "/buyer/quotes/new",
      headers: [
        ...sameOrigin(server, "multipart/form-data; boundary=corte"),
        ["Cookie", cookie],
        ["Content-Length", String(9 * MB)],
      ],
      stream: {
        total: 9 * MB,
        chunked: false,
        prefix: Buffer.from(
          `--corte\r\nContent-Disposition: form-data; name="title"\r\n\r\nCortada\r\n--corte\r\nContent-Disposition: form-data; name="file"; filename="cortada.pdf"\r\n\r\n%PDF-1.4\n`,
        ),
        abortAfter: 4 * MB,
      },
    });
    expect(res.status, "sin respuesta: el cliente colgó").toBe(0);
    await expectNothingStored(server, before);
    expect(stackTracesSince(server, logFrom)).toEqual([]);
  });
});

test.describe("6. Redirección abierta tras iniciar sesión", () => {
  test("redirectTo hacia otro sitio se ignora; uno local se respeta", async ({ server }) => {
    const user = createUser(server);
    const hostile = [
      "/.//evil.com",
      "/..//evil.com",
      "/a/..//evil.com",
      "/%2e//evil.com",
      "/%2E%2E//evil.com",
      "/buyer/../..//evil.com",
      "//evil.com",
      "///evil.com",
      "/\\evil.com",
      "\\\\evil.com",
      "https://evil.com",
      "http:evil.com",
      "/%5cevil.com",
      "/%2f%2fevil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "/buyer\r\nSet-Cookie: pwned=1",
      "javascript:alert(1)",
      " //evil.com",
      "/%09/evil.com",
    ];
    for (const redirectTo of hostile) {
      const res = await signIn(server, user.email, PASSWORD, { redirectTo });
      const what = `redirectTo ${JSON.stringify(redirectTo)} → ${res.headers.location}`;
      expect(res.status, what).toBe(302);
      const location = res.headers.location ?? "";
      expect(location.startsWith("/"), what).toBe(true);
      expect(location.startsWith("//"), what).toBe(false);
      expect(location.startsWith("/\\"), what).toBe(false);
      expect(new URL(location, server.url).origin, what).toBe(server.url);
      expect(res.setCookies.join("\n"), what).not.toContain("pwned");
    }
    const local = await signIn(server, user.email, PASSWORD, { redirectTo: "/buyer/quotes?x=1" });
    expect(local.status).toBe(302);
    expect(local.headers.location).toBe("/buyer/quotes?x=1");
  });
});

test.describe("7. Bloqueo de inicio de sesión", () => {
  const LOCKED = "Acceso bloqueado temporalmente";
  const WARNING = /Intentos fallidos de inicio de sesión en tu cuenta/;

  test("sin TRUST_PROXY, Fly-Client-IP, X-Forwarded-For y la cabecera interna falsificados se ignoran", async ({
    server,
  }) => {
    const user = createUser(server);
    for (let i = 1; i <= 5; i++) {
      const res = await signIn(server, user.email, "incorrecta", {
        headers: [
          ["Fly-Client-IP", `203.0.113.${i}`],
          ["X-Forwarded-For", `198.51.100.${i}`],
          ["X-CotizaHub-Client-Address", `192.0.2.${i}`],
        ],
      });
      expect(res.status, `intento ${i}`).toBe(401);
    }
    const addresses = server.sql
      .prepare("SELECT DISTINCT client_address AS a FROM login_failures WHERE email = ?")
      .all(user.email) as { a: string }[];
    expect(addresses).toHaveLength(1);
    expect(addresses[0]!.a).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    const sixth = await signIn(server, user.email, PASSWORD, {
      headers: [
        ["Fly-Client-IP", "203.0.113.99"],
        ["X-CotizaHub-Client-Address", "192.0.2.99"],
      ],
    });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toContain(LOCKED);
    expect(sixth.setCookies.join("\n")).not.toContain("__session=");
  });

  test.describe("con TRUST_PROXY=1", () => {
    let proxied: Server;
    test.beforeAll(async () => {
      proxied = await startServer({ TRUST_PROXY: "1" });
    });
    test.afterAll(async () => {
      await proxied?.stop();
    });

    const from = (ip: string): [string, string][] => [["Fly-Client-IP", ip]];

    test("cinco fallos bloquean solo esa dirección, el dueño recibe un aviso y restablecer la contraseña levanta el bloqueo", async () => {
      const user = createUser(proxied);
      const attacker = "203.0.113.5";
      for (let i = 1; i <= 5; i++) {
        const res = await signIn(proxied, user.email, `incorrecta-${i}`, {
          headers: from(attacker),
        });
        expect(res.status, `intento ${i}`).toBe(401);
      }
      const locked = await signIn(proxied, user.email, PASSWORD, { headers: from(attacker) });
      expect(locked.status).toBe(429);
      expect(locked.body).toContain(LOCKED);
      expect(locked.setCookies.join("\n")).not.toContain("__session=");

      const owner = await signIn(proxied, user.email, PASSWORD, { headers: from("198.51.100.7") });
      expect(owner.status, "otra dirección entra con la contraseña correcta").toBe(302);
      expect(owner.setCookies.join("\n")).toContain("__session=");

      // More failures in the same window, from the locked address and from a second one.
      await signIn(proxied, user.email, "otra", { headers: from(attacker) });
      for (let i = 1; i <= 5; i++)
        await signIn(proxied, user.email, "otra", { headers: from("198.51.100.9") });
      expect(
        (await signIn(proxied, user.email, PASSWORD, { headers: from("198.51.100.9") })).status,
      ).toBe(429);

      await waitForMail(proxied, user.email, WARNING);
      await new Promise((r) => setTimeout(r, 1_500));
      const warnings = readMails(proxied, user.email).filter((m) => WARNING.test(m.subject));
      expect(warnings, "un solo aviso por ventana").toHaveLength(1);
      expect(warnings[0]!.body).toContain(attacker);

      // The real reset flow: ask for the link, follow it, set a new password.
      const forgot = await send(proxied, {
        method: "POST",
        path: "/auth/forgot",
        headers: [["Content-Type", FORM], ...from(attacker)],
        body: urlencoded({ email: user.email }),
      });
      expect(forgot.status).toBe(200);
      const mail = await waitForMail(proxied, user.email, /Restablece tu contraseña/);
      const link = /https?:\/\/[^\s"<>]+\/auth\/reset\?token=[^\s"<>]+/.exec(mail.body)?.[0];
      expect(link, mail.body).toBeTruthy();
      const token = new URL(link!.replace(/&amp;/g, "&")).searchParams.get("token")!;
      const newPassword = "Nueva-clave-segura-456";
      const reset = await send(proxied, {
        method: "POST",
        path: "/auth/reset",
        headers: [["Content-Type", FORM], ...from(attacker)],
        body: urlencoded({ token, password: newPassword, confirm_password: newPassword }),
      });
      expect(reset.status).toBe(302);
      expect(count(proxied, "login_failures", "email = ?", user.email)).toBe(0);
      const after = await signIn(proxied, user.email, newPassword, { headers: from(attacker) });
      expect(after.status, "tras restablecer, la dirección bloqueada entra").toBe(302);
      expect(after.setCookies.join("\n")).toContain("__session=");
    });

    test("sin Fly-Client-IP, la primera dirección de X-Forwarded-For es el cliente", async () => {
      const user = createUser(proxied);
      for (let i = 1; i <= 5; i++) {
        const res = await signIn(proxied, user.email, "incorrecta", {
          headers: [["X-Forwarded-For", `203.0.113.77, 10.0.0.${i}`]],
        });
        expect(res.status).toBe(401);
      }
      const addresses = proxied.sql
        .prepare("SELECT DISTINCT client_address AS a FROM login_failures WHERE email = ?")
        .all(user.email) as { a: string }[];
      expect(addresses).toEqual([{ a: "203.0.113.77" }]);
      const locked = await signIn(proxied, user.email, PASSWORD, {
        headers: [["X-Forwarded-For", "203.0.113.77, 10.9.9.9"]],
      });
      expect(locked.status).toBe(429);
      expect(locked.body).toContain(LOCKED);
      const other = await signIn(proxied, user.email, PASSWORD, {
        headers: [["X-Forwarded-For", "198.51.100.20, 203.0.113.77"]],
      });
      expect(other.status).toBe(302);
    });

    test.afterEach(async () => {
      await expectAlive(proxied);
    });
  });

  test("una contraseña de más de 72 bytes no entra aunque sus primeros 72 coincidan", async ({
    server,
  }) => {
    const exact = "p".repeat(72);
    const user = createUser(server, { password: exact });
    const longer = await signIn(server, user.email, `${exact}-lo-que-sea`);
    expect(longer.status).toBe(401);
    expect(longer.setCookies.join("\n")).not.toContain("__session=");
    const right = await signIn(server, user.email, exact);
    expect(right.status).toBe(302);
  });

  test("el id de sesión cambia al iniciar sesión (sin fijación de sesión)", async ({ server }) => {
    const attacker = createUser(server);
    const victim = createUser(server);
    const planted = await createSession(server, attacker);
    const res = await signIn(server, victim.email, PASSWORD, {
      headers: [["Cookie", planted.cookie]],
    });
    expect(res.status).toBe(302);
    const cookie = res.setCookies.find((c) => c.startsWith("__session="));
    expect(cookie).toBeTruthy();
    const id = await sessionIdOf(cookie!);
    expect(id).not.toBe(planted.id);
    const row = server.sql.prepare("SELECT user_id FROM sessions WHERE id = ?").get(id) as {
      user_id: number;
    };
    expect(row.user_id).toBe(victim.id);
    const old = server.sql.prepare("SELECT user_id FROM sessions WHERE id = ?").get(planted.id) as
      { user_id: number } | undefined;
    expect(old?.user_id ?? attacker.id, "la sesión plantada no pasa a la víctima").toBe(
      attacker.id,
    );
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});

test.describe("8. Tiempos", () => {
  test("un correo desconocido tarda lo mismo que uno conocido con contraseña incorrecta", async ({
    server,
  }) => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    // One known account per try, so the lockout never shortens a known-account try.
    const known = Array.from({ length: 8 }, () => createUser(server));
    // Warm-up: the first unknown e-mail computes the server's dummy hash once.
    await signIn(server, uniqueEmail("calentamiento"), "incorrecta");
    await signIn(server, known[7]!.email, "incorrecta");
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const a = await signIn(server, known[i]!.email, "incorrecta");
      expect(a.status).toBe(401);
      knownTimes.push(a.responseMs);
      const b = await signIn(server, uniqueEmail("nadie"), "incorrecta");
      expect(b.status).toBe(401);
      unknownTimes.push(b.responseMs);
    }
    const ratio = median(unknownTimes) / median(knownTimes);
    test.info().annotations.push({
      type: "tiempos",
      description: `conocido ${knownTimes.join(", ")} ms; desconocido ${unknownTimes.join(", ")} ms; razón ${ratio.toFixed(2)}`,
    });
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

test.describe("9. Cabeceras", () => {
  test("HSTS solo cuando APP_URL es https", async ({ server }) => {
    const https = await startServer({ APP_URL: "https://cotizahub.example" });
    try {
      for (const p of ["/", "/healthcheck", "/favicon.svg"]) {
        const res = await send(https, { path: p });
        expect(res.status, p).toBe(200);
        expect(res.headers["strict-transport-security"], p).toMatch(/max-age=\d{7,}/);
      }
      // With an https APP_URL the session cookie is Secure (sign-in with no Origin: curl-like).
      const user = createUser(https);
      const res = await signIn(https, user.email, PASSWORD);
      expect(res.status).toBe(302);
      expect(res.setCookies.find((c) => c.startsWith("__session="))).toMatch(/;\s*Secure/i);
      await expectAlive(https);
    } finally {
      await https.stop();
    }
    for (const p of ["/", "/healthcheck"]) {
      const res = await send(server, { path: p });
      expect(res.headers["strict-transport-security"], p).toBeUndefined();
    }
  });

  test("la CSP de / tiene base-uri 'none' y un nonce; los estáticos llevan nosniff", async ({
    server,
  }) => {
    const home = await send(server, { path: "/" });
    expect(home.status).toBe(200);
    const csp = home.headers["content-security-policy"] ?? "";
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src [^;]*'nonce-/);
    expect(csp).not.toContain("unsafe-inline");
    expect(home.headers["x-content-type-options"]).toBe("nosniff");

    const asset = fs.readdirSync(path.join(ROOT, "public/build")).find((f) => f.endsWith(".js"));
    for (const p of ["/favicon.svg", `/build/${asset}`]) {
      const res = await send(server, { path: p });
      expect(res.status, p).toBe(200);
      expect(res.headers["x-content-type-options"], p).toBe("nosniff");
    }
  });

  test("las páginas con sesión no se guardan en caché", async ({ server }) => {
    const { cookie } = await buyerCookie(server);
    const res = await send(server, { path: "/buyer", headers: [["Cookie", cookie]] });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toContain("no-store");
  });

  test("rutas con ../ codificado no sirven archivos fuera de public ni la base de datos", async ({
    server,
  }) => {
    const secrets = ["createRequestHandler", '"cotizaciones-b2b"', "SQLite format 3"];
    for (const p of [
      "/build/../server.js",
      "/build/..%2fserver.js",
      "/build/%2e%2e/%2e%2e/package.json",
      "/%2e%2e/package.json",
      "/..%2f..%2fpackage.json",
      "/favicon.svg/..%2f..%2fserver.js",
      "/files/requests/..%2f..%2fapp.sqlite",
      "/build/%2e%2e%5c%2e%2e%5cpackage.json",
    ]) {
      const res = await send(server, { path: p });
      expect(res.status, p).toBeLessThan(500);
      for (const secret of secrets) expect(res.body, p).not.toContain(secret);
    }
  });

  test("PUT, PATCH, DELETE y OPTIONS reciben la página 405 en español y no cambian nada", async ({
    server,
  }) => {
    const { cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const logFrom = server.log().length;
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      for (const target of ["/", "/notifications.data", "/files/requests/1", "/no-existe"]) {
        const res = await send(server, {
          method,
          path: target,
          headers: [
            ["Origin", server.url],
            ["Cookie", cookie],
            ["Content-Type", FORM],
          ],
          body: urlencoded({ intent: "read-all" }),
        });
        expectRefusalPage(res, 405, `${method} ${target}`);
        expect(res.headers["allow"], `${method} ${target}`).toBe("GET, HEAD, POST");
        expect(res.body, `${method} ${target}`).not.toMatch(/You made|Error:|routes\//);
      }
    }
    // A form posted to a page that takes none, or to no page at all: Spanish, without route names.
    for (const [target, status, text] of [
      ["/terms", 405, "Esta página no recibe formularios."],
      ["/no-existe", 404, "La página que buscas no existe o fue movida."],
    ] as const) {
      const res = await send(server, {
        method: "POST",
        path: target,
        headers: [
          ["Origin", server.url],
          ["Cookie", cookie],
          ["Content-Type", FORM],
        ],
        body: urlencoded({ intent: "x" }),
      });
      expect(res.status, target).toBe(status);
      // What the page shows (the hydration data below it keeps Remix's own error, unseen).
      const shown = res.body.slice(res.body.indexOf("<main"), res.body.indexOf("</main>"));
      expect(shown, target).toContain(text);
      expect(shown, target).not.toMatch(/You made|routes\//);
    }
    await expectNothingStored(server, before);
    expect(stackTracesSince(server, logFrom)).toEqual([]);
  });

  test("TRACE no devuelve la petición (ni sus cookies)", async ({ server }) => {
    const logFrom = server.log().length;
    const res = await send(server, {
      method: "TRACE",
      path: "/",
      headers: [["Cookie", "secreto=no-debe-volver"]],
    });
    expect(res.status).not.toBe(200);
    expect(res.status).toBeLessThan(500);
    expect(res.body).not.toContain("no-debe-volver");
    expect(stackTracesSince(server, logFrom)).toEqual([]);
  });
});

test.describe("Doble envío", () => {
  // One token per form, as each rendered form gets its own (the server is shared by the file).
  const REQUEST_TOKEN = "token-de-solicitud-0123456789";
  const CONTACT_TOKEN = "token-de-contacto-0123456789";

  test("dos envíos a la vez de una nueva solicitud con el mismo form_token guardan una", async ({
    server,
  }) => {
    const { user, cookie } = await buyerCookie(server);
    const before = snapshot(server);
    const form = multipart([
      { name: "form_token", value: REQUEST_TOKEN },
      { name: "title", value: "Doble clic" },
      { name: "description", value: "Descripción" },
      { name: "file", filename: "r.pdf", content: PDF, type: "application/pdf" },
    ]);
    const answers = await Promise.all([
      postUpload(server, cookie, form.body, form.contentType),
      postUpload(server, cookie, form.body, form.contentType),
    ]);
    const rows = server.sql
      .prepare("SELECT id FROM quote_requests WHERE buyer_id = ?")
      .all(user.id) as { id: number }[];
    expect(rows).toHaveLength(1);
    // Both land on the one request; one file is kept.
    for (const res of answers) {
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`/buyer/quotes/${rows[0]!.id}`);
    }
    expect(snapshot(server).files.length).toBe(before.files.length + 1);
    // A third, later resend too.
    const again = await postUpload(server, cookie, form.body, form.contentType);
    expect(again.headers.location).toBe(`/buyer/quotes/${rows[0]!.id}`);
    expect(count(server, "quote_requests", "buyer_id = ?", user.id)).toBe(1);
    // And the buyer is told that nothing new was stored (Back, an edit, «Enviar» again).
    const landing = await send(server, {
      path: again.headers.location!,
      headers: [["Cookie", [cookie, ...again.setCookies.map((c) => c.split(";")[0])].join("; ")]],
    });
    expect(landing.body).toContain("Esta solicitud ya se había enviado");
  });

  test("dos envíos a la vez del formulario de contacto con el mismo form_token guardan uno", async ({
    server,
  }) => {
    const before = count(server, "contact_submissions");
    const body = urlencoded({ ...validContact("doble envío"), form_token: CONTACT_TOKEN });
    const post = () =>
      send(server, {
        method: "POST",
        path: "/contact",
        headers: sameOrigin(server, FORM),
        body,
      });
    const answers = await Promise.all([post(), post()]);
    for (const res of answers) expect(res.headers.location).toBe("/contact?enviado=1");
    expect(count(server, "contact_submissions")).toBe(before + 1);
  });
});

test.describe("10. Cierre de sesión", () => {
  test("GET /auth/logout no cierra la sesión; POST sí", async ({ server }) => {
    const user = createUser(server);
    const session = await createSession(server, user);
    const get = await send(server, { path: "/auth/logout", headers: [["Cookie", session.cookie]] });
    expect(get.status).toBe(302);
    expect(get.setCookies.join("\n")).not.toContain("__session=");
    expect(count(server, "sessions", "id = ?", session.id)).toBe(1);
    const page = await send(server, { path: "/buyer", headers: [["Cookie", session.cookie]] });
    expect(page.status, "la sesión sigue valiendo").toBe(200);

    const post = await send(server, {
      method: "POST",
      path: "/auth/logout",
      headers: [...sameOrigin(server, FORM), ["Cookie", session.cookie]],
      body: "",
    });
    expect(post.status).toBe(302);
    expect(count(server, "sessions", "id = ?", session.id)).toBe(0);
    const after = await send(server, { path: "/buyer", headers: [["Cookie", session.cookie]] });
    expect(after.status).toBe(302);
    expect(after.headers.location).toMatch(/^\/auth\?redirectTo=/);
  });
});

test.describe("11. Al final", () => {
  test("el servidor sigue respondiendo /healthcheck y /", async ({ server }) => {
    const health = await send(server, { path: "/healthcheck" });
    expect(health.status).toBe(200);
    expect(health.body).toBe("OK");
    const home = await send(server, { path: "/" });
    expect(home.status).toBe(200);
    expect(home.body).toContain("CotizaHub");
  });
});
