/**
 * Throughput of the main pages against the built server on 127.0.0.1, beside an empty route.
 * Usage: npm run build && DATABASE_PATH=db/large.sqlite npm run seed:large && DATABASE_PATH=db/large.sqlite npm run bench
 * Starts its own server on a free port, signs in one user per role by creating sessions directly,
 * runs autocannon for DURATION seconds per page, prints a table and stops.
 */
import autocannon from "autocannon";
import { env } from "../app/services/env.server";
import { startBenchServer } from "./server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const { base, cookies, stop } = await startBenchServer();

const pages: [string, keyof typeof cookies | null][] = [
  ["/healthcheck", null],
  ["/", null],
  ["/admin", "admin"],
  ["/admin/quotes", "admin"],
  ["/admin/quotes?q=lote%2012&status=paid", "admin"],
  ["/admin/quotes?page=2000", "admin"],
  ["/admin/users", "admin"],
  ["/admin/users?q=prueba%2099", "admin"],
  ["/admin/partners", "admin"],
  ["/admin?tab=payments", "admin"],
  ["/admin/quotes/50000", "admin"],
  ["/admin/contacts", "admin"],
  ["/admin/analytics", "admin"],
  ["/buyer", "buyer"],
  ["/buyer/quotes", "buyer"],
  ["/buyer/payments", "buyer"],
  ["/buyer/rewards", "buyer"],
  ["/partner", "partner"],
  ["/partner/assignments", "partner"],
  ["/partner/assignments?q=lote&filter=quoted", "partner"],
  ["/partner/quotes", "partner"],
];

const rows: string[] = [];
for (const [path, role] of pages) {
  const result = await autocannon({
    url: base + path,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: role ? { cookie: cookies[role] } : {},
  });
  const ok = result.non2xx === 0 ? "" : ` (${result.non2xx} no-2xx)`;
  rows.push(
    `${path.padEnd(42)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(5)} ms   p99 ${String(result.latency.p99).padStart(5)} ms${ok}`,
  );
  console.log(rows.at(-1));
}
await stop();
console.log(`\n${CONNECTIONS} conexiones, ${DURATION} s por página, base ${env.databasePath}`);
