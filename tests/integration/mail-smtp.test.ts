/**
 * Mail through a real SMTP server (smtp-server on 127.0.0.1, no TLS), with the mailer pointed at it
 * through SMTP_URL: what arrives is parsed back; a recipient the server refuses for good is given up
 * on at once and shown to admins; an outage and a crashed worker delay a mail but never lose it or
 * send it twice.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContactSubmission } from "~/models/contact.server";
import { loader as adminDashboard } from "~/routes/admin._index";
import { db, openDatabase, type DB } from "~/services/db.server";
import { env } from "~/services/env.server";
import { enqueueMail, processOutbox } from "~/services/mailer.server";
import { startSession } from "~/services/session.server";
import { makeUser } from "./factories";

interface Received {
  to: string[];
  raw: string;
}

/** Everything the server accepted, and every recipient it was asked for (accepted or not). */
const received: Received[] = [];
const recipientsAsked: string[] = [];
/** Recipients the server answers with an SMTP error code (e.g. 550), as a real server would. */
const refusals = new Map<string, { code: number; text: string }>();
let server: SMTPServer;
let port = 0;

function startServer(listenPort = 0): Promise<void> {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1_000,
    onMailFrom(address, _session, callback) {
      const refusal = refusals.get(address.address);
      callback(
        refusal ? Object.assign(new Error(refusal.text), { responseCode: refusal.code }) : null,
      );
    },
    onRcptTo(address, _session, callback) {
      recipientsAsked.push(address.address);
      const refusal = refusals.get(address.address);
      callback(
        refusal ? Object.assign(new Error(refusal.text), { responseCode: refusal.code }) : null,
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(listenPort, "127.0.0.1", () => {
      port = (server.server.address() as AddressInfo).port;
      resolve();
    });
  });
}

function stopServer(): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  await startServer();
  env.SMTP_URL = `smtp://127.0.0.1:${port}`;
});

afterAll(async () => {
  await stopServer();
});

// ---- Reading a received message back: headers (RFC 2047 words), multipart, quoted-printable/base64.

interface ParsedMail {
  headers: Map<string, string>;
  text: string;
  html: string;
}

function decodeWords(value: string): string {
  const tokens = value.split(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)/).filter(Boolean);
  const bytes: Buffer[] = [];
  tokens.forEach((token, i) => {
    const word = /^=\?([^?]+)\?([QqBb])\?([^?]*)\?=$/.exec(token);
    if (word) {
      bytes.push(
        word[2].toUpperCase() === "B"
          ? Buffer.from(word[3], "base64")
          : decodeQuotedPrintable(word[3].replace(/_/g, " ")),
      );
      return;
    }
    // Whitespace between two encoded words is not part of the text.
    const betweenWords = /^\s+$/.test(token) && i > 0 && i < tokens.length - 1;
    if (!betweenWords) bytes.push(Buffer.from(token, "utf8"));
  });
  return Buffer.concat(bytes).toString("utf8");
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], "utf8"));
    }
  }
  return Buffer.from(bytes);
}

function parseEntity(raw: string, into: ParsedMail): Map<string, string> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    headers.set(
      line.slice(0, colon).trim().toLowerCase(),
      decodeWords(line.slice(colon + 1).trim()),
    );
  }
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (type.startsWith("multipart/") && boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    for (const part of parts) parseEntity(part.replace(/^\r?\n/, ""), into);
    return headers;
  }
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const content =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body).toString("utf8")
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  if (type.startsWith("text/html")) into.html = content;
  else if (type.startsWith("text/plain")) into.text = content;
  return headers;
}

function parseMail(raw: string): ParsedMail {
  const mail: ParsedMail = { headers: new Map(), text: "", html: "" };
  mail.headers = parseEntity(raw, mail);
  return mail;
}

const decodeEntities = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

// ---- Helpers on the outbox.

const rowsTo = (to: string) =>
  db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).orderBy("id").execute();

const receivedBy = (to: string) => received.filter((mail) => mail.to.includes(to));

async function adminRequest(role: "admin" | "buyer" = "admin"): Promise<Request> {
  const userId = await makeUser(role);
  const setCookie = await startSession(db, new Request("http://localhost:3999/auth"), userId);
  return new Request("http://localhost:3999/admin", {
    headers: { Cookie: setCookie.split(";")[0] },
  });
}

const dashboard = async (request: Request) => adminDashboard({ request, params: {}, context: {} });

describe("mail delivered over SMTP", () => {
  it("arrives once and intact: accents in subject and body, an HTML document with its title", async () => {
    const to = "maria.pena@ejemplo.test";
    const subject = "Cotización n.º 12 — Pérez & Hijos: ¿aprobada?";
    await enqueueMail(db, {
      to,
      subject,
      paragraphs: [
        "Hola María:",
        "Tu cotización «Cerámica 300 m²» ya está lista. ¡Ánimo, señor Núñez!",
      ],
    });

    expect(await processOutbox(db)).toBe(1);
    expect(await processOutbox(db)).toBe(0);

    const arrived = receivedBy(to);
    expect(arrived).toHaveLength(1);
    const mail = parseMail(arrived[0].raw);
    expect(mail.headers.get("subject")).toBe(subject);
    expect(mail.headers.get("from")).toContain("CotizaHub");
    expect(mail.headers.has("reply-to")).toBe(false);
    expect(mail.text).toContain(
      "Tu cotización «Cerámica 300 m²» ya está lista. ¡Ánimo, señor Núñez!",
    );
    expect(mail.text).toContain("no respondas a este correo");

    expect(mail.html).toMatch(/^<!doctype html>\s*<html lang="es">\s*<head>/);
    expect(mail.html).toContain('<meta charset="utf-8">');
    expect(mail.html).toContain(
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    );
    expect(decodeEntities(/<title>(.*?)<\/title>/.exec(mail.html)?.[1] ?? "")).toBe(subject);
    expect(decodeEntities(mail.html)).toContain(
      "<p>Tu cotización «Cerámica 300 m²» ya está lista. ¡Ánimo, señor Núñez!</p>",
    );
    expect(await rowsTo(to)).toMatchObject([{ status: "sent", attempts: 1 }]);
  });

  it("a contact message reaches the admin with the customer as Reply-To", async () => {
    const adminId = await makeUser("admin");
    const admin = await db
      .selectFrom("users")
      .select("email")
      .where("id", "=", adminId)
      .executeTakeFirstOrThrow();

    await createContactSubmission(db, {
      name: "José Núñez",
      email: "jose.nunez@cliente.test",
      phone: null,
      company: "Constructora Ñandú",
      message: "¿Podrían cotizar 300 m² de cerámica? Gracias.",
    });
    // The contact form kicks delivery itself; this pass races it, and the mail still goes out once.
    await processOutbox(db);
    await expect.poll(async () => (await rowsTo(admin.email))[0]?.status).toBe("sent");
    expect(await processOutbox(db)).toBe(0);

    const arrived = receivedBy(admin.email);
    expect(arrived).toHaveLength(1);
    const mail = parseMail(arrived[0].raw);
    expect(mail.headers.get("reply-to")).toBe("jose.nunez@cliente.test");
    expect(mail.headers.get("subject")).toBe("Nuevo mensaje de contacto");
    expect(mail.text).toContain(
      "José Núñez (Constructora Ñandú, jose.nunez@cliente.test) escribió: «¿Podrían cotizar 300 m² de cerámica? Gracias.»",
    );
    expect(mail.text).toContain("tu respuesta llega a jose.nunez@cliente.test");
    expect(mail.text).not.toContain("no respondas");
    expect(await rowsTo(admin.email)).toMatchObject([
      { status: "sent", reply_to: "jose.nunez@cliente.test" },
    ]);
  });
});

describe("mail the server refuses", () => {
  it("a recipient refused with 550 fails after one attempt and shows on the admin dashboard", async () => {
    const request = await adminRequest();
    expect((await dashboard(request)).failedMail).toEqual([]);

    const to = "nadie@ejemplo.test";
    refusals.set(to, { code: 550, text: "5.1.1 unknown recipient" });
    await enqueueMail(db, { to, subject: "Tu cotización está lista", paragraphs: ["Hola."] });

    expect(await processOutbox(db)).toBe(0);
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: "failed", attempts: 1, sent_at: null });
    expect(row.last_error).toContain("550 5.1.1 unknown recipient");
    expect(row.failed_at).not.toBeNull();

    // Even once its back-off would have passed, nobody tries it again.
    await db
      .updateTable("mail_outbox")
      .set({ next_attempt_at: "2000-01-01T00:00:00.000Z" })
      .where("id", "=", row.id)
      .execute();
    expect(await processOutbox(db)).toBe(0);
    expect(recipientsAsked.filter((address) => address === to)).toHaveLength(1);
    expect(receivedBy(to)).toHaveLength(0);

    const { failedMail } = await dashboard(request);
    expect(failedMail).toMatchObject([
      { to_address: to, subject: "Tu cotización está lista", failed_at: row.failed_at },
    ]);
    expect(failedMail[0].last_error).toContain("550 5.1.1 unknown recipient");

    // Only admins read it: anyone else is sent away before the list is read.
    await expect(dashboard(await adminRequest("buyer"))).rejects.toMatchObject({ status: 302 });
  });

  it("the admin list shows the 10 newest failures, newest first", async () => {
    // Failures of earlier today: older than the 550 of the test before, which failed just now.
    const stamp = (minute: number) => new Date(Date.now() - (60 - minute) * 60_000).toISOString();
    for (let minute = 1; minute <= 12; minute++) {
      await db
        .insertInto("mail_outbox")
        .values({
          to_address: `fallo${minute}@ejemplo.test`,
          subject: `Aviso ${minute}`,
          text_body: "x",
          html_body: "x",
          status: "failed",
          attempts: 8,
          last_error: "451 inténtalo más tarde",
          next_attempt_at: stamp(minute),
          failed_at: stamp(minute),
        })
        .execute();
    }
    const { failedMail } = await dashboard(await adminRequest());
    expect(failedMail.map((mail) => mail.to_address)).toEqual([
      // The 550 of the test before failed just now, after all of these.
      "nadie@ejemplo.test",
      ...[12, 11, 10, 9, 8, 7, 6, 5, 4].map((minute) => `fallo${minute}@ejemplo.test`),
    ]);
  });

  it("a temporary refusal (4xx), or a 5xx to our sender, keeps the mail queued with its back-off", async () => {
    const busy = "ocupado@ejemplo.test";
    const sender = env.MAIL_FROM.replace(/.*<|>.*/g, "");
    refusals.set(busy, { code: 451, text: "4.3.0 try again later" });
    refusals.set(sender, { code: 553, text: "5.7.1 remitente no permitido" });
    try {
      await enqueueMail(db, { to: busy, subject: "Aviso", paragraphs: ["Hola."] });

      const before = Date.now();
      expect(await processOutbox(db)).toBe(0);
      const [row] = await rowsTo(busy);
      expect(row).toMatchObject({ status: "pending", attempts: 1, failed_at: null });
      expect(row.last_error).toContain("553 5.7.1 remitente no permitido");
      expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(before);

      refusals.delete(sender);
      await db
        .updateTable("mail_outbox")
        .set({ next_attempt_at: "2000-01-01T00:00:00.000Z" })
        .where("id", "=", row.id)
        .execute();
      expect(await processOutbox(db)).toBe(0);
      const [again] = await rowsTo(busy);
      expect(again).toMatchObject({ status: "pending", attempts: 2, failed_at: null });
      expect(again.last_error).toContain("451 4.3.0 try again later");
    } finally {
      refusals.delete(sender);
      refusals.delete(busy);
    }
  });
});

describe("mail held up by an outage or a crash", () => {
  it("while the server is down the mail stays queued, and it goes out once when it is back", async () => {
    const to = "paciente@ejemplo.test";
    await stopServer();
    try {
      await enqueueMail(db, { to, subject: "Pago confirmado", paragraphs: ["Gracias."] });
      expect(await processOutbox(db)).toBe(0);
      const [row] = await rowsTo(to);
      expect(row).toMatchObject({ status: "pending", attempts: 1, sent_at: null, failed_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED|Connection/i);
    } finally {
      await startServer(port);
    }
    // Before the back-off has passed nothing is tried; once it has, the mail goes out.
    expect(await processOutbox(db)).toBe(0);
    await db
      .updateTable("mail_outbox")
      .set({ next_attempt_at: "2000-01-01T00:00:00.000Z" })
      .where("to_address", "=", to)
      .execute();
    expect(await processOutbox(db)).toBe(1);
    expect(await processOutbox(db)).toBe(0);
    expect(receivedBy(to)).toHaveLength(1);
    expect(parseMail(receivedBy(to)[0].raw).headers.get("subject")).toBe("Pago confirmado");
    expect(await rowsTo(to)).toMatchObject([{ status: "sent", attempts: 2, last_error: null }]);
  });

  it("a mail whose worker crashed mid-send goes out on the next pass, once, even with two workers", async () => {
    const crashed = "interrumpido@ejemplo.test";
    const inFlight = "en-curso@ejemplo.test";
    await enqueueMail(db, { to: crashed, subject: "Solicitud asignada", paragraphs: ["Hola."] });
    await enqueueMail(db, { to: inFlight, subject: "Solicitud asignada", paragraphs: ["Hola."] });
    // As a killed process leaves them: claimed, never marked sent or failed. One claim is 90 s old,
    // the other 20 s (its worker may still be sending it).
    const claim = async (to: string, agoMs: number) =>
      db
        .updateTable("mail_outbox")
        .set({
          status: "sending",
          claimed_at: new Date(Date.now() - agoMs).toISOString(),
          claim_token: `worker-${to}`,
        })
        .where("to_address", "=", to)
        .execute();
    await claim(crashed, 90_000);
    await claim(inFlight, 20_000);

    const workers: DB[] = [openDatabase(env.databasePath), openDatabase(env.databasePath)];
    try {
      const sent = await Promise.all(workers.map((worker) => processOutbox(worker)));
      expect(sent[0] + sent[1]).toBe(1);
    } finally {
      await Promise.all(workers.map((worker) => worker.destroy()));
    }
    expect(receivedBy(crashed)).toHaveLength(1);
    expect(await rowsTo(crashed)).toMatchObject([
      { status: "sent", attempts: 1, claim_token: null },
    ]);
    expect(receivedBy(inFlight)).toHaveLength(0);
    expect(await rowsTo(inFlight)).toMatchObject([
      { status: "sending", claim_token: `worker-${inFlight}` },
    ]);
  });
});
