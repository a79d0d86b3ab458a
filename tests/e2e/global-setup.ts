/**
 * Migrates one database for the whole run; every server starts from a copy of it instead of
 * running the migrations again (epic-stack's ADR 038: copying a file costs next to nothing).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, TEMPLATE_ENV } from "./server";

export default async function globalSetup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-e2e-template-"));
  const file = path.join(dir, "template.sqlite");
  await migrate(file);
  // Workers inherit the environment of the process that ran global setup.
  process.env[TEMPLATE_ENV] = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
