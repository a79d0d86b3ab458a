/**
 * The server's route matching (`@remix-run/router`'s CommonJS build, patched by
 * patches/@remix-run+router+*.patch): a route tree is flattened and ranked once, and each path's
 * regular expression is built once, a branch whose first word differs from the path's is
 * skipped, and a tree's answers are remembered by path. Matching must give the same answers as
 * before, path after path (against the stock UMD build, on the app's own route tree), and the
 * patch must be installed (`npm install` runs patch-package).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { describe, expect, it } from "vitest";

// The server loads the CommonJS build (what the patch changes), not the ES module the bundler sees.
const { matchRoutes } = createRequire(import.meta.url)("@remix-run/router") as {
  matchRoutes: (
    routes: Route[],
    location: string,
  ) => { route: Route; params: Record<string, string>; pathnameBase: string }[] | null;
};

// The UMD build of the same version is not patched: it answers as the stock matcher does.
const { matchRoutes: stockMatchRoutes } = createRequire(import.meta.url)(
  "@remix-run/router/dist/router.umd.js",
) as { matchRoutes: typeof matchRoutes };

interface Route {
  id: string;
  path?: string;
  index?: boolean;
  children?: Route[];
}

/** A tree shaped like the app's: a root, areas with index pages, ids and a catch-all. */
function appTree(): Route[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/_index", index: true },
        { id: "routes/terms", path: "terms" },
        {
          id: "routes/admin",
          path: "admin",
          children: [
            { id: "routes/admin._index", index: true },
            { id: "routes/admin.quotes._index", path: "quotes" },
            { id: "routes/admin.quotes.$id", path: "quotes/:id" },
            { id: "routes/admin.quotes.$id.pdf", path: "quotes/:id/pdf" },
          ],
        },
        {
          id: "routes/buyer",
          path: "buyer",
          children: [
            { id: "routes/buyer._index", index: true },
            { id: "routes/buyer.quotes.$id", path: "quotes/:id" },
          ],
        },
        { id: "routes/$", path: "*" },
      ],
    },
  ];
}

function leaf(routes: Route[], path: string) {
  const matches = matchRoutes(routes, path);
  const last = matches?.at(-1);
  return last ? { id: last.route.id, params: { ...last.params } } : null;
}

describe("route matching", () => {
  it("answers every path as the unpatched matcher did, interleaved and repeated", () => {
    const routes = appTree();
    const expected: [string, string, Record<string, string>][] = [
      ["/", "routes/_index", {}],
      ["/terms", "routes/terms", {}],
      ["/admin", "routes/admin._index", {}],
      ["/admin/quotes", "routes/admin.quotes._index", {}],
      ["/admin/quotes/7", "routes/admin.quotes.$id", { id: "7" }],
      ["/admin/quotes/81/pdf", "routes/admin.quotes.$id.pdf", { id: "81" }],
      ["/buyer/quotes/7", "routes/buyer.quotes.$id", { id: "7" }],
      ["/ADMIN/Quotes/9", "routes/admin.quotes.$id", { id: "9" }],
      ["/admin/quotes/7/", "routes/admin.quotes.$id", { id: "7" }],
      ["/no/such/page", "routes/$", { "*": "no/such/page" }],
      ["/admin/quotes/7/other", "routes/$", { "*": "admin/quotes/7/other" }],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [path, id, params] of round === 1 ? [...expected].reverse() : expected) {
        expect(leaf(routes, path), `${path} (vuelta ${round + 1})`).toEqual({ id, params });
      }
    }
  });

  it("answers every page of the app's own route tree as the stock matcher does", () => {
    const manifest = flatRoutes(path.resolve("app"));
    const childrenOf = (parentId: string): Route[] =>
      Object.values(manifest)
        .filter((route) => (route.parentId ?? "root") === parentId)
        .map((route) => ({
          id: route.id,
          path: route.path,
          index: route.index,
          children: childrenOf(route.id),
        }));
    const routes: Route[] = [{ id: "root", path: "", children: childrenOf("root") }];
    const fullPath = (id: string): string => {
      const route = manifest[id];
      if (!route) return "";
      return [fullPath(route.parentId ?? ""), route.path].filter(Boolean).join("/");
    };
    const pages = Object.keys(manifest).map((id) => "/" + fullPath(id).replace(/:\w+/g, "7"));
    const pathsOf = (page: string) => [
      page,
      `${page}/`,
      page.toUpperCase(),
      `${page}x`,
      `${page}/otra`,
      `/${page}`,
      `/x${page}`,
      `${page}%C3%A9`,
    ];
    const stock = (p: string) => {
      const last = stockMatchRoutes(routes, p)?.at(-1);
      return last ? { id: last.route.id, params: { ...last.params } } : null;
    };
    expect(pages).toContain("/admin/quotes/7/comparison.csv");
    for (let round = 0; round < 2; round++) {
      for (const page of ["/", ...pages]) {
        for (const p of pathsOf(page)) expect(leaf(routes, p), p).toEqual(stock(p));
      }
    }
  });

  it("keeps each route tree's ranking to that tree", () => {
    const first = appTree();
    const other: Route[] = [{ id: "only", path: "admin/quotes/:ref" }];
    expect(leaf(first, "/admin/quotes/3")?.id).toBe("routes/admin.quotes.$id");
    expect(leaf(other, "/admin/quotes/3")).toEqual({ id: "only", params: { ref: "3" } });
    expect(leaf(other, "/terms")).toBeNull();
    // A fresh copy of the same tree (Remix builds one per render) matches like the first.
    expect(leaf(appTree(), "/admin/quotes/3")?.id).toBe("routes/admin.quotes.$id");
  });

  it("gives each caller its own copy of a remembered answer", () => {
    const routes = appTree();
    const first = matchRoutes(routes, "/admin/quotes/5")!;
    first.at(-1)!.params.id = "cambiado";
    first.pop();
    const again = matchRoutes(routes, "/admin/quotes/5")!;
    expect(again.map((m) => m.route.id)).toEqual([
      "root",
      "routes/admin",
      "routes/admin.quotes.$id",
    ]);
    expect(again.at(-1)!.params).toEqual({ id: "5" });
    // Within one answer the matches share their params, as the stock matcher's do.
    expect(again[0]!.params).toBe(again.at(-1)!.params);
  });

  it("is the patched matcher: a tree is ranked once, so a tree must not change after use", () => {
    // What the patch relies on: the server's route trees are built once and never changed. A
    // route added to an already-matched tree is not seen (the unpatched matcher would see it).
    const routes = appTree();
    expect(leaf(routes, "/late")?.id).toBe("routes/$");
    routes[0]!.children!.push({ id: "routes/late", path: "late" });
    expect(leaf(routes, "/late")?.id).toBe("routes/$");
  });
});
