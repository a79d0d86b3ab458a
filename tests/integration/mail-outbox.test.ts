/**
 * The mail outbox on a real SQLite file of its own, with a fake transport: failed sends come back
 * after a back-off and go out exactly once; several workers (separate SQLite connections, as
 * separate server processes have) never send the same mail twice.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { openDatabase, type DB } from "~/services/db.server";
import { enqueueMail, processOutbox, type OutgoingMail } from "~/services/mailer.server";

const MINUTE = 60_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-outbox-"));
let file = "";
let database: DB;
const opened: DB[] = [];

function connect(): DB {
  const connection = openDatabase(file);
  opened.push(connection);
  return connection;
}

beforeEach(async () => {
  file = path.join(dir, `${crypto.randomUUID()}.sqlite`);
  database = connect();
  await migrateToLatest(database as never);
});

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((connection) => connection.destroy()));
});

async function enqueue(count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await enqueueMail(database, {
      to: `persona${i}@ejemplo.test`,
      subject: `Aviso ${i}`,
      paragraphs: [`Mensaje ${i}`],
    });
  }
}

/** A transport that records what it accepted and can be told to fail or to take its time. */
function fakeTransport({ failFirst = 0, delayMs = 0 } = {}) {
  const delivered: OutgoingMail[] = [];
  let calls = 0;
  const send = async (mail: OutgoingMail) => {
    calls++;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (calls <= failFirst) throw new Error("SMTP 451: inténtalo más tarde");
    delivered.push(mail);
  };
  return { send, delivered, calls: () => calls };
}

const rows = () =>
  database
    .selectFrom("mail_outbox")
    .select(["id", "status", "attempts", "last_error", "next_attempt_at", "sent_at"])
    .orderBy("id")
    .execute();

describe("mail outbox retries", () => {
  it("retries a failed send after its back-off and delivers it exactly once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-12-01T10:00:00.000Z");
    vi.setSystemTime(start);
    await enqueue(1);
    const transport = fakeTransport({ failFirst: 1 });

    expect(await processOutbox(database, transport.send)).toBe(0);
    const [failed] = await rows();
    expect(failed).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "SMTP 451: inténtalo más tarde",
      sent_at: null,
    });
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(start.getTime());

    // Before the back-off has passed, nothing is tried again.
    vi.setSystemTime(new Date(start.getTime() + 30_000));
    expect(await processOutbox(database, transport.send)).toBe(0);
    expect(transport.calls()).toBe(1);

    vi.setSystemTime(new Date(Date.parse(failed.next_attempt_at) + 1));
    expect(await processOutbox(database, transport.send)).toBe(1);
    expect(transport.delivered.map((m) => m.subject)).toEqual(["Aviso 1"]);
    expect(await rows()).toMatchObject([{ status: "sent", attempts: 2, last_error: null }]);

    // Later passes never send it again.
    vi.setSystemTime(new Date(start.getTime() + 24 * 60 * MINUTE));
    expect(await processOutbox(database, transport.send)).toBe(0);
    expect(transport.calls()).toBe(2);
  });

  it("gives up after the last attempt and keeps the error", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T10:00:00.000Z"));
    await enqueue(1);
    const transport = fakeTransport({ failFirst: 1_000 });
    for (let pass = 0; pass < 20; pass++) {
      await processOutbox(database, transport.send);
      vi.setSystemTime(new Date(Date.now() + 7 * 60 * MINUTE));
    }
    expect(transport.calls()).toBe(8);
    expect(await rows()).toMatchObject([{ status: "failed", attempts: 8, sent_at: null }]);
  });
});

describe("mail outbox with several workers", () => {
  it("two workers processing the outbox at once send every mail exactly once", async () => {
    await enqueue(12);
    const transport = fakeTransport({ delayMs: 5 });
    const [a, b] = [connect(), connect()];

    const sent = await Promise.all([
      processOutbox(a, transport.send),
      processOutbox(b, transport.send),
    ]);

    expect(sent[0] + sent[1]).toBe(12);
    const ids = transport.delivered.map((m) => m.id).sort((x, y) => x - y);
    expect(ids).toEqual([...new Set(ids)]);
    expect(ids).toHaveLength(12);
    expect((await rows()).every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("a mail left 'sending' by a crashed worker goes out once, after a minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-12-01T10:00:00.000Z");
    vi.setSystemTime(start);
    await enqueue(1);
    const crashed = processOutbox(connect(), () => new Promise<void>(() => {}));
    await vi.waitFor(async () => expect((await rows())[0].status).toBe("sending"));

    const transport = fakeTransport();
    vi.setSystemTime(new Date(start.getTime() + 50_000));
    expect(await processOutbox(database, transport.send)).toBe(0);

    vi.setSystemTime(new Date(start.getTime() + MINUTE + 1_000));
    const [a, b] = [connect(), connect()];
    const sent = await Promise.all([
      processOutbox(a, transport.send),
      processOutbox(b, transport.send),
    ]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(transport.delivered).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: "sent" }]);
    void crashed;
  });

  it("a worker that lost its claim cannot undo the newer claim's result", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-12-01T10:00:00.000Z");
    vi.setSystemTime(start);
    await enqueue(1);
    let failSlowSend: (error: Error) => void = () => {};
    const slow = processOutbox(
      connect(),
      () => new Promise<void>((_, reject) => (failSlowSend = reject)),
    );
    await vi.waitFor(async () => expect((await rows())[0].status).toBe("sending"));

    vi.setSystemTime(new Date(start.getTime() + 2 * MINUTE));
    const transport = fakeTransport();
    expect(await processOutbox(database, transport.send)).toBe(1);

    failSlowSend(new Error("timeout"));
    expect(await slow).toBe(0);
    expect(await rows()).toMatchObject([{ status: "sent", last_error: null }]);
    expect(transport.delivered).toHaveLength(1);
  });

  it("a live worker whose send takes minutes keeps its claim: the mail goes out once", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(new Date("2026-12-01T10:00:00.000Z"));
    await enqueue(1);
    const delivered: OutgoingMail[] = [];
    let finishSlowSend = () => {};
    const slow = processOutbox(
      connect(),
      (mail) =>
        new Promise<void>((resolve) => {
          finishSlowSend = () => {
            delivered.push(mail);
            resolve();
          };
        }),
    );
    await vi.waitFor(async () => expect((await rows())[0].status).toBe("sending"));

    // Three minutes into the send, the claim is still fresh, so another worker leaves it alone.
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    const other = fakeTransport();
    expect(await processOutbox(connect(), other.send)).toBe(0);
    expect(other.calls()).toBe(0);

    finishSlowSend();
    expect(await slow).toBe(1);
    expect(delivered).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: "sent", attempts: 1 }]);
  });
});
