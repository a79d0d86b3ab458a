/**
 * Times a request page's conversations with 500 messages in each thread (DECISIONS §8: a request
 * with 500 messages stays fast): the model calls behind the buyer's and the operator's request
 * pages (the latest window, marked read), an older page of a thread, and the unread counts of a
 * list page. Runs on a throwaway database in a temp folder unless DATABASE_PATH is given.
 * Usage: npx tsx bench/thread.ts [messages per thread, default 500]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const PER_THREAD = Number(process.argv[2] ?? 500);
const RUNS = 30;

if (!process.env.DATABASE_PATH) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-bench-thread-"));
  process.env.DATABASE_PATH = path.join(dir, "app.sqlite");
  process.env.UPLOADS_DIR = path.join(dir, "uploads");
  process.env.MAIL_DIR = path.join(dir, "mail");
}

const { migrateToLatest } = await import("../db/migrate");
const { db, now } = await import("../app/services/db.server");
const { assignPartner } = await import("../app/models/quote-lifecycle.server");
const { loadRequestThreads, postMessage, unreadCountsFor } =
  await import("../app/models/thread.server");
await migrateToLatest(db as never);

async function user(role: "admin" | "buyer" | "partner", n: number) {
  const stamp = now();
  const { id } = await db
    .insertInto("users")
    .values({
      email: `bench-thread-${role}${n}-${Date.now()}@ejemplo.test`,
      password_hash: "x",
      first_name: "Bench",
      last_name: `${role} ${n}`,
      company_name: `Empresa ${n}`,
      role,
      email_verified_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, role };
}

const admin = await user("admin", 1);
const buyer = await user("buyer", 1);
const partners = [await user("partner", 1), await user("partner", 2)];
const stamp = now();
const { id: requestId } = await db
  .insertInto("quote_requests")
  .values({
    buyer_id: buyer.id,
    title: "Solicitud con muchos mensajes",
    description: null,
    file_name: "r.pdf",
    file_type: "application/pdf",
    file_key: "bench/r.pdf",
    file_size: 1,
    status: "pending",
    created_at: stamp,
    updated_at: stamp,
  })
  .returning("id")
  .executeTakeFirstOrThrow();
for (const partner of partners) {
  await assignPartner(db, { requestId, partnerId: partner.id, adminId: admin.id });
}

const seedStart = performance.now();
const body = (n: number) => `Mensaje ${n}: ${"texto de prueba ".repeat(10)}`;
for (let n = 0; n < PER_THREAD; n++) {
  const author = n % 2 ? admin : buyer;
  await postMessage(db, {
    viewer: author,
    requestId,
    ref: { kind: "buyer" },
    body: body(n),
    file: null,
  });
  for (const partner of partners) {
    const by = n % 2 ? admin : partner;
    await postMessage(db, {
      viewer: by,
      requestId,
      ref: { kind: "partner", partnerId: partner.id },
      body: body(n),
      file: null,
    });
  }
}
console.log(
  `Seeded ${PER_THREAD} messages in each of 3 threads in ${(performance.now() - seedStart).toFixed(0)} ms`,
);

async function time(label: string, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  const p95 = samples[Math.floor(samples.length * 0.95)]!;
  console.log(`${label.padEnd(48)} median ${median.toFixed(2)} ms · p95 ${p95.toFixed(2)} ms`);
}

const [latest] = (await loadRequestThreads(db, buyer, requestId))!;
await time("buyer request page (1 thread, latest 50)", () =>
  loadRequestThreads(db, buyer, requestId),
);
await time("operator request page (3 threads, latest 50)", () =>
  loadRequestThreads(db, admin, requestId),
);
await time("partner request page (1 thread, latest 50)", () =>
  loadRequestThreads(db, partners[0]!, requestId),
);
await time("older messages (?antes=)", () =>
  loadRequestThreads(db, buyer, requestId, { only: { kind: "buyer" }, before: latest!.olderThan }),
);
await time("unread counts for a list page (20 ids)", () =>
  unreadCountsFor(
    db,
    admin,
    Array.from({ length: 20 }, (_, i) => requestId + i),
  ),
);
// The mail queued by the assignments may still be delivering: leave without waiting for it.
process.exit(0);
