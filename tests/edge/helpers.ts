/**
 * Helpers for the hostile-request suite: each worker runs the real built server (`node server.js`
 * after `npx remix build`) on a free port with its own temp folder, SQLite file, uploads and mail;
 * requests go over raw TCP so the suite can send what browsers and fetch never would (bogus
 * headers, chunked bodies streamed at a chosen pace, connections cut mid-body).
 * The server and mail readers are the journeys' own (tests/e2e/server.ts, tests/e2e/mail.ts); users
 * are hashed at the app's real bcrypt cost here, so sign-in timings compare fairly.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import { createCookie } from "@remix-run/node";
import bcrypt from "bcryptjs";
import { SESSION_SECRET, startServer as startBuiltServer, type Server } from "../e2e/server";

export { readMails, waitForMail, type Mail } from "../e2e/mail";
export { SESSION_SECRET, type Server };
export const PASSWORD = "Clave-segura-123";

/**
 * The real built server (tests/e2e/server.ts) on a free port with its own folder; `env` overrides
 * (TRUST_PROXY, APP_URL…). One process unless `env` sets WEB_CONCURRENCY: the suite measures the
 * server's memory and how long a request waits behind others, which are one process's figures.
 */
export function startServer(env: Record<string, string> = {}): Promise<Server> {
  return startBuiltServer({ extraEnv: { WEB_CONCURRENCY: "1", ...env }, name: "edge" });
}

/** `server`: one built server per worker, stopped when the worker ends. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no test-scoped fixtures
export const test = base.extend<{}, { server: Server }>({
  server: [
    async ({}, use) => {
      const server = await startServer();
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 60_000 },
  ],
});

export { expect };

// ---- Users and sessions, written straight into SQLite (as tests/e2e/fixtures.ts does).

export interface TestUser {
  id: number;
  email: string;
  role: "buyer" | "partner" | "admin";
}

let counter = 0;
/** A unique, obviously fake e-mail for this worker and run. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}${counter}@ejemplo.test`;
}

const hashes = new Map<string, string>();
/** Cost 10, the cost the app hashes with (crypto.server.ts), so timings compare fairly. */
function hashOf(password: string): string {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = bcrypt.hashSync(password, 10)));
  return hash;
}

export function createUser(
  server: Pick<Server, "sql">,
  input: { role?: TestUser["role"]; email?: string; password?: string } = {},
): TestUser {
  const role = input.role ?? "buyer";
  const email = input.email ?? uniqueEmail(role);
  const stamp = new Date().toISOString();
  const result = server.sql
    .prepare(
      `INSERT INTO users (email, password_hash, first_name, last_name, company_name, phone, role, email_verified_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      email,
      hashOf(input.password ?? PASSWORD),
      "Beatriz",
      "Prueba",
      "Compradora Prueba S.A.",
      "+34 600 000 000",
      role,
      stamp,
      stamp,
      stamp,
    );
  return { id: Number(result.lastInsertRowid), email, role };
}

const sessionCookie = createCookie("__session", {
  secrets: [SESSION_SECRET],
  httpOnly: true,
  sameSite: "lax",
  path: "/",
});

/** Creates a session row for `user`; returns its id and the Cookie header value that carries it. */
export async function createSession(
  server: Server,
  user: TestUser,
): Promise<{ id: string; cookie: string }> {
  const id = crypto.randomBytes(32).toString("base64url");
  const stamp = new Date().toISOString();
  server.sql
    .prepare(
      `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
    )
    .run(id, user.id, stamp, stamp, new Date(Date.now() + 86_400_000).toISOString());
  const serialized = await sessionCookie.serialize(id);
  return { id, cookie: serialized.split(";")[0]! };
}

/** The session id a Set-Cookie value carries (null when it clears the cookie). */
export async function sessionIdOf(setCookie: string): Promise<string | null> {
  const value: unknown = await sessionCookie.parse(setCookie.split(";")[0]!);
  return typeof value === "string" && value ? value : null;
}

// ---- What the server stored.

const COUNTED = [
  "users",
  "sessions",
  "login_failures",
  "contact_submissions",
  "quote_requests",
  "auth_tokens",
  "mail_outbox",
  "notifications",
] as const;

export interface Snapshot {
  rows: Record<string, number>;
  files: string[];
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(prefix, entry.name);
    return entry.isDirectory() ? listFiles(path.join(dir, entry.name), rel) : [rel];
  });
}

/** Row counts of the tables a request could write to, and every file under UPLOADS_DIR. */
export function snapshot(server: Server): Snapshot {
  const rows: Record<string, number> = {};
  for (const table of COUNTED) {
    rows[table] = (
      server.sql.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }
    ).n;
  }
  return { rows, files: listFiles(server.uploadsDir).sort() };
}

/** Nothing stored since `before`: same row counts, same files (staged temp files included). */
export async function expectNothingStored(server: Server, before: Snapshot): Promise<void> {
  // A refused upload's temp file is removed right after the answer; give it a moment.
  await expect.poll(() => snapshot(server).files, { timeout: 3_000 }).toEqual(before.files);
  expect(snapshot(server).rows).toEqual(before.rows);
}

export function count(server: Server, table: string, where = "1", ...params: unknown[]): number {
  return (
    server.sql.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(...params) as {
      n: number;
    }
  ).n;
}

/** The server answers /healthcheck and / with 200. */
export async function expectAlive(server: Server): Promise<void> {
  for (const p of ["/healthcheck", "/"]) {
    const res = await send(server, { path: p });
    expect(res.status, `GET ${p} después de la prueba`).toBe(200);
  }
}

/** A V8 stack frame ("    at fn (file.js:1:2)") in the server log written since `from`. */
export function stackTracesSince(server: Server, from: number): string[] {
  return server
    .log()
    .slice(from)
    .split("\n")
    .filter((line) => /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/.test(line));
}

/** Resident memory of the server process, in bytes. */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!kb) throw new Error(`Sin VmRSS para ${pid}`);
  return Number(kb[1]) * 1024;
}

/** `/proc/PID/stat` after "pid (comm) ", split: ppid at 1, utime at 11, stime at 12. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  } catch {
    return null; // no such process (any more)
  }
}

/** The live processes whose parent is `pid` (a cluster primary's workers). */
export function childProcessesOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => {
      const fields = statFields(child);
      return fields !== null && fields[0] !== "Z" && Number(fields[1]) === pid;
    });
}

/** CPU time the process has used so far, in ms (USER_HZ is 100 on Linux). */
export function cpuMsOf(pid: number): number {
  const fields = statFields(pid);
  if (!fields) throw new Error(`No existe el proceso ${pid}`);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function isRunning(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== null && fields[0] !== "Z";
}

// ---- Bodies.

export function urlencoded(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer; type?: string; disposition?: string };

/** A well-formed multipart/form-data body; a file part's `disposition` replaces its whole header. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----edge${crypto.randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("filename" in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: ${part.disposition ?? `form-data; name="${part.name}"; filename="${part.filename}"`}\r\nContent-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        part.content,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A small but real PDF (file-type recognises it by its "%PDF-" magic bytes). */
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

/** The start of a Windows executable: "MZ", then padding. */
export const EXE = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), Buffer.alloc(512, 0)]);

// ---- A raw HTTP/1.1 client over TCP.

export interface StreamBody {
  /** Body bytes to send in all (chunked). */
  total: number;
  /** Bytes sent first (e.g. a multipart preamble); counted in `total`. */
  prefix?: Buffer;
  chunkSize?: number;
  /** Pace of the body after the prefix; unlimited when absent (the server's reading sets the pace). */
  bytesPerSecond?: number;
  /** Send the chunked framing (default) or raw bytes (with a declared Content-Length). */
  chunked?: boolean;
  /** Drop the connection after this many body bytes (a killed upload). */
  abortAfter?: number;
}

export interface RawRequest {
  method?: string;
  /** Ignored with `raw`. */
  path?: string;
  /** Sent as given, in order; Host is added unless present. */
  headers?: [string, string][];
  /** A complete body; Content-Length is added unless a header already sets it or chunked is used. */
  body?: Buffer | string;
  stream?: StreamBody;
  /** Raw bytes written as the whole request (head and body), for malformed framing. */
  raw?: Buffer | string;
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
  /** Body bytes handed to the socket. */
  sent: number;
  /** Body bytes handed to the socket when the response head arrived. */
  sentAtResponse: number;
  /** The server closed the connection (reset / broken pipe) before the whole body was sent. */
  cut: boolean;
  /** ms from the start to the response head. */
  responseMs: number;
  /** ms from the response head until the connection was closed for good (streams only). */
  closedAfterResponseMs: number | null;
  error: string | null;
}

function parseHead(head: string) {
  const [statusLine, ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0);
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "set-cookie") setCookies.push(value);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status, headers, setCookies };
}

/** Decodes a complete chunked body, or returns null while it is incomplete. */
function dechunk(data: Buffer): Buffer | null {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol === -1) return null;
    const size = parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (Number.isNaN(size)) return Buffer.concat(out);
    if (size === 0) return Buffer.concat(out);
    if (data.length < eol + 2 + size + 2) return null;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function chunkFrame(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends one request over a fresh TCP connection and reads one response. With `stream`, the body
 * keeps being sent after the response arrives (as an attacker would) until it is all sent or the
 * server cuts the connection; the socket is half-open so the server's FIN alone does not stop us.
 */
export function send(server: Pick<Server, "port">, request: RawRequest): Promise<RawResponse> {
  const started = Date.now();
  const socket = net.connect({ port: server.port, host: "127.0.0.1", allowHalfOpen: true });
  const result: RawResponse = {
    status: 0,
    headers: {},
    setCookies: [],
    body: "",
    sent: 0,
    sentAtResponse: 0,
    cut: false,
    responseMs: 0,
    closedAfterResponseMs: null,
    error: null,
  };
  let received = Buffer.alloc(0);
  let headEnd = -1;
  let closed = false;
  // The server's FIN: our side stays open (allowHalfOpen), but a close-delimited body has ended.
  let ended = false;
  let responseAt = 0;
  let resolveResponse!: () => void;
  const responded = new Promise<void>((r) => (resolveResponse = r));
  let complete = false;
  const finishResponse = () => {
    if (complete) return;
    complete = true;
    resolveResponse();
  };
  const tryParse = () => {
    if (headEnd === -1) {
      headEnd = received.indexOf("\r\n\r\n");
      if (headEnd === -1) return;
      Object.assign(result, parseHead(received.subarray(0, headEnd).toString("latin1")));
      responseAt = Date.now();
      result.responseMs = responseAt - started;
      result.sentAtResponse = result.sent;
      // Interim answers (100 Continue) are skipped.
      if (result.status === 100) {
        received = received.subarray(headEnd + 4);
        headEnd = -1;
        return tryParse();
      }
    }
    const bodyBytes = received.subarray(headEnd + 4);
    const method = (request.method ?? "GET").toUpperCase();
    if (method === "HEAD" || result.status === 204 || result.status === 304) {
      finishResponse();
    } else if (result.headers["content-length"] !== undefined) {
      const length = Number(result.headers["content-length"]);
      if (bodyBytes.length >= length) {
        result.body = bodyBytes.subarray(0, length).toString("utf8");
        finishResponse();
      }
    } else if (/chunked/i.test(result.headers["transfer-encoding"] ?? "")) {
      const decoded = dechunk(bodyBytes);
      if (decoded) {
        result.body = decoded.toString("utf8");
        finishResponse();
      }
    } else if (closed || ended) {
      result.body = bodyBytes.toString("utf8");
      finishResponse();
    }
  };
  socket.on("data", (d: Buffer) => {
    received = Buffer.concat([received, d]);
    tryParse();
  });
  socket.on("end", () => {
    ended = true;
    tryParse();
    // Nothing more can come; without a response there is nothing to wait for.
    if (!complete && headEnd === -1) finishResponse();
  });
  socket.on("error", (e: NodeJS.ErrnoException) => {
    result.error ??= e.code ?? e.message;
  });
  const closedPromise = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closed = true;
      if (responseAt) result.closedAfterResponseMs = Date.now() - responseAt;
      tryParse();
      finishResponse();
      resolve();
    }),
  );
  const timer = setTimeout(() => {
    result.error ??= "timeout";
    socket.destroy();
  }, request.timeoutMs ?? 30_000);

  const write = (data: Buffer | string): Promise<boolean> =>
    new Promise((resolve) => {
      if (socket.destroyed || closed) return resolve(false);
      const ok = socket.write(data, (error) => {
        if (error) resolve(false);
        else if (ok) resolve(true);
      });
      if (!ok) {
        const onDrain = () => {
          socket.off("close", onClose);
          resolve(!socket.destroyed);
        };
        const onClose = () => {
          socket.off("drain", onDrain);
          resolve(false);
        };
        socket.once("drain", onDrain);
        socket.once("close", onClose);
      }
    });

  const run = async () => {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    if (request.raw !== undefined) {
      await write(request.raw);
      await responded;
      return;
    }
    const headers = [...(request.headers ?? [])];
    const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
    if (!has("host")) headers.unshift(["Host", `127.0.0.1:${server.port}`]);
    const body =
      typeof request.body === "string" ? Buffer.from(request.body, "utf8") : request.body;
    const chunked = request.stream ? request.stream.chunked !== false : false;
    if (chunked && !has("transfer-encoding")) headers.push(["Transfer-Encoding", "chunked"]);
    if (body && !has("content-length") && !has("transfer-encoding"))
      headers.push(["Content-Length", String(body.length)]);
    const head = `${request.method ?? "GET"} ${request.path ?? "/"} HTTP/1.1\r\n${headers
      .map(([n, v]) => `${n}: ${v}\r\n`)
      .join("")}\r\n`;
    if (!(await write(head))) return;
    if (body) {
      if (await write(body)) result.sent += body.length;
      await responded;
      return;
    }
    const stream = request.stream;
    if (!stream) {
      await responded;
      return;
    }
    const frame = (data: Buffer) => (chunked ? chunkFrame(data) : data);
    if (stream.prefix) {
      if (!(await write(frame(stream.prefix)))) return void (result.cut = true);
      result.sent += stream.prefix.length;
    }
    const chunkSize = stream.chunkSize ?? 64 * 1024;
    const filler = Buffer.alloc(chunkSize, "a");
    const paceStart = Date.now();
    const paced = result.sent;
    while (result.sent < stream.total) {
      if (stream.abortAfter !== undefined && result.sent >= stream.abortAfter) {
        socket.destroy();
        return;
      }
      const size = Math.min(chunkSize, stream.total - result.sent);
      if (!(await write(frame(size === chunkSize ? filler : filler.subarray(0, size))))) {
        result.cut = true;
        return;
      }
      result.sent += size;
      if (stream.bytesPerSecond) {
        const due = paceStart + ((result.sent - paced) / stream.bytesPerSecond) * 1000;
        if (due > Date.now()) await sleep(due - Date.now());
      }
    }
    if (chunked && !(await write("0\r\n\r\n"))) result.cut = true;
    await responded;
  };

  return run()
    .catch((e: NodeJS.ErrnoException) => {
      result.error ??= e.code ?? e.message;
    })
    .then(async () => {
      if (request.stream && !request.stream.abortAfter && result.status !== 0) {
        // Wait for the server to close (or the timeout) to learn when the connection ended.
        if (!complete || !closed) socket.end();
        await Promise.race([closedPromise, sleep(10_000)]);
      }
      await Promise.race([responded, closedPromise]);
      socket.destroy();
      await closedPromise;
      clearTimeout(timer);
      return result;
    });
}

/** Headers a browser form POST from the site itself would carry. */
export function sameOrigin(server: Server, contentType: string): [string, string][] {
  return [
    ["Origin", server.url],
    ["Sec-Fetch-Site", "same-origin"],
    ["Content-Type", contentType],
  ];
}

export const FORM = "application/x-www-form-urlencoded";

export function validContact(tag: string): Record<string, string> {
  return {
    name: "Ana Atacante",
    email: "ana@ejemplo.test",
    phone: "+34 600 000 000",
    company: "Pruebas S.L.",
    message: `Mensaje de prueba ${tag}`,
    website: "",
  };
}
