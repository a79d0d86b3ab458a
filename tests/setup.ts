/**
 * Runs before each test file, before any app module is imported: points the app at a fresh
 * SQLite file (a copy of the run's migrated template, tests/global-setup.ts) and fresh folders.
 * Files never share state.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-test-"));
process.env.NODE_ENV = "test";
process.env.DATABASE_PATH = path.join(dir, "app.sqlite");
process.env.UPLOADS_DIR = path.join(dir, "uploads");
process.env.MAIL_DIR = path.join(dir, "mail");
process.env.SESSION_SECRET = "secreto-de-pruebas-no-usar-en-produccion";
process.env.APP_URL = "http://localhost:3999";
delete process.env.SMTP_URL;

const template = process.env.VITEST_DB_TEMPLATE;
if (template && fs.existsSync(template)) fs.copyFileSync(template, process.env.DATABASE_PATH);

const { migrateToLatest } = await import("../db/migrate");
const { db } = await import("../app/services/db.server");
// Nothing left to run on the template's copy; a file run without the template migrates here.
await migrateToLatest(db as never);
