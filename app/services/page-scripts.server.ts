import { TYPED_BEFORE_HYDRATION } from "~/utils/typed-before-hydration";

/**
 * The page is painted before its modules are fetched. Every page works without JavaScript (the
 * server's HTML is the page), so on a slow phone connection the first paint must wait only for the
 * HTML and the stylesheet, not race the forty-odd module downloads that Remix's <Scripts> starts
 * at once (its modulepreload hints and its module script, with no way to defer them).
 *
 * `paintBeforeModules` rewrites the rendered document without changing its elements, so React
 * hydrates the same tree: each hint keeps its <link> but its kind and address move to `data-rel`
 * and `data-href` (it is never fetched: restoring forty hints cost a 70 ms task on the main
 * thread, and the module script's imports fetch the same files; a modulepreload left without its
 * address drew a console warning per hint), and the module script keeps its <script> as an inert
 * `text/plain` block. Remix's first inline script (the context, same nonce) gains a few lines
 * that, in the task after the first paint, swap the inert block for a module script with the
 * same code; hydration then runs as before, a frame later. They also keep what is typed in a
 * textarea meanwhile (TYPED_BEFORE_HYDRATION): what was typed before they ran, and every input
 * after. A document without them (rendered
 * without scripts) is returned unchanged.
 */
const PRELOAD = /<link rel="modulepreload" href="/g;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const CONTEXT_SCRIPT = /(<script nonce="[^"]*">window\.__remixContext = )/;
const INERT_ID = "remix-modules";

const startModules = (nonce: string) => `(() => {
  const keep = (textarea) => { textarea.${TYPED_BEFORE_HYDRATION} = textarea.value; };
  for (const textarea of document.querySelectorAll("textarea"))
    if (textarea.value !== textarea.defaultValue) keep(textarea);
  document.addEventListener("input", (event) => {
    if (event.target instanceof HTMLTextAreaElement) keep(event.target);
  }, true);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const inert = document.getElementById(${JSON.stringify(INERT_ID)});
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = ${JSON.stringify(nonce)};
    script.textContent = inert.textContent;
    inert.replaceWith(script);
  };
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 1000);
})();
`;

/**
 * Where Remix's scripts start: they close the body, so only that end is decoded, scanned and
 * rewritten (five passes over a 70 KB list page's content cost 0.4 ms of server time).
 */
function scriptsStart(page: Buffer): number {
  const preload = page.indexOf('<link rel="modulepreload"');
  if (preload !== -1) return preload;
  const context = page.indexOf("window.__remixContext = ");
  return context === -1 ? -1 : page.lastIndexOf("<script", context);
}

/** The rendered document (UTF-8) with its scripts rewritten; the bytes before them are kept as they are. */
export function paintBeforeModules(page: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const from = scriptsStart(page);
  if (from === -1) return page;
  const scripts = page.subarray(from).toString("utf8");
  const module = MODULE_SCRIPT.exec(scripts);
  if (!module || !CONTEXT_SCRIPT.test(scripts)) return page;
  const nonce = module[1]!;
  const rewritten = scripts
    .replace(PRELOAD, '<link data-rel="modulepreload" data-href="')
    .replace(module[0], () => `<script nonce="${nonce}" type="text/plain" id="${INERT_ID}">`)
    .replace(CONTEXT_SCRIPT, (opening: string) => opening.replace(">", `>${startModules(nonce)}`));
  return Buffer.concat([page.subarray(0, from), Buffer.from(rewritten, "utf8")]);
}
