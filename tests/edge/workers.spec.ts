/**
 * The built server with two worker processes on one SQLite file (server.js, WEB_CONCURRENCY=2):
 * due jobs both workers' first polls race for at start-up, then concurrent writers through HTTP
 * while both workers deliver the mail outbox; a setting changed through one worker and read through
 * both; a worker killed and replaced; a SIGTERM that stops the primary and its workers.
 */
import fs from "node:fs";
import type SQLite from "better-sqlite3";
import { startServer as startBuiltServer } from "../e2e/server";
import {
  childProcessesOf,
  count,
  cpuMsOf,
  createSession,
  createUser,
  expect,
  FORM,
  isRunning,
  PASSWORD,
  sameOrigin,
  send,
  stackTracesSince,
  test,
  uniqueEmail,
  urlencoded,
  validContact,
  type RawResponse,
  type Server,
  type TestUser,
} from "./helpers";

const LISTENING = /^CotizaHub escuchando en .* \(proceso (\d+), React de producción\)$/gm;

/** Pids of the workers that said they listen, in order (a replaced worker adds one). */
const listeningPids = (server: Server) =>
  [...server.log().matchAll(LISTENING)].map((match) => Number(match[1]));

/**
 * The built server with `workers` workers, once every one of them listens; `arrange` writes rows
 * into its database before any of them starts.
 */
async function startWorkers(
  workers: number,
  arrange?: (sql: SQLite.Database) => void,
): Promise<Server> {
  const server = await startBuiltServer({
    extraEnv: { WEB_CONCURRENCY: String(workers) },
    arrange,
    name: "workers",
  });
  // /healthcheck answers as soon as the first worker listens.
  await expect.poll(() => listeningPids(server).length, { timeout: 30_000 }).toBe(workers);
  expect(server.log()).toContain(
    `CotizaHub en modo producción (NODE_ENV=production), ${workers} procesos (WEB_CONCURRENCY)`,
  );
  expect(childProcessesOf(server.pid).sort()).toEqual(listeningPids(server).sort());
  return server;
}

/** Runs `tasks` with at most `limit` of them under way at once. */
async function inParallel<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

const HOUR = 60 * 60_000;

test("concurrent writers while both workers run the jobs and the outbox: no SQLITE_BUSY, no 5xx, every job and every mail once", async () => {
  // Twelve open requests inviting eight partners, each invitation's deadline reminder already due
  // (scheduleDeadlineReminders' rows, as the poll 24 h before the deadline finds them): the first
  // poll of each worker, at its start-up, finds the same 96 jobs.
  const deadline = new Date(Date.now() + 3 * 24 * HOUR).toISOString();
  const stamp = new Date().toISOString();
  let partners: TestUser[] = [];
  let admin: TestUser | undefined;
  const reminders: number[] = [];
  const server = await startWorkers(2, (sql) => {
    const db = { sql };
    admin = createUser(db, { role: "admin" });
    const buyer = createUser(db, { role: "buyer" });
    partners = Array.from({ length: 8 }, () => createUser(db, { role: "partner" }));
    const addRequest = sql.prepare(
      `INSERT INTO quote_requests (buyer_id, title, description, file_name, file_type, file_key, file_size, status, quote_deadline, created_at, updated_at)
       VALUES (?, ?, 'Carga de trabajo', 'requisitos.pdf', 'application/pdf', 'e2e/ninguno.pdf', 10, 'assigned', ?, ?, ?)`,
    );
    const invite = sql.prepare(
      `INSERT INTO partner_assignments (partner_id, quote_request_id, assigned_at) VALUES (?, ?, ?)`,
    );
    const schedule = sql.prepare(
      `INSERT INTO jobs (kind, key, payload, run_at) VALUES ('deadline_reminder', ?, ?, ?)`,
    );
    const due = new Date(Date.now() - 60_000).toISOString();
    for (let n = 1; n <= 12; n++) {
      const requestId = Number(
        addRequest.run(buyer.id, `Carga ${n}`, deadline, stamp, stamp).lastInsertRowid,
      );
      for (const partner of partners) {
        const assignmentId = Number(invite.run(partner.id, requestId, stamp).lastInsertRowid);
        const payload = JSON.stringify({ assignmentId, deadline });
        schedule.run(`deadline_reminder:${assignmentId}:${deadline}`, payload, due);
        reminders.push(assignmentId);
      }
    }
  });
  try {
    const { cookie } = await createSession(server, admin!);
    const [first, second] = listeningPids(server);
    const cpuBefore = [cpuMsOf(first!), cpuMsOf(second!)];

    // Each request on a fresh connection, so the primary hands them to both workers in turn.
    const signUps = Array.from({ length: 40 }, (_, n) => uniqueEmail(`alta${n}`));
    const tasks: (() => Promise<[string, RawResponse]>)[] = [
      ...signUps.map((email) => async () => {
        const body = urlencoded({
          first_name: "Carla",
          last_name: "Carga",
          email,
          password: PASSWORD,
          company_name: "Carga S.A.",
          phone: "+34 600 000 000",
          role: "buyer",
          website: "",
        });
        const res = await send(server, {
          method: "POST",
          path: "/auth/signup",
          headers: sameOrigin(server, FORM),
          body,
        });
        return [`alta ${email}`, res] as [string, RawResponse];
      }),
      // Ten: the most one address may send in the window (contact.server's CONTACT_LIMIT).
      ...Array.from({ length: 10 }, (_, n) => async () => {
        const res = await send(server, {
          method: "POST",
          path: "/contact",
          headers: sameOrigin(server, FORM),
          body: urlencoded(validContact(`carga ${n}`)),
        });
        return [`contacto ${n}`, res] as [string, RawResponse];
      }),
      ...Array.from({ length: 30 }, (_, n) => async () => {
        const res = await send(server, {
          path: n % 2 ? "/admin/quotes" : "/admin/contacts",
          headers: [["Cookie", cookie]],
        });
        return [`lectura ${n}`, res] as [string, RawResponse];
      }),
    ];
    // Interleaved: sign-ups, contact messages and page views arrive together.
    const answers = await inParallel(
      8,
      tasks.map((_, i) => tasks[(i * 7) % tasks.length]!),
    );

    for (const [what, res] of answers) {
      expect(res.error, what).toBeNull();
      expect([200, 302], `${what}: HTTP ${res.status}`).toContain(res.status);
    }
    for (const email of signUps) expect(count(server, "users", "email = ?", email), email).toBe(1);
    expect(count(server, "contact_submissions", "message LIKE 'Mensaje de prueba carga %'")).toBe(
      10,
    );

    // Every reminder ran once (one claim, done) and told its partner once.
    const jobsDone = () =>
      count(server, "jobs", "kind = 'deadline_reminder' AND done_at IS NOT NULL");
    await expect.poll(jobsDone, { timeout: 30_000 }).toBe(reminders.length);
    expect(
      server.sql
        .prepare(
          `SELECT key, attempts, failed_at, last_error FROM jobs WHERE kind = 'deadline_reminder' AND NOT (attempts = 1 AND failed_at IS NULL AND last_error IS NULL)`,
        )
        .all(),
    ).toEqual([]);
    for (const partner of partners) {
      expect(
        count(server, "notifications", "user_id = ? AND title LIKE 'Recordatorio:%'", partner.id),
      ).toBe(12);
    }

    // Every queued mail left once: sent on its first attempt, one .eml file per outbox row.
    const unsent = () => count(server, "mail_outbox", "status <> 'sent'");
    await expect.poll(unsent, { timeout: 45_000 }).toBe(0);
    expect(count(server, "mail_outbox", "attempts <> 1")).toBe(0);
    const outboxIds = (
      server.sql.prepare("SELECT id FROM mail_outbox ORDER BY id").all() as { id: number }[]
    ).map((row) => row.id);
    const filedIds = fs
      .readdirSync(server.mailDir)
      .map((file) => Number(/^\d+-(\d+)-/.exec(file)?.[1]))
      .sort((a, b) => a - b);
    expect(filedIds).toEqual(outboxIds);
    // One verification per sign-up, one mail per admin per contact message, one per reminder.
    const admins = count(server, "users", "role = 'admin' AND deactivated_at IS NULL");
    expect(outboxIds).toHaveLength(signUps.length + 10 * admins + reminders.length);
    for (const email of signUps)
      expect(count(server, "mail_outbox", "to_address = ?", email), email).toBe(1);

    // Both workers carried the load, and neither logged a failure.
    const cpuAfter = [cpuMsOf(first!), cpuMsOf(second!)];
    expect(cpuAfter[0]! - cpuBefore[0]!, `CPU del proceso ${first}`).toBeGreaterThan(300);
    expect(cpuAfter[1]! - cpuBefore[1]!, `CPU del proceso ${second}`).toBeGreaterThan(300);
    const log = server.log();
    expect(log).not.toMatch(/SQLITE_BUSY|database is locked|\[jobs\]|\[mail\]|\[sweep\]/);
    expect(stackTracesSince(server, 0)).toEqual([]);
    expect(childProcessesOf(server.pid).sort()).toEqual([first, second].sort());
  } finally {
    await server.stop();
  }
});

test("a setting saved through one worker is the one every worker uses next", async () => {
  const server = await startWorkers(2);
  try {
    const admin = createUser(server, { role: "admin" });
    const { cookie } = await createSession(server, admin);
    const quoteDays = async () => {
      const res = await send(server, { path: "/admin/settings", headers: [["Cookie", cookie]] });
      expect(res.status).toBe(200);
      return Number(
        /<input[^>]*name="quoteDays"[^>]*>/.exec(res.body)?.[0].match(/value="(\d+)"/)?.[1],
      );
    };
    // Both workers read (and keep) the settings first: fresh connections alternate between them.
    const before = await Promise.all(Array.from({ length: 4 }, quoteDays));
    const next = before[0] === 7 ? 8 : 7;
    const saved = await send(server, {
      method: "POST",
      path: "/admin/settings",
      headers: [...sameOrigin(server, FORM), ["Cookie", cookie]],
      body: urlencoded({
        sessionTimeoutMinutes: "60",
        maxLoginAttempts: "5",
        defaultCommission: "5",
        loyaltyPointsPerUnit: "1",
        minQuoteAmount: "100.00",
        quoteDays: String(next),
        defaultTaxRate: "0",
        currency: "USD",
        paymentInstructions: "",
      }),
    });
    expect(saved.status).toBe(302);
    for (let i = 0; i < 6; i++) expect(await quoteDays(), `lectura ${i}`).toBe(next);
  } finally {
    await server.stop();
  }
});

test("a worker that dies is replaced; SIGTERM stops the primary and every worker", async () => {
  const server = await startWorkers(2);
  try {
    const [victim, survivor] = listeningPids(server);
    process.kill(victim!, "SIGKILL");
    await expect
      .poll(() => server.log())
      .toContain(`El proceso ${victim} del servidor terminó con la señal SIGKILL: se inicia otro.`);
    await expect.poll(() => listeningPids(server).length, { timeout: 30_000 }).toBe(3);
    const replacement = listeningPids(server)[2]!;
    expect(childProcessesOf(server.pid).sort()).toEqual([survivor, replacement].sort());
    for (let i = 0; i < 4; i++) {
      expect((await send(server, { path: "/healthcheck" })).status).toBe(200);
    }

    process.kill(server.pid, "SIGTERM");
    await expect
      .poll(() => [server.pid, survivor!, replacement].filter(isRunning), { timeout: 15_000 })
      .toEqual([]);
    expect(stackTracesSince(server, 0)).toEqual([]);
  } finally {
    await server.stop();
  }
});
