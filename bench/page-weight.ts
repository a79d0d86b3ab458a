/**
 * DECISIONS §5 budgets: HTML+CSS ≤ 30 KB gzip and first-visit JavaScript ≤ 100 KB gzip per page.
 * Usage: npm run build && DATABASE_PATH=db/large.sqlite npx tsx bench/page-weight.ts
 * Starts the built server, signs in one user per role through the sign-in form, and sums the gzip size of
 * each page's HTML, its stylesheets and every script it loads (entry, modulepreloads).
 */
import zlib from "node:zlib";
import { startBenchServer } from "./server";

const { base, cookies, stop } = await startBenchServer();

const gz = (bytes: ArrayBuffer | string) =>
  zlib.gzipSync(typeof bytes === "string" ? bytes : Buffer.from(bytes)).length;
const cache = new Map<string, number>();
async function assetSize(url: string): Promise<number> {
  if (!cache.has(url)) cache.set(url, gz(await (await fetch(base + url)).arrayBuffer()));
  return cache.get(url)!;
}

const pages: [string, keyof typeof cookies | null][] = [
  ["/", null],
  ["/auth", null],
  ["/contact", null],
  ["/terms", null],
  ["/buyer", "buyer"],
  ["/buyer/quotes", "buyer"],
  ["/buyer/quotes/new", "buyer"],
  ["/buyer/payments", "buyer"],
  ["/buyer/rewards", "buyer"],
  ["/partner", "partner"],
  ["/partner/assignments", "partner"],
  ["/admin", "admin"],
  ["/admin/quotes", "admin"],
  ["/admin/payments", "admin"],
  ["/admin/users", "admin"],
  ["/admin/partners", "admin"],
  ["/admin/products", "admin"],
  ["/admin/products/new", "admin"],
  ["/admin/categories", "admin"],
  ["/admin/contacts", "admin"],
  ["/admin/settings", "admin"],
  ["/admin/redemptions", "admin"],
  ["/admin/analytics", "admin"],
];
let over = false;
console.log(`${"página".padEnd(24)} HTML+CSS gz   JS gz (primera visita)`);
for (const [path, role] of pages) {
  const response = await fetch(base + path, {
    headers: role ? { cookie: cookies[role] } : {},
    redirect: "manual",
  });
  // A redirect (e.g. to /auth) or an error page would be measured instead of the page: fail.
  if (response.status !== 200) {
    console.log(`${path.padEnd(24)} HTTP ${response.status} ← no se midió la página`);
    over = true;
    continue;
  }
  const html = await response.text();
  const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  const js = new Set(
    [
      // Preloads are written inert (data-rel, data-href) and loaded after the first paint.
      ...html.matchAll(/<link (?:data-)?rel="modulepreload" (?:data-)?href="([^"]+)"/g),
      ...html.matchAll(/import\("([^"]+\.js)"\)/g),
    ].map((m) => m[1]!),
  );
  const htmlCss = gz(html) + (await Promise.all(css.map(assetSize))).reduce((a, b) => a + b, 0);
  const jsSize = (await Promise.all([...js].map(assetSize))).reduce((a, b) => a + b, 0);
  const flag = htmlCss > 30 * 1024 || jsSize > 100 * 1024 ? "  ← fuera de presupuesto" : "";
  over ||= Boolean(flag);
  console.log(
    `${path.padEnd(24)} ${(htmlCss / 1024).toFixed(1).padStart(8)} KB   ${(jsSize / 1024).toFixed(1).padStart(8)} KB${flag}`,
  );
}
await stop();
process.exitCode = over ? 1 : 0;
if (over) console.log("\nFuera de presupuesto o con respuestas distintas de 200.");
