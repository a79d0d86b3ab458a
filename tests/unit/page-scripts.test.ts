import { describe, expect, it } from "vitest";
import { paintBeforeModules as paintPage } from "~/services/page-scripts.server";

const paintBeforeModules = (html: string) => paintPage(Buffer.from(html, "utf8")).toString("utf8");

// The shape Remix's <Scripts> renders (remix-run/react 2.x), reduced to one route.
const page = (nonce: string) =>
  `<html><head><link rel="stylesheet" href="/build/app.css"/></head><body><main>Hola</main>` +
  `<link rel="modulepreload" href="/build/entry.client.js"/>` +
  `<link rel="modulepreload" href="/build/_shared/chunk-A.js"/>` +
  `<script nonce="${nonce}">window.__remixContext = {"future":{}};</script>` +
  `<script nonce="${nonce}" type="module" async="">import * as route0 from "/build/root.js";\nimport("/build/entry.client.js");</script>` +
  `</body></html>`;

describe("paintBeforeModules", () => {
  const html = paintBeforeModules(page("n0nce+/="));

  it("keeps every element React hydrates, with nothing fetched before the first paint", () => {
    const tags = (s: string) => s.match(/<(link|script)\b/g);
    expect(tags(html)).toEqual(tags(page("n0nce+/=")));
    expect(html).not.toMatch(/ rel="modulepreload"/);
    expect(html).toContain(
      '<link data-rel="modulepreload" data-href="/build/_shared/chunk-A.js"/>',
    );
    expect(html).not.toContain('type="module" async');
    expect(html).toContain(
      '<script nonce="n0nce+/=" type="text/plain" id="remix-modules">import * as route0 from "/build/root.js";',
    );
  });

  it("starts the module code after the first paint, from Remix's own context script", () => {
    const context = /<script nonce="n0nce\+\/=">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(context).toContain("requestAnimationFrame(() => setTimeout(start, 0))");
    expect(context).toContain('script.nonce = "n0nce+/="');
    expect(context.trimEnd().endsWith('window.__remixContext = {"future":{}};')).toBe(true);
  });

  it("rewrites only Remix's scripts, not a page that quotes their markup", () => {
    const quoted = `<p>&lt;link rel="modulepreload" href="x"&gt;</p><pre>window.__remixContext = </pre>`;
    const withText = page("n0nce").replace("<main>Hola</main>", `<main>${quoted}</main>`);
    expect(paintBeforeModules(withText)).toContain(`<main>${quoted}</main>`);
    // Without preload hints, the scripts start at the context script.
    const noHints = page("n0nce").replace(/<link rel="modulepreload"[^>]*>/g, "");
    expect(paintBeforeModules(noHints)).toContain('type="text/plain" id="remix-modules"');
  });

  it("keeps text before the scripts byte for byte, accents included", () => {
    const spanish = page("n0nce").replace("Hola", "Cotización «válvulas» · año");
    const painted = paintBeforeModules(spanish);
    expect(painted).toContain("<main>Cotización «válvulas» · año</main>");
    expect(painted).toContain('type="text/plain" id="remix-modules"');
  });

  it("leaves a document without Remix's scripts as it was", () => {
    const plain = "<html><body><h1>Página no encontrada</h1></body></html>";
    expect(paintBeforeModules(plain)).toBe(plain);
  });
});
