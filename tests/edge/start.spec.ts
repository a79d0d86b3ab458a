/**
 * `npm start` as the README tells an operator to run it, with nothing set but the places to keep
 * data and the port: it serves the production build, one process per core.
 *
 * What proves production: the server's first line names the mode from NODE_ENV, and each worker's
 * line names the React build Node actually loaded to render pages (server.js reads it from the
 * module cache), so an environment that says production while React runs its development build
 * would show. The home page and /healthcheck then answer from that server.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../e2e/server";
import { childProcessesOf, expect, isRunning, test } from "./helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");

function descendantsOf(pid: number): number[] {
  return childProcessesOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

test("npm start serves the production build, one process per core", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-npm-start-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_PATH: path.join(dir, "app.sqlite"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    MAIL_DIR: path.join(dir, "mail"),
    APP_URL: url,
  };
  for (const name of ["NODE_ENV", "WEB_CONCURRENCY", "LITESTREAM_REPLICA_URL", "SMTP_URL"])
    delete env[name];
  // Its own process group: npm, the shell and the server's processes are stopped together.
  const child = spawn("npm", ["start"], { cwd: ROOT, env, detached: true });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d));
  child.stderr.on("data", (d: Buffer) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const processes = os.availableParallelism();
  const lines = () => output.split("\n");
  const listening = () => lines().filter((line) => line.startsWith("CotizaHub escuchando"));
  let servers: number[] = [];
  try {
    await expect.poll(listening, { timeout: 60_000, message: output }).toHaveLength(processes);

    // The server's first line follows the migrations' («Base de datos …»).
    const migrated = lines().findIndex((line) => line.startsWith("Base de datos "));
    expect(migrated, output).toBeGreaterThanOrEqual(0);
    expect(lines()[migrated + 1]).toBe(
      processes === 1
        ? "CotizaHub en modo producción (NODE_ENV=production), 1 proceso"
        : `CotizaHub en modo producción (NODE_ENV=production), ${processes} procesos (uno por núcleo)`,
    );
    for (const line of listening())
      expect(line).toMatch(
        new RegExp(
          `^CotizaHub escuchando en http://localhost:${port} \\((proceso \\d+, )?React de producción\\)$`,
        ),
      );

    const health = await fetch(`${url}/healthcheck`);
    expect(health.status).toBe(200);
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html lang="es"');

    // npm, its shell, then `node server.js` (start.sh's exec): the primary and one per core.
    servers = descendantsOf(child.pid!).filter((pid) => commandOf(pid).includes("server.js"));
    expect(servers).toHaveLength(processes === 1 ? 1 : processes + 1);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    await expect.poll(() => servers.filter(isRunning), { timeout: 15_000 }).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  expect(output).not.toMatch(/^\s+at /m);
});
