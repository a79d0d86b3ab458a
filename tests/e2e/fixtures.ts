/**
 * Playwright fixtures: each worker runs the built server (`build/index.js`, as `npm start` does) on
 * its own port, SQLite file, uploads and mail folders. Tests reach the same SQLite file to arrange
 * data (users, sessions) and to check what was stored.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  test as base,
  expect,
  type Browser,
  type Page,
  type BrowserContext,
} from "@playwright/test";
import { createCookie } from "@remix-run/node";
import bcrypt from "bcryptjs";
import SQLite from "better-sqlite3";
import crypto from "node:crypto";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const SESSION_SECRET = "secreto-de-pruebas-e2e-no-usar-en-produccion";
export const PASSWORD = "Clave-segura-123";

export interface Server {
  url: string;
  dir: string;
  dbPath: string;
  mailDir: string;
  uploadsDir: string;
  sql: SQLite.Database;
}

export interface TestUser {
  id: number;
  email: string;
  role: "buyer" | "partner" | "admin";
  firstName: string;
  lastName: string;
  companyName: string;
}

let passwordHash: string | undefined;
let counter = 0;

/** A unique, obviously fake e-mail for this worker and test run. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}${counter}@ejemplo.test`;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`El servidor terminó al arrancar:\n${log()}`);
    try {
      const response = await fetch(`${url}/healthcheck`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`El servidor no respondió a tiempo:\n${log()}`);
}

export const test = base.extend<
  {
    createUser: (
      input: Partial<TestUser> & { role: TestUser["role"]; verified?: boolean; password?: string },
    ) => Promise<TestUser>;
    loginAs: (user: TestUser, context?: BrowserContext) => Promise<void>;
    axe: (page: Page) => Promise<void>;
  },
  { server: Server }
>({
  server: [
    async ({}, use, workerInfo) => {
      const dir = fs.mkdtempSync(
        path.join(os.tmpdir(), `cotizahub-e2e-${workerInfo.workerIndex}-`),
      );
      // E2E_PORT_BASE lets several checkouts run their journeys side by side.
      const portBase = Number(process.env.E2E_PORT_BASE ?? 4100);
      const port =
        portBase + workerInfo.parallelIndex * 10 + (workerInfo.project.name === "nojs" ? 1 : 0);
      const url = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: "production" as const,
        PORT: String(port),
        DATABASE_PATH: path.join(dir, "app.sqlite"),
        UPLOADS_DIR: path.join(dir, "uploads"),
        MAIL_DIR: path.join(dir, "mail"),
        APP_URL: url,
        SESSION_SECRET,
        SMTP_URL: "",
      };
      execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/migrate.ts"], {
        cwd: ROOT,
        env,
        stdio: "pipe",
      });
      let output = "";
      const child = spawn(
        process.execPath,
        [path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js"), "build/index.js"],
        {
          cwd: ROOT,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child.stdout.on("data", (d: Buffer) => (output += d));
      child.stderr.on("data", (d: Buffer) => (output += d));
      await waitForHealth(url, child, () => output);
      const sql = new SQLite(env.DATABASE_PATH!);
      sql.pragma("busy_timeout = 5000");
      await use({
        url,
        dir,
        dbPath: env.DATABASE_PATH!,
        mailDir: env.MAIL_DIR!,
        uploadsDir: env.UPLOADS_DIR!,
        sql,
      });
      sql.close();
      child.kill("SIGTERM");
      if (process.env.E2E_SERVER_LOG) console.log(output);
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  createUser: async ({ server }, use) => {
    await use(async (input) => {
      const password = input.password ?? PASSWORD;
      const hash =
        password === PASSWORD
          ? (passwordHash ??= bcrypt.hashSync(PASSWORD, 10))
          : bcrypt.hashSync(password, 10);
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
          hash,
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
      return user;
    });
  },
  loginAs: async ({ server, context }, use) => {
    const cookie = createCookie("__session", {
      secrets: [SESSION_SECRET],
      httpOnly: true,
      sameSite: "lax",
      path: "/",
    });
    await use(async (user, target = context) => {
      const id = crypto.randomBytes(32).toString("base64url");
      const stamp = new Date().toISOString();
      server.sql
        .prepare(
          `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
        )
        .run(id, user.id, stamp, stamp, new Date(Date.now() + 86_400_000).toISOString());
      const serialized = await cookie.serialize(id);
      const value = serialized.split(";")[0]!.slice("__session=".length);
      await target.addCookies([{ name: "__session", value, url: server.url }]);
    });
  },
  axe: async ({}, use, testInfo) => {
    await use(async (page) => {
      // axe runs as page script; without JavaScript the same server-rendered DOM is checked by the js project.
      if (testInfo.project.name === "nojs") return;
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
        .analyze();
      const summary = results.violations.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
      );
      expect(summary, `Violaciones de accesibilidad en ${page.url()}`).toEqual([]);
    });
  },
});

export { expect };

// ---- Mail written to MAIL_DIR as .eml files.

function decodeQuotedPrintable(input: string): string {
  const bytes: number[] = [];
  const soft = input.replace(/=\r?\n/g, "");
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

export interface Mail {
  file: string;
  to: string;
  subject: string;
  body: string;
}

/** Every mail written for `to`, oldest first, with bodies decoded. */
export function readMails(server: Server, to: string): Mail[] {
  if (!fs.existsSync(server.mailDir)) return [];
  const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  return fs
    .readdirSync(server.mailDir)
    .filter((name) => name.endsWith(`-${safeTo}.eml`))
    .sort(
      (a, b) =>
        Number(a.split("-")[0]) - Number(b.split("-")[0]) ||
        Number(a.split("-")[1]) - Number(b.split("-")[1]),
    )
    .map((name) => {
      const raw = fs.readFileSync(path.join(server.mailDir, name), "utf8");
      const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
      // Adjacent encoded words are one string (RFC 2047); join them before decoding.
      const subject = subjectLine
        .replace(/\r?\n[ \t]/g, " ")
        .replace(/\?=\s+=\?utf-8\?Q\?/gi, "")
        .replace(/=\?utf-8\?Q\?(.*?)\?=/gi, (_, q: string) =>
          decodeQuotedPrintable(q.replace(/_/g, " ")),
        )
        .replace(/=\?utf-8\?B\?(.*?)\?=/gi, (_, b: string) =>
          Buffer.from(b, "base64").toString("utf8"),
        );
      return { file: name, to, subject, body: decodeQuotedPrintable(raw) };
    });
}

/** Waits until a mail for `to` whose subject matches arrives (delivery runs right after the commit). */
export async function waitForMail(server: Server, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(() => (found = readMails(server, to).find((m) => subject.test(m.subject))), {
      message: `correo "${subject}" para ${to}`,
      timeout: 10_000,
    })
    .toBeTruthy();
  return found!;
}

export function linkIn(mail: Mail, pathPrefix: string): string {
  const match = new RegExp(
    `https?://[^\\s"<>]+${pathPrefix.replace(/[/?]/g, "\\$&")}[^\\s"<>]*`,
  ).exec(mail.body);
  if (!match)
    throw new Error(`No hay enlace ${pathPrefix} en el correo "${mail.subject}":\n${mail.body}`);
  return match[0].replace(/&amp;/g, "&");
}

/** Takes a full-page screenshot into test-results/screens for review (desktop and phone width). */
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

/** A page in a new browser context signed in as `user`, with the running project's JavaScript setting. */
export async function signedInPage(
  browser: Browser,
  server: Server,
  loginAs: (user: TestUser, context: BrowserContext) => Promise<void>,
  user: TestUser,
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    javaScriptEnabled: test.info().project.name === "js",
    locale: "es-ES",
  });
  await loginAs(user, context);
  return context.newPage();
}
