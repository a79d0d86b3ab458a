/**
 * Scheduled work on this file's own migrated database (tests/setup.ts). Extra connections to the same
 * SQLite file stand in for other server processes (and real child processes where the work holds a
 * write transaction): each job runs once however many poll, a crashed process's claim is taken
 * over, failures are retried with back-off and then given up on, and the deadline reminder reaches
 * each invited partner exactly once.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AssignmentState, RequestStatus } from "../../db/schema";
import {
  DEADLINE_REMINDER,
  scheduleDeadlineReminders,
  sendDeadlineReminder,
} from "~/models/deadline-reminder.server";
import { JOB_HANDLERS } from "~/models/scheduled-jobs.server";
import { runScheduledWork, sweepExpiredData } from "~/services/background.server";
import { db, openDatabase, writeTransaction, type DB } from "~/services/db.server";
import { env } from "~/services/env.server";
import {
  MAX_JOB_ATTEMPTS,
  runDueJobs,
  scheduleJob,
  startPolling,
  type JobHandlers,
} from "~/services/jobs.server";
import { enqueueMail } from "~/services/mailer.server";
import { formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { makeRequest, makeUser } from "./factories";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-12-01T10:00:00.000Z");

const opened: DB[] = [];

/** Another server process: its own connection to the same database file. */
function connect(): DB {
  const connection = openDatabase(env.databasePath);
  opened.push(connection);
  return connection;
}

/** The clock of every process, from `at` on (only Date: timers stay real). */
function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(at));
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((connection) => connection.destroy()));
  // Each test schedules its own jobs; none may come due in another test's clock.
  await db.deleteFrom("jobs").execute();
});

const jobRows = (keyPrefix: string) =>
  db.selectFrom("jobs").selectAll().where("key", "like", `${keyPrefix}%`).orderBy("id").execute();

const schedule = (job: Parameters<typeof scheduleJob>[1]) =>
  writeTransaction(db, (tx) => scheduleJob(tx, job));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scheduling", () => {
  it("scheduling one key twice keeps one row, with the later time and payload", async () => {
    clockAt(T0);
    await schedule({
      kind: "report",
      key: "report:7",
      runAt: new Date(T0 + HOUR),
      payload: { v: 1 },
    });
    await schedule({
      kind: "report",
      key: "report:7",
      runAt: new Date(T0 + 2 * HOUR),
      payload: { v: 2 },
    });

    const rows = await jobRows("report:");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      run_at: new Date(T0 + 2 * HOUR).toISOString(),
      payload: JSON.stringify({ v: 2 }),
      done_at: null,
    });

    const seen: unknown[] = [];
    const handlers: JobHandlers = { report: async (run) => void seen.push(run.payload) };
    vi.setSystemTime(new Date(T0 + HOUR + MINUTE));
    expect(await runDueJobs(db, handlers)).toBe(0);
    vi.setSystemTime(new Date(T0 + 2 * HOUR + MINUTE));
    expect(await runDueJobs(db, handlers)).toBe(1);
    expect(seen).toEqual([{ v: 2 }]);

    // Done is done: scheduling the same thing again neither adds a row nor runs it again.
    await schedule({ kind: "report", key: "report:7", runAt: new Date(T0), payload: { v: 3 } });
    expect(await runDueJobs(db, handlers)).toBe(0);
    const [after] = await jobRows("report:");
    expect(after).toMatchObject({ id: rows[0].id, payload: JSON.stringify({ v: 2 }) });
    expect(after.done_at).not.toBeNull();
    expect(await jobRows("report:")).toHaveLength(1);
    expect(seen).toEqual([{ v: 2 }]);
  });

  it("a process leaves alone the jobs of kinds it has no handler for", async () => {
    await schedule({ kind: "digest", key: "digest:1", runAt: new Date(Date.now() - MINUTE) });
    expect(await runDueJobs(db, { report: async () => {} })).toBe(0);
    expect(await jobRows("digest:")).toMatchObject([
      { attempts: 0, claimed_at: null, done_at: null, failed_at: null },
    ]);
  });
});

describe("several processes polling", () => {
  it("two processes passing over the same due jobs at once run each exactly once", async () => {
    const ran: number[] = [];
    const handlers: JobHandlers = {
      count: async (run) => {
        await pause(2);
        ran.push((run.payload as { n: number }).n);
      },
    };
    await writeTransaction(db, async (tx) => {
      for (let n = 1; n <= 20; n++) {
        await scheduleJob(tx, {
          kind: "count",
          key: `count:${n}`,
          runAt: new Date(Date.now() - MINUTE),
          payload: { n },
        });
      }
    });

    const [a, b] = [connect(), connect()];
    const done = await Promise.all([runDueJobs(a, handlers), runDueJobs(b, handlers)]);

    expect(done[0] + done[1]).toBe(20);
    expect([...ran].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const rows = await jobRows("count:");
    expect(rows.every((row) => row.done_at && row.attempts === 1 && !row.claim_token)).toBe(true);
    expect(await Promise.all([runDueJobs(a, handlers), runDueJobs(b, handlers)])).toEqual([0, 0]);
    expect(ran).toHaveLength(20);
  });

  it("a claim left by a crashed process is taken over after a minute; a fresh one is left alone", async () => {
    const ran: string[] = [];
    const handlers: JobHandlers = { count: async (run) => void ran.push(run.key) };
    const due = new Date(Date.now() - 5 * MINUTE);
    await schedule({ kind: "count", key: "count:crashed", runAt: due });
    await schedule({ kind: "count", key: "count:running", runAt: due });
    const claim = (key: string, agoMs: number) =>
      db
        .updateTable("jobs")
        .set((eb) => ({
          claimed_at: new Date(Date.now() - agoMs).toISOString(),
          claim_token: `process-${key}`,
          attempts: eb("attempts", "+", 1),
        }))
        .where("key", "=", key)
        .execute();
    await claim("count:crashed", 90_000);
    await claim("count:running", 20_000);

    const [a, b] = [connect(), connect()];
    const done = await Promise.all([runDueJobs(a, handlers), runDueJobs(b, handlers)]);

    expect(done[0] + done[1]).toBe(1);
    expect(ran).toEqual(["count:crashed"]);
    const [crashed, running] = await jobRows("count:");
    expect(crashed).toMatchObject({ attempts: 2, claim_token: null });
    expect(crashed.done_at).not.toBeNull();
    expect(running).toMatchObject({
      attempts: 1,
      claim_token: "process-count:running",
      done_at: null,
    });
  });

  it("a run whose claim was taken over cannot complete the job a second time", async () => {
    clockAt(T0);
    const effects: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handlerFor =
      (who: string, wait: Promise<void> | null): JobHandlers[string] =>
      async (run) => {
        if (wait) await wait;
        await writeTransaction(run.database, async (tx) => {
          if (await run.completeIn(tx)) effects.push(who);
        });
      };
    await schedule({ kind: "slow", key: "slow:1", runAt: new Date(T0) });

    const stalled = runDueJobs(connect(), { slow: handlerFor("stalled", gate) });
    await vi.waitFor(async () => expect((await jobRows("slow:"))[0].claim_token).not.toBeNull());
    // Its process stopped answering (no renewal for two minutes): another one takes the job over.
    vi.setSystemTime(new Date(T0 + 2 * MINUTE));
    expect(await runDueJobs(connect(), { slow: handlerFor("other", null) })).toBe(1);

    release();
    await stalled;
    expect(effects).toEqual(["other"]);
    const [row] = await jobRows("slow:");
    expect(row).toMatchObject({ attempts: 2, claim_token: null, last_error: null });
    expect(row.done_at).not.toBeNull();
  });

  it("a job whose every run died with its process is given up on instead of run again", async () => {
    const ran: string[] = [];
    await schedule({ kind: "count", key: "count:poison", runAt: new Date(Date.now() - HOUR) });
    await db
      .updateTable("jobs")
      .set({
        attempts: MAX_JOB_ATTEMPTS,
        claimed_at: new Date(Date.now() - 2 * MINUTE).toISOString(),
        claim_token: "dead-process",
      })
      .where("key", "=", "count:poison")
      .execute();

    expect(await runDueJobs(db, { count: async (run) => void ran.push(run.key) })).toBe(0);
    expect(ran).toEqual([]);
    const [row] = await jobRows("count:poison");
    expect(row).toMatchObject({ done_at: null, claim_token: null });
    expect(row.failed_at).not.toBeNull();
  });
});

describe("failures", () => {
  it("a failing job records its error and is retried after a growing back-off, then given up on", async () => {
    clockAt(T0);
    const calls: number[] = [];
    const handlers: JobHandlers = {
      flaky: async () => {
        calls.push(Date.now());
        throw new Error("Servicio externo no disponible");
      },
    };
    await schedule({ kind: "flaky", key: "flaky:1", runAt: new Date(T0) });

    expect(await runDueJobs(db, handlers)).toBe(0);
    const [first] = await jobRows("flaky:");
    expect(first).toMatchObject({
      attempts: 1,
      last_error: "Servicio externo no disponible",
      run_at: new Date(T0 + MINUTE).toISOString(),
      claim_token: null,
      done_at: null,
      failed_at: null,
    });

    // Not before its back-off has passed.
    vi.setSystemTime(new Date(T0 + 30_000));
    expect(await runDueJobs(db, handlers)).toBe(0);
    expect(calls).toHaveLength(1);

    for (let pass = 0; pass < 10; pass++) {
      const [row] = await jobRows("flaky:");
      if (row.failed_at) break;
      vi.setSystemTime(new Date(row.run_at));
      await runDueJobs(db, handlers);
    }
    expect(calls).toHaveLength(MAX_JOB_ATTEMPTS);
    const gaps = calls.slice(1).map((at, i) => (at - calls[i]) / MINUTE);
    expect(gaps).toEqual([1, 2, 4, 8].slice(0, MAX_JOB_ATTEMPTS - 1));
    const [last] = await jobRows("flaky:");
    expect(last).toMatchObject({
      attempts: MAX_JOB_ATTEMPTS,
      last_error: "Servicio externo no disponible",
      done_at: null,
    });
    expect(last.failed_at).not.toBeNull();

    vi.setSystemTime(new Date(T0 + 7 * DAY));
    expect(await runDueJobs(db, handlers)).toBe(0);
    expect(calls).toHaveLength(MAX_JOB_ATTEMPTS);
  });

  it("a job that fails once and then works ends done, with its error cleared", async () => {
    clockAt(T0);
    let calls = 0;
    const handlers: JobHandlers = {
      flaky: async () => {
        if (++calls === 1) throw new Error("Tiempo de espera agotado");
      },
    };
    await schedule({ kind: "flaky", key: "flaky:2", runAt: new Date(T0) });
    await runDueJobs(db, handlers);
    vi.setSystemTime(new Date(T0 + 2 * MINUTE));
    expect(await runDueJobs(db, handlers)).toBe(1);
    const [row] = await jobRows("flaky:2");
    expect(row).toMatchObject({ attempts: 2, last_error: null, failed_at: null });
    expect(row.done_at).not.toBeNull();
  });
});

// ---- The deadline reminder

async function requestWithPartners(
  deadline: number,
  states: AssignmentState[],
  status: RequestStatus = "assigned",
) {
  const buyerId = await makeUser("buyer");
  const requestId = await makeRequest(buyerId, status, "Tubería de cobre 50 m");
  await db
    .updateTable("quote_requests")
    .set({ quote_deadline: new Date(deadline).toISOString() })
    .where("id", "=", requestId)
    .execute();
  const partners: { partnerId: number; assignmentId: number }[] = [];
  for (const state of states) {
    const partnerId = await makeUser("partner");
    const { id } = await db
      .insertInto("partner_assignments")
      .values({ partner_id: partnerId, quote_request_id: requestId, state })
      .returning("id")
      .executeTakeFirstOrThrow();
    partners.push({ partnerId, assignmentId: id });
  }
  return { requestId, partners };
}

const scheduleReminders = (requestId: number) =>
  writeTransaction(db, (tx) => scheduleDeadlineReminders(tx, requestId));

const setState = (assignmentId: number, state: AssignmentState) =>
  db.updateTable("partner_assignments").set({ state }).where("id", "=", assignmentId).execute();

const moveDeadline = (requestId: number, deadline: number) =>
  db
    .updateTable("quote_requests")
    .set({ quote_deadline: new Date(deadline).toISOString() })
    .where("id", "=", requestId)
    .execute();

const notificationsOf = (userId: number) =>
  db
    .selectFrom("notifications")
    .select(["type", "title", "message", "link", "related_type", "related_id"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();

const mailsTo = (userId: number) =>
  db
    .selectFrom("mail_outbox")
    .innerJoin("users", "users.email", "mail_outbox.to_address")
    .select(["mail_outbox.subject", "mail_outbox.text_body"])
    .where("users.id", "=", userId)
    .execute();

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Server processes (real ones: a write transaction in one connection would block a second
 * connection of the same thread) that each run one tick of their poller, all at the same moment.
 */
async function processesPoll(count: number): Promise<void> {
  const children = Array.from({ length: count }, () =>
    spawn(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [path.join(import.meta.dirname, "processes/scheduler-tick.ts")],
      { cwd: ROOT, env: process.env, stdio: ["pipe", "pipe", "inherit"] },
    ),
  );
  const said = (child: (typeof children)[number], word: string) =>
    new Promise<void>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        if (line === word) resolve();
      });
      child.once("exit", (code) => reject(new Error(`process ended (${code}) before «${word}»`)));
    });
  await Promise.all(children.map((child) => said(child, "ready")));
  const done = children.map((child) => said(child, "done"));
  for (const child of children) child.stdin!.write("go\n");
  await Promise.all(done);
}

/** What a pass at the reminder's time would find: the reminders due now. */
const reminderTimeCame = () =>
  db
    .updateTable("jobs")
    .set({ run_at: new Date(Date.now() - MINUTE).toISOString() })
    .where("kind", "=", DEADLINE_REMINDER)
    .execute();

const TITLE = "Recordatorio: la solicitud «Tubería de cobre 50 m» vence pronto";

describe("deadline reminder", () => {
  it("reaches each partner still invited once, 24 h before the deadline", async () => {
    clockAt(T0);
    const deadline = T0 + 3 * DAY;
    const { requestId, partners } = await requestWithPartners(deadline, [
      "invited",
      "invited",
      "invited",
      "invited",
      "declined",
    ]);
    const [first, second, offers, declines, declinedBefore] = partners;
    await scheduleReminders(requestId);
    const jobs = await jobRows(`${DEADLINE_REMINDER}:`);
    expect(jobs.map((job) => job.run_at)).toEqual(
      Array(4).fill(new Date(deadline - DAY).toISOString()),
    );

    // Before the reminders are due, one partner offers and another declines.
    await setState(offers.assignmentId, "offered");
    await setState(declines.assignmentId, "declined");
    vi.setSystemTime(new Date(deadline - DAY - HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    expect(await notificationsOf(first.partnerId)).toEqual([]);

    vi.setSystemTime(new Date(deadline - 23 * HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    await runScheduledWork(JOB_HANDLERS, db);

    for (const { partnerId } of [first, second]) {
      expect(await notificationsOf(partnerId)).toEqual([
        {
          type: "warning",
          title: TITLE,
          message: `El plazo para enviar tu oferta vence el ${formatDateTime(new Date(deadline))}. Envía tu oferta antes de esa hora o, si no puedes cotizar esta solicitud, declina la invitación.`,
          link: paths.partner.assignment(requestId),
          related_type: "assignment",
          related_id: requestId,
        },
      ]);
      const mails = await mailsTo(partnerId);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(TITLE);
      expect(mails[0].text_body).toContain("vence el 4 dic 2026, 10:00 UTC");
    }
    for (const { partnerId } of [offers, declines, declinedBefore]) {
      expect(await notificationsOf(partnerId)).toEqual([]);
      expect(await mailsTo(partnerId)).toEqual([]);
    }
    expect((await jobRows(`${DEADLINE_REMINDER}:`)).every((job) => job.done_at)).toBe(true);
  });

  it("is sent once per invited partner when two server processes poll at the same moment", async () => {
    // Real processes keep the real clock: the reminders are made due instead of time moved on.
    const deadline = Date.now() + 3 * DAY;
    const invited: number[] = [];
    const others: number[] = [];
    for (let round = 0; round < 3; round++) {
      const { requestId, partners } = await requestWithPartners(deadline, [
        "invited",
        "invited",
        "invited",
        "invited",
        "invited",
      ]);
      await scheduleReminders(requestId);
      const [offered, ...stillInvited] = partners;
      await setState(offered.assignmentId, "offered");
      invited.push(...stillInvited.map((partner) => partner.partnerId));
      others.push(offered.partnerId);
    }
    await reminderTimeCame();

    await processesPoll(2);

    for (const partnerId of invited) {
      expect(await notificationsOf(partnerId)).toMatchObject([{ title: TITLE }]);
      expect(await mailsTo(partnerId)).toHaveLength(1);
    }
    for (const partnerId of others) expect(await notificationsOf(partnerId)).toEqual([]);
    const jobs = await jobRows(`${DEADLINE_REMINDER}:`);
    expect(jobs).toHaveLength(15);
    expect(jobs.every((job) => job.done_at && job.attempts === 1)).toBe(true);
  });

  it("is not sent again when its process fails right after sending it", async () => {
    clockAt(T0);
    const deadline = T0 + 3 * DAY;
    const { requestId, partners } = await requestWithPartners(deadline, ["invited"]);
    await scheduleReminders(requestId);
    vi.setSystemTime(new Date(deadline - 23 * HOUR));
    await runDueJobs(db, {
      [DEADLINE_REMINDER]: async (run) => {
        await sendDeadlineReminder(run);
        throw new Error("El proceso terminó antes de cerrar el trabajo");
      },
    });

    vi.setSystemTime(new Date(deadline - 20 * HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    expect(await notificationsOf(partners[0].partnerId)).toHaveLength(1);
    const [job] = await jobRows(`${DEADLINE_REMINDER}:${partners[0].assignmentId}:`);
    expect(job).toMatchObject({ attempts: 1, last_error: null, failed_at: null });
    expect(job.done_at).not.toBeNull();
  });

  it("is not sent for a request no longer open to offers", async () => {
    clockAt(T0);
    const deadline = T0 + 3 * DAY;
    const { requestId, partners } = await requestWithPartners(deadline, ["invited"]);
    await scheduleReminders(requestId);
    await db
      .updateTable("quote_requests")
      .set({ status: "cancelled" })
      .where("id", "=", requestId)
      .execute();

    vi.setSystemTime(new Date(deadline - 23 * HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    expect(await notificationsOf(partners[0].partnerId)).toEqual([]);
  });

  it("after the deadline moves, the old reminder sends nothing and the new deadline's is sent once", async () => {
    clockAt(T0);
    const oldDeadline = T0 + 3 * DAY;
    const newDeadline = T0 + 5 * DAY;
    const { requestId, partners } = await requestWithPartners(oldDeadline, ["invited"]);
    const [{ partnerId }] = partners;
    await scheduleReminders(requestId);
    vi.setSystemTime(new Date(T0 + DAY));
    await moveDeadline(requestId, newDeadline);
    await scheduleReminders(requestId);
    expect((await jobRows(`${DEADLINE_REMINDER}:`)).map((job) => job.run_at)).toEqual([
      new Date(oldDeadline - DAY).toISOString(),
      new Date(newDeadline - DAY).toISOString(),
    ]);

    vi.setSystemTime(new Date(oldDeadline - 23 * HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    expect(await notificationsOf(partnerId)).toEqual([]);

    vi.setSystemTime(new Date(newDeadline - 23 * HOUR));
    await runScheduledWork(JOB_HANDLERS, db);
    await runScheduledWork(JOB_HANDLERS, db);
    const notices = await notificationsOf(partnerId);
    expect(notices).toHaveLength(1);
    expect(notices[0].message).toContain(`vence el ${formatDateTime(new Date(newDeadline))}`);
  });

  it("is not scheduled when less than a day is left", async () => {
    clockAt(T0);
    const soon = await requestWithPartners(T0 + 12 * HOUR, ["invited"]);
    await scheduleReminders(soon.requestId);
    expect(await jobRows(`${DEADLINE_REMINDER}:${soon.partners[0].assignmentId}:`)).toEqual([]);

    const later = await requestWithPartners(T0 + DAY + HOUR, ["invited"]);
    await scheduleReminders(later.requestId);
    await scheduleReminders(later.requestId);
    expect(await jobRows(`${DEADLINE_REMINDER}:${later.partners[0].assignmentId}:`)).toMatchObject([
      { run_at: new Date(T0 + HOUR).toISOString() },
    ]);
  });

  it("one that came due while the server was down is sent at start-up, unless the deadline passed too", async () => {
    clockAt(T0);
    const open = await requestWithPartners(T0 + 3 * DAY, ["invited"]);
    const missed = await requestWithPartners(T0 + 2 * DAY, ["invited"]);
    await scheduleReminders(open.requestId);
    await scheduleReminders(missed.requestId);

    // Nothing polled while the server was down; it starts again 22 h after the first reminder was
    // due, after the second request's deadline.
    vi.setSystemTime(new Date(T0 + 3 * DAY - 2 * HOUR));
    expect(await notificationsOf(open.partners[0].partnerId)).toEqual([]);
    const database = connect();
    const stop = startPolling(() => runScheduledWork(JOB_HANDLERS, database), HOUR);
    try {
      await vi.waitFor(async () => {
        const jobs = await jobRows(`${DEADLINE_REMINDER}:`);
        expect(jobs.map((job) => Boolean(job.done_at))).toEqual([true, true]);
      });
    } finally {
      stop();
    }
    expect(await notificationsOf(open.partners[0].partnerId)).toMatchObject([{ title: TITLE }]);
    expect(await notificationsOf(missed.partners[0].partnerId)).toEqual([]);
  });
});

describe("the poller and the outbox", () => {
  it("a mail that failed for a moment goes out on the first tick after its back-off", async () => {
    clockAt(T0);
    const to = "reintento@ejemplo.test";
    const outbox = () =>
      db
        .selectFrom("mail_outbox")
        .select(["status", "attempts", "last_error", "next_attempt_at"])
        .where("to_address", "=", to)
        .executeTakeFirstOrThrow();

    // The mail folder cannot be written for a moment: a file stands where its parent should be.
    const mailDir = env.mailDir;
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-jobs-")), "file");
    fs.writeFileSync(blocker, "");
    env.mailDir = path.join(blocker, "mail");
    try {
      await enqueueMail(db, { to, subject: "Pago confirmado", paragraphs: ["Gracias."] });
      await runScheduledWork(JOB_HANDLERS, connect());
    } finally {
      env.mailDir = mailDir;
    }
    const failed = await outbox();
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed.last_error).toMatch(/ENOTDIR|EEXIST/);

    await runScheduledWork(JOB_HANDLERS, connect());
    expect(await outbox()).toMatchObject({ status: "pending", attempts: 1 });

    vi.setSystemTime(new Date(Date.parse(failed.next_attempt_at) + 1));
    await runScheduledWork(JOB_HANDLERS, connect());
    expect(await outbox()).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    const files = fs.readdirSync(env.mailDir).filter((name) => name.endsWith(`-${to}.eml`));
    expect(files).toHaveLength(1);
  });
});

describe("sweep", () => {
  it("deletes jobs done more than 30 days ago and keeps the rest", async () => {
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    for (const [key, doneAt] of [
      ["sweep:old", ago(31 * DAY)],
      ["sweep:recent", ago(29 * DAY)],
      ["sweep:open", null],
    ] as const) {
      await schedule({ kind: "count", key, runAt: new Date(Date.now() + DAY) });
      await db.updateTable("jobs").set({ done_at: doneAt }).where("key", "=", key).execute();
    }
    await sweepExpiredData(db);
    expect((await jobRows("sweep:")).map((job) => job.key)).toEqual(["sweep:recent", "sweep:open"]);
  });
});
