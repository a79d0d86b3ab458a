/**
 * Playwright fixtures: each worker runs the built server (server.ts) on its own port, SQLite file,
 * uploads and mail folders. Tests reach the same SQLite file to arrange data (users, sessions,
 * factories.ts) and to check what was stored.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { createCookie } from "@remix-run/node";
import bcrypt from "bcryptjs";
import { ROOT, SESSION_SECRET, startServer, type Server } from "./server";

export { startServer, SESSION_SECRET, type Server };
export { linkIn, readMails, waitForMail, type Mail } from "./mail";
export const PASSWORD = "Clave-segura-123";

export interface TestUser {
  id: number;
  email: string;
  role: "buyer" | "partner" | "admin";
  firstName: string;
  lastName: string;
  companyName: string;
}

type NewUser = Partial<TestUser> & {
  role: TestUser["role"];
  verified?: boolean;
  password?: string;
  /** An admin that a later test of a serial group still needs; that test removes it. */
  keepAfterTest?: boolean;
};

// The server verifies whatever cost a hash was made with; cost 4 keeps sign-ins in tests cheap.
const BCRYPT_COST = 4;
const hashes = new Map<string, string>();
function hashOf(password: string): string {
  let hash = hashes.get(password);
  if (!hash) {
    hash = bcrypt.hashSync(password, BCRYPT_COST);
    hashes.set(password, hash);
  }
  return hash;
}

let counter = 0;

/** A unique, obviously fake e-mail for this worker and test run. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}${counter}@ejemplo.test`;
}

/** A short unique tag for titles and names, so repeated runs on one server never collide. */
export function tag(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

const sessionCookie = createCookie("__session", {
  secrets: [SESSION_SECRET],
  httpOnly: true,
  sameSite: "lax",
  path: "/",
});

export const test = base.extend<
  {
    createUser: (input: NewUser) => Promise<TestUser>;
    /** Signs `user` in on `context` with a session row written straight to the database. */
    loginAs: (user: TestUser, context: BrowserContext) => Promise<void>;
    /** A page in a new context (the project's JavaScript setting) signed in as `user`. */
    pageAs: (user: TestUser) => Promise<Page>;
    axe: (page: Page) => Promise<void>;
  },
  { server: Server }
>({
  server: [
    async ({}, use, workerInfo) => {
      // E2E_PORT_BASE pins the ports (e.g. to reach the servers by hand); by default any free port.
      const portBase = process.env.E2E_PORT_BASE ? Number(process.env.E2E_PORT_BASE) : undefined;
      const server = await startServer({
        name: `${workerInfo.project.name}-${workerInfo.parallelIndex}`,
        port:
          portBase === undefined
            ? undefined
            : portBase +
              workerInfo.parallelIndex * 10 +
              (workerInfo.project.name === "nojs" ? 1 : 0),
      });
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  createUser: async ({ server }, use) => {
    const admins: number[] = [];
    await use(async (input) => {
      const user: TestUser = {
        id: 0,
        email: input.email ?? uniqueEmail(input.role),
        role: input.role,
        firstName:
          input.firstName ?? { buyer: "Beatriz", partner: "Pedro", admin: "Alicia" }[input.role],
        lastName: input.lastName ?? "Prueba",
        companyName:
          input.companyName ??
          { buyer: "Compradora Prueba S.A.", partner: "Proveedor Prueba S.L.", admin: "CotizaHub" }[
            input.role
          ],
      };
      const stamp = new Date().toISOString();
      const result = server.sql
        .prepare(
          `INSERT INTO users (email, password_hash, first_name, last_name, company_name, phone, role, email_verified_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          user.email,
          hashOf(input.password ?? PASSWORD),
          user.firstName,
          user.lastName,
          user.companyName,
          "+52 55 1234 5678",
          user.role,
          input.verified === false ? null : stamp,
          stamp,
          stamp,
        );
      user.id = Number(result.lastInsertRowid);
      if (user.role === "admin" && !input.keepAfterTest) admins.push(user.id);
      return user;
    });
    // Every event for "the admins" mails each admin: admins left by earlier tests would make the
    // outbox (and every mail a later test waits for) grow with the number of tests run before.
    if (admins.length) {
      server.sql
        .prepare(`DELETE FROM users WHERE id IN (${admins.map(() => "?").join(",")})`)
        .run(...admins);
    }
  },
  loginAs: async ({ server }, use) => {
    await use(async (user, context) => {
      const id = crypto.randomBytes(32).toString("base64url");
      const stamp = new Date().toISOString();
      server.sql
        .prepare(
          `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
        )
        .run(id, user.id, stamp, stamp, new Date(Date.now() + 86_400_000).toISOString());
      // As a sign-in would: a later sign-in through the form is then not the account's first.
      server.sql.prepare("UPDATE users SET last_sign_in_at = ? WHERE id = ?").run(stamp, user.id);
      const serialized = await sessionCookie.serialize(id);
      const value = serialized.split(";")[0]!.slice("__session=".length);
      await context.addCookies([{ name: "__session", value, url: server.url }]);
    });
  },
  pageAs: async ({ browser, server, loginAs, javaScriptEnabled, locale, timezoneId }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user) => {
      const context = await browser.newContext({
        baseURL: server.url,
        javaScriptEnabled,
        locale,
        timezoneId,
      });
      contexts.push(context);
      await loginAs(user, context);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  axe: async ({}, use, testInfo) => {
    await use(async (page) => {
      // axe runs as page script; without JavaScript the same server-rendered DOM is checked by the js project.
      if (testInfo.project.name === "nojs") return;
      // Legacy mode scans the top document only (the app has no iframes), skipping axe's frame
      // handshake; only violations get node details (passes and the rest are not read here).
      // axe's default rules (WCAG 2.0/2.1 A and AA, and its best practices), plus WCAG 2.5.3's
      // label-in-name check, which axe ships as experimental and leaves off unless a rule option
      // turns it on. (A `withTags` here did nothing: `options` replaces the run options it set.)
      const results = await new AxeBuilder({ page })
        .options({
          rules: { "label-content-name-mismatch": { enabled: true } },
          resultTypes: ["violations"],
        })
        .setLegacyMode(true)
        .analyze();
      const summary = results.violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
      );
      expect(summary, `Violaciones de accesibilidad en ${page.url()}`).toEqual([]);
    });
  },
});

export { expect };

/** Takes a full-page screenshot into screenshots/ for review (desktop and phone width). */
export async function screenshots(
  page: Page,
  name: string,
  testInfo: { project: { name: string } },
): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  const dir = path.join(ROOT, "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  await page.screenshot({
    path: path.join(dir, `${name}-${testInfo.project.name}-desktop.png`),
    fullPage: true,
  });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({
    path: path.join(dir, `${name}-${testInfo.project.name}-phone.png`),
    fullPage: true,
  });
  if (original) await page.setViewportSize(original);
}
