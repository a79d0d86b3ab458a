import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import stylesheet from "~/tailwind.css";
import { CLIENT_ADDRESS_HEADER } from "./client-address.server";

import { MAX_MULTIPART_BYTES, MAX_URLENCODED_BYTES } from "~/domain/limits";
import { env } from "./env.server";
import { setSecurityHeaders } from "./security-headers.server";

/**
 * The request edge: what every request meets before Remix routes it (server.js mounts these).
 * Cross-site writes and bodies declared too large are refused here, before a byte of body is read;
 * bodies that turn out too large while streaming are refused by the form reader (form.server.ts).
 */

/** Behind Fly's proxy (TRUST_PROXY=1) the client is named by Fly-Client-IP, else X-Forwarded-For. */
const trustProxy = /^(1|true|yes)$/i.test(process.env.TRUST_PROXY ?? "");

/** How long a refused upload's connection keeps being drained before it is cut (see lingerOnClose). */
const LINGER_MS = 2_000;

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function clientAddressOfNode(req: IncomingMessage): string {
  if (trustProxy) {
    const fly = firstHeader(req.headers["fly-client-ip"])?.trim();
    if (fly) return fly;
    const forwarded = firstHeader(req.headers["x-forwarded-for"])?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.socket.remoteAddress ?? "desconocida";
}

const appOrigin = env.APP_URL ? new URL(env.APP_URL).origin : null;
const appHost = env.APP_URL ? new URL(env.APP_URL).host : null;

/**
 * The origin a same-site browser sends for this request: APP_URL's when it is set (so a forged Host,
 * as in DNS rebinding, cannot make a foreign page "ours"), else the one the Host header names (the
 * proxy's view when TRUST_PROXY).
 */
function expectedOrigin(req: IncomingMessage): string | null {
  if (appOrigin) return appOrigin;
  const host =
    (trustProxy ? firstHeader(req.headers["x-forwarded-host"]) : undefined) ?? req.headers.host;
  if (!host) return null;
  const forwardedProto = trustProxy
    ? firstHeader(req.headers["x-forwarded-proto"])?.split(",")[0]?.trim()
    : undefined;
  const encrypted = (req.socket as Socket & { encrypted?: boolean }).encrypted;
  const proto = forwardedProto ?? (encrypted ? "https" : "http");
  return `${proto}://${host}`;
}

/**
 * A write comes from this site when the browser says so: Sec-Fetch-Site same-origin or none, and an
 * Origin (when sent) that is exactly ours. Clients that send neither (curl, old browsers) are not a
 * cross-site browser request and pass; SameSite cookies protect their sessions anyway.
 */
export function isCrossSiteWrite(req: IncomingMessage): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  const fetchSite = firstHeader(req.headers["sec-fetch-site"]);
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const origin = firstHeader(req.headers.origin);
  if (origin === undefined) return false;
  return origin !== expectedOrigin(req);
}

/**
 * Remix checks a write's Origin against the host itself (X-Forwarded-Host, else Host) and throws an
 * empty 500 when they differ. The edge has already decided whether the Origin is ours, so it hands
 * Remix a host that agrees with that decision: without TRUST_PROXY a client's own X-Forwarded-Host
 * is dropped, and a write whose Origin is APP_URL's (its Host rewritten by a proxy in front) names
 * APP_URL's host. Returns false when the two still differ, for the edge to refuse with a 4xx.
 */
function agreeOnHost(req: IncomingMessage): boolean {
  if (!trustProxy) delete req.headers["x-forwarded-host"];
  const origin = firstHeader(req.headers.origin);
  if (origin === undefined || req.method === "GET" || req.method === "HEAD") return true;
  if (appOrigin && origin === appOrigin) req.headers["x-forwarded-host"] = appHost!;
  const host =
    firstHeader(req.headers["x-forwarded-host"])?.split(",")[0]?.trim() || req.headers.host;
  try {
    return origin !== "null" && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The largest body a request may declare, by its content type. */
function bodyCap(req: IncomingMessage): number {
  const type = firstHeader(req.headers["content-type"]) ?? "";
  return /^multipart\//i.test(type) ? MAX_MULTIPART_BYTES : MAX_URLENCODED_BYTES;
}

/**
 * Methods the app answers: pages and files (GET, HEAD) and forms (POST). Anything else (PUT,
 * DELETE, OPTIONS, TRACE, WebDAV verbs) is refused at the edge with a Spanish page: Remix answered
 * PUT or OPTIONS with an English error naming the route, and ran actions for PUT and DELETE.
 */
const METHODS = new Set(["GET", "HEAD", "POST"]);

const PAGES = {
  403: {
    title: "Solicitud rechazada",
    text: "Esta acción solo puede enviarse desde las páginas de CotizaHub. Vuelve a la página y envía el formulario de nuevo.",
  },
  405: {
    title: "Método no permitido",
    text: "CotizaHub no atiende este tipo de petición: las páginas se abren y los formularios se envían desde el navegador.",
  },
  413: {
    title: "Envío demasiado grande",
    text: "El envío supera el tamaño máximo permitido (10 MB por archivo). Reduce el archivo y vuelve a intentarlo.",
  },
} as const;

/** A small Spanish page, in the app's style, for answers given before Remix renders anything. */
export function edgePage(status: keyof typeof PAGES): string {
  const { title, text } = PAGES[status];
  return `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · CotizaHub</title><link rel="stylesheet" href="${stylesheet}"></head><body class="flex min-h-screen flex-col"><main id="contenido" class="flex flex-1 items-center justify-center px-4 py-16"><div class="text-center"><p class="text-6xl font-extrabold text-brand-700">${status}</p><h1 class="mt-4 text-2xl font-bold">${title}</h1><p class="mt-2 text-slate-700">${text}</p><a href="/" class="btn-primary mt-6">Volver al inicio</a></div></main></body></html>`;
}

function refuse(res: ServerResponse, status: keyof typeof PAGES): void {
  const headers = new Headers();
  setSecurityHeaders(headers);
  for (const [name, value] of headers) res.setHeader(name, value);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  // The body is never read: the connection closes after the answer (see lingerOnClose).
  res.setHeader("Connection", "close");
  if (status === 405) res.setHeader("Allow", [...METHODS].join(", "));
  res.statusCode = status;
  res.end(edgePage(status));
}

/**
 * When an answer closes the connection before the request body was read to the end, Node would
 * destroy the socket at once, and a client still sending gets a reset instead of our answer. So the
 * socket half-closes, discards what keeps arriving (memory stays flat) and is cut after LINGER_MS.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    // Discard the unread body instead of queueing it for a reader that has stopped reading.
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.resume();
    socket.end();
    socket.on("data", () => {});
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * An answer written before the request body was read to the end (a 413 from the form reader, a
 * redirect to sign-in) closes the connection, so the rest of the body is never read.
 */
function closeIfAnsweredEarly(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

const hsts = (env.APP_URL ?? "").startsWith("https://");

/** Express-style middleware run before every route. */
export function guard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (hsts) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  // Only the edge names the client; a header sent by the client itself is dropped.
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOfNode(req);
  if (req.method !== "GET" && req.method !== "HEAD") {
    lingerOnClose(req);
    closeIfAnsweredEarly(req, res);
  }
  if (!METHODS.has(req.method ?? "")) return refuse(res, 405);
  if (isCrossSiteWrite(req) || !agreeOnHost(req)) return refuse(res, 403);
  const declared = Number(firstHeader(req.headers["content-length"]) ?? 0);
  if (declared > bodyCap(req)) return refuse(res, 413);
  next();
}

/** Headers for files served from public/ (express.static's setHeaders). */
export function staticHeaders(res: ServerResponse): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
}

/**
 * One page request per turn of the event loop. A page's work runs without a pause from its loaders
 * to its HTML (SQLite answers in-process), so requests that arrived together ran back to back and
 * every timer (the scheduled-work poller among them) waited behind all of them. Each request now
 * starts in its own turn: an immediate queued while immediates run waits for the next iteration,
 * so timers and new connections are served between any two requests. First come, first served
 * (ADR 0013 addendum).
 */
const waiting: (() => void)[] = [];
let turnQueued = false;
function nextTurn(): void {
  const next = waiting.shift();
  turnQueued = waiting.length > 0;
  if (turnQueued) setImmediate(nextTurn);
  next?.();
}
export function takeTurn(_req: IncomingMessage, _res: ServerResponse, next: () => void): void {
  waiting.push(next);
  if (turnQueued) return;
  turnQueued = true;
  setImmediate(nextTurn);
}

export { trustProxy };
export { replicaGuard } from "./litefs.server";
