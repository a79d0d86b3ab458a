/**
 * Throughput, latency and server CPU of every main page of every role, each beside the baseline
 * pages measured in the same round, on the built server (`node server.js`) on 127.0.0.1.
 * Usage: npm run build && DATABASE_PATH=/tmp/large.sqlite npm run seed:large &&
 *        DATABASE_PATH=/tmp/large.sqlite npm run bench
 * Env: BENCH_SECONDS (per measurement, 3), BENCH_CONNECTIONS (8), BENCH_ONLY (a substring of the
 * pages to run), WEB_CONCURRENCY (server processes, 1; with more, CPU is summed over them and the
 * event-loop delay is the worst process's).
 *
 * For each page, one round: /terms, /healthcheck, then the page, each for BENCH_SECONDS after a
 * warm-up, with a short pause between measurements so one's leftovers do not land on the next.
 * Reported: requests/s, p99, the server's CPU ms per request (utime + stime from /proc/PID/stat),
 * throughput ÷ /terms and p99 ÷ /terms p99 of the same round, the event-loop delay p99 during the
 * page (the server samples it with BENCH_EVENT_LOOP=1), and every error, timeout and non-2xx.
 */
import fs from "node:fs";
import autocannon from "autocannon";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { encodeCursor } from "../app/utils/keyset";
import { problemsOf, serverCpuMs, startBenchServer, type BenchRole } from "./server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ONLY = process.env.BENCH_ONLY ?? "";
const DRAIN_MS = 500;

const server = await startBenchServer({ eventLoop: true });
const { base, cookies, users, pid } = server;

// Pages that need ids: a deep admin page (the oldest rows), and one request of each role's own.
const oldest = await db
  .selectFrom("quote_requests")
  .select(["id", "created_at"])
  .orderBy("created_at")
  .orderBy("id")
  .limit(1)
  .offset(20)
  .executeTakeFirstOrThrow();
const deepCursor = encodeCursor({ page: 4999, key: oldest.created_at, id: oldest.id });
const adminRequest = await db
  .selectFrom("quote_requests")
  .select("id")
  .where("status", "=", "approved")
  .orderBy("id", "desc")
  .executeTakeFirstOrThrow();
const buyerRequest = await db
  .selectFrom("quote_requests")
  .select("id")
  .where("buyer_id", "=", users.buyer.id)
  .orderBy("id", "desc")
  .executeTakeFirstOrThrow();
const partnerRequest = await db
  .selectFrom("partner_assignments")
  .select("quote_request_id as id")
  .where("partner_id", "=", users.partner.id)
  .orderBy("id", "desc")
  .executeTakeFirstOrThrow();

const pages: [string, BenchRole | null][] = [
  ["/", null],
  ["/admin", "admin"],
  ["/admin/quotes", "admin"],
  ["/admin/quotes?page=5", "admin"],
  [`/admin/quotes?after=${deepCursor}`, "admin"],
  ["/admin/quotes?q=lote%2012", "admin"],
  ["/admin/quotes?q=v%C3%A1lvulas&status=paid", "admin"],
  [`/admin/quotes/${adminRequest.id}`, "admin"],
  ["/admin/payments", "admin"],
  // A word in a fifth of the requests: read down the review queue, not sorted (isBroadSearch).
  ["/admin/payments?q=petrolera", "admin"],
  ["/admin/users", "admin"],
  ["/admin/users?q=garc%C3%ADa%2099", "admin"],
  ["/admin/partners", "admin"],
  ["/admin/products", "admin"],
  ["/admin/contacts", "admin"],
  ["/admin/analytics", "admin"],
  ["/buyer", "buyer"],
  ["/buyer/quotes", "buyer"],
  ["/buyer/quotes?q=lote", "buyer"],
  [`/buyer/quotes/${buyerRequest.id}`, "buyer"],
  ["/buyer/payments", "buyer"],
  ["/buyer/rewards", "buyer"],
  ["/partner", "partner"],
  ["/partner/assignments", "partner"],
  ["/partner/assignments?q=acero&filter=quoted", "partner"],
  [`/partner/assignments/${partnerRequest.id}`, "partner"],
  ["/partner/quotes", "partner"],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventLoop(): Promise<{ p99: number; max: number }> {
  return (await fetch(`${base}/__bench/event-loop`)).json() as Promise<{
    p99: number;
    max: number;
  }>;
}

async function measure(
  path: string,
  role: BenchRole | null,
  seconds = DURATION,
  connections = CONNECTIONS,
) {
  await sleep(DRAIN_MS);
  await eventLoop();
  const cpuBefore = serverCpuMs(pid);
  const result = await autocannon({
    url: base + path,
    connections,
    duration: seconds,
    timeout: 5,
    headers: role ? { cookie: cookies[role] } : {},
  });
  const cpuMs = serverCpuMs(pid) - cpuBefore;
  const loop = await eventLoop();
  const done = result.requests.total || 1;
  const problems = problemsOf(result);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpu: cpuMs / done,
    loopP99: loop.p99,
    problems,
  };
}

// Warm-up: every page a few times (compiles, caches, SQLite pages).
for (const [path, role] of [["/terms", null] as const, ["/healthcheck", null] as const, ...pages]) {
  for (let i = 0; i < 5; i++) {
    const r = await fetch(base + path, { headers: role ? { cookie: cookies[role] } : {} });
    if (r.status !== 200) console.log(`aviso: ${path} respondió ${r.status} en el calentamiento`);
    await r.arrayBuffer();
  }
}

const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(7);
console.log(
  `${"página".padEnd(44)} ${"req/s".padStart(7)} ${"CPU ms".padStart(7)} ${"÷terms".padStart(7)} ${"p99 ms".padStart(7)} ${"p99÷t".padStart(7)} ${"loop99".padStart(7)}  /terms req/s · CPU · p99 | /healthcheck req/s`,
);
let failures = 0;
for (const [path, role] of pages.filter(([p]) => p.includes(ONLY))) {
  const terms = await measure("/terms", null);
  const health = await measure("/healthcheck", null);
  const page = await measure(path, role);
  const ratio = page.rps / terms.rps;
  const p99Ratio = page.p99 / Math.max(terms.p99, 1);
  if (ratio < 0.7 || p99Ratio > 3 || page.problems) failures++;
  console.log(
    `${path.slice(0, 44).padEnd(44)} ${fmt(page.rps, 0)} ${fmt(page.cpu)} ${fmt(ratio, 2)} ${fmt(page.p99, 0)} ${fmt(p99Ratio, 2)} ${fmt(page.loopP99)}  ${terms.rps.toFixed(0)} · ${terms.cpu.toFixed(1)} · ${terms.p99} | ${health.rps.toFixed(0)}${page.problems ? `  ← ${page.problems}` : ""}${terms.problems ? `  (/terms: ${terms.problems})` : ""}`,
  );
}
// One operator on analytics while the desk is otherwise idle: how long one view holds the loop
// (with 8 connections the delay above is mostly requests queued behind each other).
const alone = await measure("/admin/analytics", "admin", DURATION, 1);
console.log(
  `\n/admin/analytics con 1 conexión: ${alone.rps.toFixed(0)} req/s, ${alone.cpu.toFixed(1)} ms CPU, p99 ${alone.p99} ms, retraso del bucle p99 ${alone.loopP99} ms${alone.problems ? `  ← ${alone.problems}` : ""}`,
);
await server.stop();
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `\n${CONNECTIONS} conexiones, ${DURATION} s por medición, base ${env.databasePath}; comprador ${users.buyer.email} (${users.buyer.requests} solicitudes), socio ${users.partner.email} (${users.partner.assigned} asignaciones); carga ${load}. Filas fuera de objetivo (÷terms < 0,7, p99 > 3× o errores): ${failures}.`,
);
