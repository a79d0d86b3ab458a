/**
 * What the benchmarks share: the built server on a free 127.0.0.1 port against DATABASE_PATH, and
 * one signed-in session cookie per role, created directly in the sessions table.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import { createCookie } from "@remix-run/node";
import { db } from "../app/services/db.server";
import { env } from "../app/services/env.server";
import { cookieSecret } from "../app/services/session.server";

type BenchRole = "admin" | "buyer" | "partner";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function cookieFor(role: BenchRole): Promise<string> {
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
  return (await cookie.serialize(id)).split(";")[0]!;
}

/** Starts `build/index.js`, waits for /healthcheck and returns its base URL, cookies and a stop(). */
export async function startBenchServer() {
  const cookies: Record<BenchRole, string> = {
    admin: await cookieFor("admin"),
    buyer: await cookieFor("buyer"),
    partner: await cookieFor("partner"),
  };
  const port = await freePort();
  const child = spawn(
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
    const up = await fetch(`${base}/healthcheck`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    cookies,
    async stop() {
      child.kill();
      await db.destroy();
    },
  };
}
