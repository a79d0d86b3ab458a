import { describe, expect, it } from "vitest";
import { activeNavItem, guardRedirect, homeFor, SIDEBAR } from "~/domain/roles";
import { safeRedirect } from "~/utils/safe-redirect";

describe("homeFor", () => {
  it("sends each role to its area, a missing role to /buyer and no user to /auth", () => {
    expect(homeFor({ role: "admin" })).toBe("/admin");
    expect(homeFor({ role: "partner" })).toBe("/partner");
    expect(homeFor({ role: "buyer" })).toBe("/buyer");
    expect(homeFor({ role: null })).toBe("/buyer");
    expect(homeFor({ role: "superuser" })).toBe("/buyer");
    expect(homeFor(null)).toBe("/auth");
  });
});

describe("guardRedirect (SPEC §2)", () => {
  it("lets public paths through for anyone", () => {
    for (const path of ["/", "/contact", "/terms", "/privacy", "/auth", "/buyers-guide"]) {
      expect(guardRedirect(path, "", null)).toBeNull();
    }
  });
  it("sends visitors of a role area to /auth remembering the target", () => {
    expect(guardRedirect("/buyer/quotes", "?page=2", null)).toBe(
      "/auth?redirectTo=%2Fbuyer%2Fquotes%3Fpage%3D2",
    );
  });
  it("sends a user of another role to their own home", () => {
    expect(guardRedirect("/admin/users", "", { role: "buyer" })).toBe("/buyer");
    expect(guardRedirect("/buyer", "", { role: "partner" })).toBe("/partner");
    expect(guardRedirect("/partner/quotes", "", { role: "admin" })).toBe("/admin");
    expect(guardRedirect("/admin", "", { role: "admin" })).toBeNull();
  });
});

describe("sidebars", () => {
  it("marks the active item by path prefix, the dashboard only on its own path", () => {
    expect(activeNavItem(SIDEBAR.admin, "/admin/quotes/12")?.to).toBe("/admin/quotes");
    expect(activeNavItem(SIDEBAR.admin, "/admin")?.to).toBe("/admin");
    expect(activeNavItem(SIDEBAR.buyer, "/buyer/payments/new")?.to).toBe("/buyer/payments");
    expect(activeNavItem(SIDEBAR.partner, "/partner/quotes")?.label).toBe("Mis Cotizaciones");
    expect(activeNavItem(SIDEBAR.admin, "/admin/redemptions")?.label).toBe("Canjes");
  });
});

describe("safeRedirect", () => {
  it("keeps local paths", () => {
    expect(safeRedirect("/buyer/quotes?page=2")).toBe("/buyer/quotes?page=2");
    expect(safeRedirect("/buyer/./quotes?q=a%2Fb")).toBe("/buyer/quotes?q=a%2Fb");
  });
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "",
    null,
    "buyer",
    "/\r\nSet-Cookie:x",
    // Dot segments resolve to "//evil.example" (a protocol-relative URL) after normalisation.
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/buyer/../..//evil.example",
    "/%5cevil.example",
    "/%2F/evil.example",
    "/\t/evil.example",
  ])("refuses %s", (target) => expect(safeRedirect(target, "/fallback")).toBe("/fallback"));
});
