/**
 * Migrates one database for the whole vitest run; each test file starts from a copy of it
 * (tests/setup.ts) instead of running every migration again, as the journeys already do
 * (tests/e2e/global-setup.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "./e2e/server";

export default async function globalSetup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-vitest-template-"));
  const file = path.join(dir, "template.sqlite");
  await migrate(file);
  // The forked workers inherit the environment of the process that ran global setup.
  process.env.VITEST_DB_TEMPLATE = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
