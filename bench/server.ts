/**
 * What the benchmarks share: the built server (`node server.js`, as `npm start` runs it) on a free
 * 127.0.0.1 port against DATABASE_PATH, and users signed in through the real sign-in form: the
 * admin, the buyer with the most requests and the partner with the most assignments.
 * With BENCH_EVENT_LOOP=1 the server samples its event-loop delay (see server.js); `nodeFlags`
 * go to node (bench/profile.ts passes --cpu-prof). One server process unless WEB_CONCURRENCY says
 * otherwise: the figures per request (CPU, event loop) are then one process's, comparable across
 * machines with any number of cores.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";

export type BenchRole = "admin" | "buyer" | "partner";

/** The password every seeded account has (scripts/seed-large.ts). */
const SEED_PASSWORD = "Demo1234!";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The accounts measured: the admin and the busiest buyer and partner, with their ids. */
export async function benchUsers() {
  const admin = await db
    .selectFrom("users")
    .select(["id", "email"])
    .where("role", "=", "admin")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const buyer = await db
    .selectFrom("buyer_request_counts as c")
    .innerJoin("users as u", "u.id", "c.buyer_id")
    .select(["u.id", "u.email", (eb) => eb.fn.sum<number>("c.requests").as("requests")])
    .groupBy("u.id")
    .orderBy("requests", "desc")
    .executeTakeFirstOrThrow();
  const partner = await db
    .selectFrom("partner_counters as c")
    .innerJoin("users as u", "u.id", "c.partner_id")
    .select(["u.id", "u.email", "c.assigned"])
    .orderBy("c.assigned", "desc")
    .executeTakeFirstOrThrow();
  return { admin, buyer, partner };
}

/** Signs in through POST /auth (the form a person uses) and returns the session cookie. */
async function signIn(base: string, email: string): Promise<string> {
  const body = new URLSearchParams({ intent: "signin", email, password: SEED_PASSWORD });
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: base, "sec-fetch-site": "same-origin" },
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("__session="));
  if (response.status !== 302 || !cookie) {
    throw new Error(`No se pudo iniciar sesión como ${email}: HTTP ${response.status}`);
  }
  return cookie;
}

/**
 * CPU time the server has used, in ms: its process and, with several workers, theirs (each a
 * child of it), from /proc (utime + stime; USER_HZ is 100 on Linux).
 */
/** What went wrong in an autocannon run, in words ("" when nothing did). */
export function problemsOf(result: { errors: number; timeouts: number; non2xx: number }): string {
  return [
    result.errors ? `${result.errors} errores` : "",
    result.timeouts ? `${result.timeouts} timeouts` : "",
    result.non2xx ? `${result.non2xx} no-2xx` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

export function serverCpuMs(pid: number): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    // After "pid (comm) ": ppid is field 4, utime 14, stime 15 → indexes 1, 11 and 12 here.
    const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    if (Number(entry) === pid || Number(fields[1]) === pid)
      ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/**
 * Starts `node server.js` with `workers` processes (WEB_CONCURRENCY, else 1), waits for
 * /healthcheck and returns its base URL, pid, cookies, stop().
 */
export async function startBenchServer({
  eventLoop = false,
  nodeFlags = [] as string[],
  workers = Number(process.env.WEB_CONCURRENCY || 1),
} = {}) {
  const users = await benchUsers();
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, "server.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      WEB_CONCURRENCY: String(workers),
      DATABASE_PATH: env.databasePath,
      ...(eventLoop ? { BENCH_EVENT_LOOP: "1" } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 150 && !up; i++) {
    up = await fetch(`${base}/healthcheck`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  if (!up) {
    child.kill();
    throw new Error("El servidor no respondió a /healthcheck.");
  }
  const cookies: Record<BenchRole, string> = {
    admin: await signIn(base, users.admin.email),
    buyer: await signIn(base, users.buyer.email),
    partner: await signIn(base, users.partner.email),
  };
  return {
    base,
    pid: child.pid!,
    users,
    cookies,
    /** Stops the server (SIGTERM: a primary stops its workers first) and waits for it to exit. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill();
      await new Promise((r) => child.once("exit", r));
    },
    /** kill(), then closes this script's own connection to the database. */
    async stop() {
      await this.kill();
      await db.destroy();
    },
  };
}
