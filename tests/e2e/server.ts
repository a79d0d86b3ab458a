/**
 * Starts the built app the way production does (two worker processes), on its own port, SQLite
 * file, uploads and mail folders. The worker fixture (fixtures.ts) starts one per worker; a test
 * file that needs other settings (TRUST_PROXY, an https APP_URL, ...) starts its own with
 * `startServer({ extraEnv })`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SESSION_SECRET = "secreto-de-pruebas-e2e-no-usar-en-produccion";

/**
 * The one server command. The project is moving from `remix-serve build/index.js` to a custom
 * `server.js` at the repository root (same environment variables); whichever exists is used.
 */
export const SERVER_COMMAND: readonly string[] = fs.existsSync(path.join(ROOT, "server.js"))
  ? [path.join(ROOT, "server.js")]
  : [path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js"), "build/index.js"];

/** Set by global-setup.ts: a migrated database each server starts from as a copy. */
export const TEMPLATE_ENV = "E2E_DB_TEMPLATE";

export interface Server {
  url: string;
  port: number;
  dir: string;
  dbPath: string;
  mailDir: string;
  uploadsDir: string;
  /** The server's SQLite file, for tests to arrange data and check what was stored. */
  sql: SQLite.Database;
  pid: number;
  /** Everything the server printed so far. */
  log: () => string;
  /** Stops the server, waits for it to exit and removes its folder. */
  stop: () => Promise<void>;
}

export interface StartServerOptions {
  /** Added to (or replacing) the environment the server gets. */
  extraEnv?: Record<string, string>;
  /** A fixed port; by default a free one is picked. */
  port?: number;
  /**
   * Called with a copy of the migrated database before the server opens it: for rows that must be
   * there when the server's processes start (their first poll runs at start-up).
   */
  arrange?: (sql: SQLite.Database) => void;
  /** Part of the temp folder's name, to tell servers apart when debugging. */
  name?: string;
}

// Children are killed if this process exits without tearing them down (a killed worker).
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  child.stdout!.on("data", (d: Buffer) => (output += d));
  child.stderr!.on("data", (d: Buffer) => (output += d));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function kill(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/** Brings the database at `dbPath` to the latest migration, as `npm start` does before serving. */
export async function migrate(dbPath: string): Promise<void> {
  const { child, output } = run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/migrate.ts"], {
    ...process.env,
    DATABASE_PATH: dbPath,
    UPLOADS_DIR: path.join(path.dirname(dbPath), "u"),
  });
  const code = await exited(child);
  if (code !== 0) throw new Error(`Las migraciones fallaron (código ${code}):\n${output()}`);
}

let ownTemplate: Promise<string> | undefined;

/** The migrated database to copy: global setup's, or one made once for this process. */
function template(): Promise<string> {
  const shared = process.env[TEMPLATE_ENV];
  if (shared && fs.existsSync(shared)) return Promise.resolve(shared);
  ownTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-e2e-template-"));
    const file = path.join(dir, "template.sqlite");
    await migrate(file);
    return file;
  })();
  return ownTemplate;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

type Health = "up" | "exited" | "timeout";

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<Health> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return "exited";
    try {
      const response = await fetch(`${url}/healthcheck`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return "up";
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return "timeout";
}

export async function startServer(options: StartServerOptions = {}): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cotizahub-e2e-${options.name ?? "server"}-`));
  const dbPath = path.join(dir, "app.sqlite");
  const uploadsDir = path.join(dir, "uploads");
  const mailDir = path.join(dir, "mail");
  try {
    fs.copyFileSync(await template(), dbPath);
    if (options.arrange) {
      const sql = new SQLite(dbPath);
      try {
        sql.pragma("foreign_keys = ON");
        options.arrange(sql);
      } finally {
        sql.close();
      }
    }
    // Another process may take a picked port before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const url = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        // Only a test that asks for it runs behind a trusted proxy.
        TRUST_PROXY: "",
        DATABASE_PATH: dbPath,
        UPLOADS_DIR: uploadsDir,
        MAIL_DIR: mailDir,
        APP_URL: url,
        SESSION_SECRET,
        SMTP_URL: "",
        // One process: on two cores, two journeys' servers of two workers each beside two browsers
        // pushed the longest journeys past their minute. Several workers on one database are
        // exercised under load by tests/edge/workers.spec.ts (ADR 0017).
        WEB_CONCURRENCY: "1",
        ...options.extraEnv,
      };
      const [entry, ...args] = SERVER_COMMAND;
      const { child, output } = run(process.execPath, [entry!, ...args], env);
      // Generous: on a saturated machine a cold start alone has taken over 30 s.
      const health = await waitForHealth(url, child, 50_000);
      if (health === "up") {
        const sql = new SQLite(dbPath);
        sql.pragma("busy_timeout = 5000");
        // Deleting a test's admins sets their references to NULL, as the app's connection would.
        sql.pragma("foreign_keys = ON");
        return {
          url,
          port,
          dir,
          dbPath,
          mailDir,
          uploadsDir,
          sql,
          pid: child.pid!,
          log: output,
          stop: async () => {
            sql.close();
            await kill(child);
            if (process.env.E2E_SERVER_LOG) console.log(output());
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await kill(child, 1_000);
      const busy = /EADDRINUSE/.test(output());
      if (health === "exited" && busy && options.port === undefined && attempt < 3) continue;
      throw new Error(
        health === "exited"
          ? `El servidor terminó al arrancar:\n${output()}`
          : `El servidor no respondió a tiempo en ${url}:\n${output()}`,
      );
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
