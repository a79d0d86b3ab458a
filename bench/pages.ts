/**
 * Throughput of the main pages against the built server on 127.0.0.1, beside an empty route.
 * Usage: npm run build && DATABASE_PATH=db/large.sqlite npm run seed:large && DATABASE_PATH=db/large.sqlite npm run bench
 * Starts its own server on a free port, signs in one user per role by creating sessions directly,
 * runs autocannon for DURATION seconds per page, prints a table and stops.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import { createCookie } from "@remix-run/node";
import autocannon from "autocannon";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { cookieSecret } from "../app/services/session.server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function cookieFor(role: "admin" | "buyer" | "partner"): Promise<string> {
  const user = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", role)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const id = crypto.randomBytes(32).toString("base64url");
  const stamp = new Date().toISOString();
  await db
    .insertInto("sessions")
    .values({
      id,
      user_id: user.id,
      created_at: stamp,
      last_seen_at: stamp,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      user_agent: "bench",
    })
    .execute();
  const cookie = createCookie("__session", { secrets: [await cookieSecret(db)] });
  return (await cookie.serialize(id)).split(";")[0];
}

const port = await freePort();
const cookies = {
  admin: await cookieFor("admin"),
  buyer: await cookieFor("buyer"),
  partner: await cookieFor("partner"),
};
const server = spawn(
  process.execPath,
  ["node_modules/@remix-run/serve/dist/cli.js", "build/index.js"],
  {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      DATABASE_PATH: env.databasePath,
    },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  if (
    await fetch(`${base}/healthcheck`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 200));
}

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
server.kill();
await db.destroy();
console.log(`\n${CONNECTIONS} conexiones, ${DURATION} s por página, base ${env.databasePath}`);
