/**
 * One page's throughput with one server process beside one process per core (ADR 0017): both
 * built servers (`node server.js`, WEB_CONCURRENCY=1 and =BENCH_WORKERS) run on DATABASE_PATH at
 * once, idle but for the round measuring them; rounds alternate between them (the first of each
 * pair alternating too) so the machine's other work falls on both alike. Requests carry a
 * browser's headers, so pages are compressed as a browser gets them.
 * Usage: npm run build && DATABASE_PATH=/tmp/demo.sqlite npm run db:seed &&
 *        DATABASE_PATH=/tmp/demo.sqlite npx tsx bench/workers.ts
 * Env: BENCH_PATH (/admin/quotes, as the admin), BENCH_ROUNDS (4), BENCH_SECONDS (5),
 * BENCH_CONNECTIONS (8), BENCH_WORKERS (one per core).
 */
import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { problemsOf, serverCpuMs, startBenchServer } from "./server";

const PATH = process.env.BENCH_PATH ?? "/admin/quotes";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const WORKERS = Number(process.env.BENCH_WORKERS ?? os.availableParallelism());

const BROWSER = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "es-ES,es;q=0.9",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126",
};

const servers = [
  { workers: 1, server: await startBenchServer({ workers: 1 }), runs: [] as Run[] },
  { workers: WORKERS, server: await startBenchServer({ workers: WORKERS }), runs: [] as Run[] },
];

interface Run {
  rps: number;
  p50: number;
  p99: number;
  cpuMs: number;
  problems: string;
}

async function measure(
  { base, pid, cookies }: (typeof servers)[number]["server"],
  seconds: number,
) {
  await new Promise((r) => setTimeout(r, 500));
  const cpuBefore = serverCpuMs(pid);
  const result = await autocannon({
    url: base + PATH,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { ...BROWSER, cookie: cookies.admin },
  });
  const cpu = serverCpuMs(pid) - cpuBefore;
  const problems = problemsOf(result);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: cpu / (result.requests.total || 1),
    problems,
  };
}

const check = await fetch(servers[0]!.server.base + PATH, {
  headers: { ...BROWSER, cookie: servers[0]!.server.cookies.admin },
});
if (check.status !== 200 || check.headers.get("content-encoding") === null)
  throw new Error(
    `${PATH}: HTTP ${check.status}, Content-Encoding ${check.headers.get("content-encoding")}`,
  );

for (const entry of servers) await measure(entry.server, 2); // warm-up: compiles, caches
const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(7);
console.log(
  `${PATH}, ${CONNECTIONS} conexiones, ${SECONDS} s por medición, base ${env.databasePath}`,
);
console.log(`ronda procesos   req/s  p50 ms  p99 ms  CPU ms/req`);
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? servers : [...servers].reverse();
  for (const entry of order) {
    const run = await measure(entry.server, SECONDS);
    entry.runs.push(run);
    console.log(
      `${String(round).padStart(5)} ${String(entry.workers).padStart(8)} ${fmt(run.rps)} ${fmt(run.p50)} ${fmt(run.p99)} ${fmt(run.cpuMs, 1)}${run.problems ? `  ← ${run.problems}` : ""}`,
    );
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
for (const entry of servers) {
  console.log(
    `mediana con ${entry.workers} proceso(s): ${median(entry.runs.map((r) => r.rps)).toFixed(0)} req/s, p99 ${median(entry.runs.map((r) => r.p99))} ms, ${median(entry.runs.map((r) => r.cpuMs)).toFixed(1)} ms CPU por petición`,
  );
}
for (const entry of servers) await entry.server.kill();
await db.destroy();
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`carga del equipo al terminar: ${load}`);
