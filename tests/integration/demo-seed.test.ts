import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestStatus } from "../../db/schema";
import { REQUEST_STATUSES } from "~/domain/quote-status";
import { DEMO_ACCOUNTS, seedDemo, type DemoSeedReport } from "../../scripts/demo";
import { DEMO_REWARD } from "../../scripts/demo-story";
import { namesFromEmail, namesFromFullName } from "../../scripts/user-name";
import { pointsBalance } from "~/models/loyalty.server";
import { buyerPaymentCounts } from "~/models/payment.server";
import { db } from "~/services/db.server";
import { storedFileExists } from "~/services/storage.server";

const TABLES = [
  "users",
  "categories",
  "products",
  "quote_requests",
  "request_status_history",
  "partner_assignments",
  "partner_quotes",
  "official_quotes",
  "payments",
  "buyer_commissions",
  "loyalty_ledger",
  "reward_redemptions",
  "notifications",
  "mail_outbox",
  "request_status_counts",
  "buyer_request_counts",
  "payment_status_totals",
  "buyer_payment_totals",
  "monthly_totals",
  "summary_totals",
  "partner_wins",
  "partner_counters",
  "user_role_counts",
] as const;

/** Every row of the tables the story writes (summaries included), to compare two runs. */
async function everything() {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    out[table] = (await sql`SELECT * FROM ${sql.table(table)}`.execute(db)).rows.map((row) => {
      // Delivery stamps change while the outbox drains; what was written must not.
      if (table !== "mail_outbox") return row;
      const { id, to_address, subject } = row as Record<string, unknown>;
      return { id, to_address, subject };
    });
  }
  return out;
}

async function userId(email: string) {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("npm run db:seed", () => {
  let first: DemoSeedReport;
  let second: DemoSeedReport;
  let before: Awaited<ReturnType<typeof everything>>;
  let after: Awaited<ReturnType<typeof everything>>;
  let buyerId: number;

  beforeAll(async () => {
    first = await seedDemo(db);
    before = await everything();
    second = await seedDemo(db);
    after = await everything();
    buyerId = await userId(DEMO_ACCOUNTS.buyer.email);
  }, 60_000);

  it("creates the accounts, the catalogue and the story once; a second run creates nothing", () => {
    expect(first).toEqual({
      accountsCreated: Object.keys(DEMO_ACCOUNTS).length,
      catalogueCreated: true,
      storyCreated: true,
    });
    expect(second).toEqual({ accountsCreated: 0, catalogueCreated: false, storyCreated: false });
    expect(after).toEqual(before);
  });

  it("gives the demo buyer a request in every status", async () => {
    const rows = await db
      .selectFrom("quote_requests")
      .select("status")
      .distinct()
      .where("buyer_id", "=", buyerId)
      .execute();
    const statuses: readonly RequestStatus[] = REQUEST_STATUSES;
    expect(rows.map((r) => r.status).sort()).toEqual([...statuses].sort());
    const quoted = await db
      .selectFrom("quote_requests as qr")
      .innerJoin("partner_quotes as pq", "pq.quote_request_id", "qr.id")
      .select(["pq.partner_id", "pq.quoted_amount_cents"])
      .where("qr.buyer_id", "=", buyerId)
      .where("qr.status", "=", "quoted")
      .execute();
    expect(new Set(quoted.map((q) => q.partner_id)).size).toBe(2);
    expect(new Set(quoted.map((q) => q.quoted_amount_cents)).size).toBe(2);
    const assignedTo = await db
      .selectFrom("quote_requests as qr")
      .innerJoin("partner_assignments as pa", "pa.quote_request_id", "qr.id")
      .select("pa.partner_id")
      .where("qr.buyer_id", "=", buyerId)
      .where("qr.status", "=", "assigned")
      .execute();
    expect(assignedTo).toHaveLength(2);
    const rejected = await db
      .selectFrom("quote_requests")
      .select("rejection_reason")
      .where("buyer_id", "=", buyerId)
      .where("status", "=", "rejected")
      .executeTakeFirstOrThrow();
    expect(rejected.rejection_reason).toBeTruthy();
  });

  it("leaves a confirmed payment, a proof waiting for review and points after a redemption", async () => {
    const payments = await db
      .selectFrom("payments")
      .select(["status", "proof_key"])
      .where("buyer_id", "=", buyerId)
      .execute();
    expect(payments.filter((p) => p.status === "confirmed")).toHaveLength(1);
    expect(payments.filter((p) => p.status === "pending" && p.proof_key)).toHaveLength(1);
    expect(payments.filter((p) => p.status === "rejected")).toHaveLength(1);
    // The maintained counters agree with the rows.
    const counts = await buyerPaymentCounts(db, buyerId);
    expect(counts).toMatchObject({ total: payments.length, confirmed: 1, rejected: 1 });

    const redemption = await db
      .selectFrom("reward_redemptions as rr")
      .innerJoin("rewards as r", "r.id", "rr.reward_id")
      .select("r.name")
      .where("rr.buyer_id", "=", buyerId)
      .execute();
    expect(redemption).toEqual([{ name: DEMO_REWARD }]);
    expect(await pointsBalance(db, buyerId)).toBeGreaterThan(0);
    const commission = await db
      .selectFrom("buyer_commissions")
      .select("commission_amount_cents")
      .where("buyer_id", "=", buyerId)
      .executeTakeFirstOrThrow();
    expect(commission.commission_amount_cents).toBeGreaterThan(0);
  });

  it("notifies the buyer, the administrator and both partners, in-app and by queued mail", async () => {
    for (const account of [
      DEMO_ACCOUNTS.buyer,
      DEMO_ACCOUNTS.admin,
      DEMO_ACCOUNTS.partner,
      DEMO_ACCOUNTS.partner2,
    ]) {
      const id = await userId(account.email);
      const { n } = await db
        .selectFrom("notifications")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", id)
        .executeTakeFirstOrThrow();
      expect(Number(n), account.email).toBeGreaterThan(0);
      const mail = await db
        .selectFrom("mail_outbox")
        .select("id")
        .where("to_address", "=", account.email)
        .executeTakeFirst();
      expect(mail, account.email).toBeDefined();
    }
  });

  it("stores every file a row points to, including each official quote's PDF", async () => {
    const keys = [
      ...(await db.selectFrom("quote_requests").select("file_key as key").execute()),
      ...(await db.selectFrom("partner_quotes").select("file_key as key").execute()),
      ...(await db.selectFrom("official_quotes").select("pdf_key as key").execute()),
      ...(await db.selectFrom("payments").select("proof_key as key").execute()),
      ...(await db.selectFrom("products").select("image_key as key").execute()),
    ].map((r) => r.key);
    const official = await db.selectFrom("official_quotes").select("pdf_key").execute();
    expect(official.length).toBeGreaterThan(0);
    expect(official.every((o) => o.pdf_key)).toBe(true);
    const stored = keys.filter((key): key is string => key !== null);
    expect(stored.length).toBeGreaterThan(10);
    for (const key of stored) expect(await storedFileExists(key), key).toBe(true);
  });
});

describe("npm run user:create names", () => {
  it("splits --name into the first word and the rest", () => {
    expect(namesFromFullName("  María José   García López ")).toEqual({
      firstName: "María",
      lastName: "José García López",
    });
    expect(namesFromFullName("Ana")).toEqual({ firstName: "Ana", lastName: "" });
  });

  it("derives a name from the e-mail when none is given", () => {
    expect(namesFromEmail("ana.lopez@x.test")).toEqual({ firstName: "Ana", lastName: "Lopez" });
    expect(namesFromEmail("JUAN_perez-ruiz+ops@x.test")).toEqual({
      firstName: "Juan",
      lastName: "Perez Ruiz",
    });
    // Nothing invented: what the e-mail does not give comes back empty, and user:create asks for --name.
    expect(namesFromEmail("admin2@x.test")).toEqual({ firstName: "Admin2", lastName: "" });
    expect(namesFromEmail("1234@x.test")).toEqual({ firstName: "", lastName: "" });
  });
});
