/**
 * Where one page spends the server's CPU: loads it for 8 s on the built server started with
 * `--cpu-prof`, then prints the packages and functions that took the most (self time).
 * Usage: npm run build && DATABASE_PATH=/tmp/large.sqlite npx tsx bench/profile.ts /admin/quotes admin
 * The .cpuprofile stays in a temporary folder (printed) for Chrome's DevTools.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBenchServer, type BenchRole } from "./server";

const [page = "/terms", role] = process.argv.slice(2) as [string?, BenchRole?];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-profile-"));
const server = await startBenchServer({ nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
const headers: Record<string, string> = role ? { cookie: server.cookies[role] } : {};
for (let i = 0; i < 20; i++) await (await fetch(server.base + page, { headers })).arrayBuffer();
const result = await autocannon({ url: server.base + page, connections: 8, duration: 8, headers });
await server.stop();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!;
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const selfMs = new Map<number, number>();
profile.samples.forEach((id, i) =>
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000),
);
const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, ms: number) =>
  map.set(key, (map.get(key) ?? 0) + ms);
for (const node of profile.nodes) {
  const ms = selfMs.get(node.id) ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, "").replace(`file://${process.cwd()}/`, "");
  add(byPackage, where.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? (functionName || "(vm)"), ms);
  add(byFunction, `${functionName || "(anónima)"} ${where}:${lineNumber}`, ms);
}
const requests = result.requests.total + 20;
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `${(ms / requests).toFixed(3).padStart(8)} ms/solicitud  ${name}`)
    .join("\n");
console.log(`${page}: ${result.requests.average} req/s, ${result.non2xx} no-2xx; perfil en ${dir}`);
console.log(
  `\nPor paquete:\n${top(byPackage, 15)}\n\nPor función (tiempo propio):\n${top(byFunction, 25)}`,
);
