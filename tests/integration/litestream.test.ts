/**
 * Continuous replication through real processes: `npm start`'s script (scripts/start.sh) runs a
 * writer under `litestream replicate -exec` with a replica in a local folder; the writer is killed
 * with SIGKILL mid-loop, the database file is deleted, and the next start restores it from the
 * replica with every acknowledged write. Skipped where the Litestream binary cannot run.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const binary = spawnSync(
  "node",
  ["-p", "require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`)"],
  { cwd: ROOT, encoding: "utf8" },
).stdout.trim();
const runnable = Boolean(binary) && spawnSync(binary, ["version"]).status === 0;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-litestream-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_PATH: path.join(dir, "db", "app.sqlite"),
  UPLOADS_DIR: path.join(dir, "uploads"),
  LITESTREAM_REPLICA_URL: `file://${path.join(dir, "replica")}`,
};
const tsx = (script: string) =>
  `node_modules/.bin/tsx ${path.relative(ROOT, path.join(import.meta.dirname, script))}`;

/** Runs scripts/start.sh with a command in place of the server; calls `onLine` for each line out. */
function start(command: string, onLine: (line: string) => void) {
  const child = spawn("sh", ["scripts/start.sh", ...command.split(" ")], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    output += `${line}\n`;
    onLine(line);
  });
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output })),
  );
  return { child, exited };
}

describe.skipIf(!runnable)("Litestream replication to a local folder", () => {
  it("restores a deleted database from the replica after kill -9, losing no acknowledged write", async () => {
    const acked = new Set<number>();
    let writerPid = 0;
    const writer = start(tsx("processes/write-loop.ts"), (line) => {
      const [word, value] = line.split(" ");
      if (word === "ready") writerPid = Number(value);
      if (word === "ack") acked.add(Number(value));
    });
    const deadline = Date.now() + 60_000;
    while (acked.size < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (writerPid) process.kill(writerPid, "SIGKILL");
    else writer.child.kill("SIGKILL");
    expect(acked.size).toBeGreaterThanOrEqual(60);
    const first = await writer.exited;
    const written = new Set(acked);

    const local = new SQLite(env.DATABASE_PATH!, { readonly: true });
    const before = (
      local.prepare("SELECT count(*) AS n FROM quote_requests").get() as { n: number }
    ).n;
    local.close();
    for (const suffix of ["", "-wal", "-shm"])
      fs.rmSync(env.DATABASE_PATH + suffix, { force: true });

    let found: number[] = [];
    const second = await start(tsx("processes/count-requests.ts"), (line) => {
      if (line.startsWith("requests ")) found = JSON.parse(line.slice("requests ".length));
    }).exited;
    expect(second.output).toContain("restaurando desde la réplica");
    const missing = [...written].filter((id) => !found.includes(id));
    console.log(
      `Litestream: ${written.size} solicitudes confirmadas antes de kill -9 ` +
        `(${before} filas en el archivo), ${found.length} restauradas desde la réplica, ${missing.length} perdidas.`,
    );
    expect(missing, first.output + second.output).toEqual([]);
    expect(found.length).toBe(before);

    const restored = new SQLite(env.DATABASE_PATH!, { readonly: true });
    expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    restored.close();
  }, 120_000);
});
