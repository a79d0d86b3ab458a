/**
 * /admin/system: what an operator sees (sizes, copies, queues, failures, warnings), and that no
 * one else gets the page.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { readReplication, getSystemStatus } from "~/models/system.server";
import { recordBackup } from "~/services/backup.server";
import { db, now } from "~/services/db.server";
import { startSession } from "~/services/session.server";
import { makeUser } from "./factories";

const BASE = "http://localhost:3999";

async function asUser(userId: number) {
  const setCookie = await startSession(db, new Request(BASE), userId);
  return new Request(`${BASE}/admin/system`, { headers: { Cookie: setCookie.split(";")[0]! } });
}

async function load(userId: number) {
  const route = await import("~/routes/admin_.system");
  try {
    return await route.loader({ request: await asUser(userId), params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("/admin/system", () => {
  it("a buyer or a partner gets not-found", async () => {
    for (const role of ["buyer", "partner"] as const) {
      const answer = await load(await makeUser(role));
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(404);
    }
  });

  it("shows the operator the database, queues with their last failures, disk and version", async () => {
    await db
      .insertInto("mail_outbox")
      .values({
        to_address: "rosa@ejemplo.test",
        subject: "Tu cotización está lista",
        text_body: "x",
        html_body: "x",
        status: "failed",
        attempts: 5,
        last_error: "550 buzón inexistente",
        next_attempt_at: now(),
        failed_at: now(),
      })
      .execute();
    await db
      .insertInto("jobs")
      .values({
        kind: "deadline_reminder",
        key: "sistema-1",
        payload: "{}",
        run_at: now(),
        last_error: "boom",
      })
      .execute();
    const answer = (await load(await makeUser("admin"))) as Awaited<
      ReturnType<typeof getSystemStatus>
    > extends infer S
      ? { status: S }
      : never;
    const s = answer.status;
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(s.database.bytes).toBeGreaterThan(0);
    expect(s.disk?.freeBytes).toBeGreaterThan(0);
    expect(s.mail).toMatchObject({ failed: 1 });
    expect(s.mail.lastFailures[0]).toMatchObject({
      what: "Tu cotización está lista",
      error: "550 buzón inexistente",
    });
    expect(s.jobs.waiting).toBeGreaterThanOrEqual(1);
    expect(s.jobs.lastFailures[0]).toMatchObject({ what: "deadline_reminder", error: "boom" });
  });

  it("warns while no copy exists, or the last one is over an hour old with changes after it", async () => {
    const never = await getSystemStatus(db);
    expect(never.warnings.join(" ")).toContain("nunca se ha hecho una copia de seguridad");

    await recordBackup(db, { archive: "/copias/hoy.tar.gz", ok: true, bytes: 2048, files: 3 });
    const fresh = await getSystemStatus(db);
    expect(fresh.lastBackup).toMatchObject({ archive: "/copias/hoy.tar.gz", files: 3 });
    expect(fresh.warnings).toEqual([]);

    // Two hours later, with writes since the backup.
    const later = await getSystemStatus(db, Date.now() + 2 * 60 * 60 * 1000);
    expect(later.warnings).toEqual([]);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    await sql`UPDATE backup_runs SET finished_at = ${twoHoursAgo}`.execute(db);
    await makeUser("buyer");
    const stale = await getSystemStatus(db);
    expect(stale.warnings.join(" ")).toContain(
      "la última copia de seguridad tiene más de una hora",
    );

    await recordBackup(db, { archive: "/copias/rota.tar.gz", ok: false, error: "disco lleno" });
    const failed = await getSystemStatus(db);
    expect(failed.lastBackupFailure).toMatchObject({ error: "disco lleno" });
    expect(failed.warnings).toContain("La última copia de seguridad falló.");
  });

  it("reads when Litestream last wrote to a replica folder", async () => {
    const replica = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-replica-"));
    expect((await readReplication(`file://${replica}`)).problem).toBe("La réplica está vacía.");
    fs.mkdirSync(path.join(replica, "generations", "abc", "wal"), { recursive: true });
    fs.writeFileSync(path.join(replica, "generations", "abc", "wal", "0000.wal.lz4"), "x");
    const read = await readReplication(`file://${replica}`);
    expect(read.problem).toBeNull();
    expect(Date.now() - Date.parse(read.lastAt!)).toBeLessThan(60_000);
    expect((await readReplication("s3://usuario:clave@bucket/db")).target).not.toContain("clave");
    fs.rmSync(replica, { recursive: true, force: true });
  });
});
