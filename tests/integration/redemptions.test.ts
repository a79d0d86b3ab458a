/**
 * Reward redemptions as operators fulfil them: pending → delivered exactly once (a second or a
 * concurrent click changes nothing), the buyer told in-app and by e-mail, the operators' list in
 * its order, and the buyer's confirmation step (preview, one-time token).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations/index";
import { makeUser } from "./factories";
import { pointsBalance, previewRedemption, redeemReward } from "~/models/loyalty.server";
import {
  deliverRedemption,
  listBuyerRedemptions,
  listRedemptionsForAdmin,
  pendingRedemptionCount,
} from "~/models/redemption.server";
import { db, openDatabase } from "~/services/db.server";
import { FormTokenAlreadyUsed } from "~/services/form-token.server";
import { startSession } from "~/services/session.server";

async function grant(buyerId: number, points: number) {
  await db
    .insertInto("loyalty_ledger")
    .values({ buyer_id: buyerId, points, reason: "adjustment", description: "Ajuste de prueba" })
    .execute();
}

async function rewardCosting(points: number) {
  return db
    .selectFrom("rewards")
    .select(["id", "name"])
    .where("points_cost", "=", points)
    .executeTakeFirstOrThrow();
}

/** A buyer with one pending redemption of "Descuento 5%", made through the buyer's own path. */
async function pendingRedemption() {
  const buyerId = await makeUser("buyer", { companyName: "Supermercados Canje" });
  await grant(buyerId, 700);
  const reward = await rewardCosting(500);
  const redeemed = await redeemReward(db, { buyerId, rewardId: reward.id });
  expect(redeemed.ok).toBe(true);
  const { id } = await db
    .selectFrom("reward_redemptions")
    .select("id")
    .where("buyer_id", "=", buyerId)
    .executeTakeFirstOrThrow();
  const buyer = await db
    .selectFrom("users")
    .select(["email", "first_name", "last_name"])
    .where("id", "=", buyerId)
    .executeTakeFirstOrThrow();
  return { buyerId, buyer, reward, redemptionId: id };
}

function redemptionRow(id: number) {
  return db
    .selectFrom("reward_redemptions")
    .select(["status", "delivered_at", "delivered_by", "points"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** What the buyer was told about deliveries: notifications and queued e-mails. */
async function deliveryNotices(buyerId: number, email: string) {
  const [notifications, mails] = await Promise.all([
    db
      .selectFrom("notifications")
      .select(["type", "title", "message", "link"])
      .where("user_id", "=", buyerId)
      .where("title", "=", "Recompensa entregada")
      .execute(),
    db
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", email)
      .where("subject", "=", "Recompensa entregada")
      .execute(),
  ]);
  return { notifications, mails };
}

describe("delivering a redemption", () => {
  it("delivers once, records who and when, and a second click is refused without changes", async () => {
    const { buyerId, buyer, redemptionId } = await pendingRedemption();
    const admin = await makeUser("admin");
    const other = await makeUser("admin");
    expect(await redemptionRow(redemptionId)).toEqual({
      status: "pending",
      delivered_at: null,
      delivered_by: null,
      points: 500,
    });

    const first = await deliverRedemption(db, { redemptionId, adminId: admin });
    expect(first).toEqual({
      ok: true,
      value: { rewardName: "Descuento 5%", buyerName: `${buyer.first_name} ${buyer.last_name}` },
    });
    const delivered = await redemptionRow(redemptionId);
    expect(delivered).toMatchObject({ status: "delivered", delivered_by: admin, points: 500 });
    expect(Date.now() - Date.parse(delivered.delivered_at!)).toBeLessThan(60_000);

    const second = await deliverRedemption(db, { redemptionId, adminId: other });
    expect(second).toMatchObject({ ok: false, code: "conflict" });
    expect(!second.ok && second.message).toMatch(
      /^Este canje ya estaba marcado como entregado por Alicia Prueba\d+ el .+ UTC\. No se cambió nada\.$/,
    );
    expect(await redemptionRow(redemptionId)).toEqual(delivered);
    const notices = await deliveryNotices(buyerId, buyer.email);
    expect(notices.notifications).toHaveLength(1);
    expect(notices.mails).toHaveLength(1);
    // Points were spent once, at redemption; delivering spends nothing.
    expect(await pointsBalance(db, buyerId)).toBe(200);
  });

  it("two concurrent clicks deliver once and notify once", async () => {
    const { buyerId, buyer, redemptionId } = await pendingRedemption();
    const [a, b] = [await makeUser("admin"), await makeUser("admin")];
    const results = await Promise.all([
      deliverRedemption(db, { redemptionId, adminId: a }),
      deliverRedemption(db, { redemptionId, adminId: b }),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    const refused = results.find((r) => !r.ok);
    expect(refused).toMatchObject({ code: "conflict" });
    const winner = results[0]!.ok ? a : b;
    expect(await redemptionRow(redemptionId)).toMatchObject({
      status: "delivered",
      delivered_by: winner,
    });
    const notices = await deliveryNotices(buyerId, buyer.email);
    expect(notices.notifications).toHaveLength(1);
    expect(notices.mails).toHaveLength(1);
  });

  it("refuses an unknown redemption with «Canje no encontrado» and changes nothing", async () => {
    const admin = await makeUser("admin");
    const before = await db.selectFrom("reward_redemptions").selectAll().orderBy("id").execute();
    const notificationsBefore = await db
      .selectFrom("notifications")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(await deliverRedemption(db, { redemptionId: 987_654, adminId: admin })).toEqual({
      ok: false,
      code: "not_found",
      message: "Canje no encontrado",
    });
    expect(await db.selectFrom("reward_redemptions").selectAll().orderBy("id").execute()).toEqual(
      before,
    );
    expect(
      await db
        .selectFrom("notifications")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
    ).toEqual(notificationsBefore);
  });

  it("leaves the buyer a notification and a queued e-mail, both opening /buyer/rewards", async () => {
    const { buyerId, buyer, redemptionId } = await pendingRedemption();
    const admin = await makeUser("admin");
    const told = () =>
      db
        .selectFrom("notifications")
        .select("user_id")
        .where("title", "=", "Recompensa entregada")
        .orderBy("id")
        .execute();
    const before = await told();
    expect((await deliverRedemption(db, { redemptionId, adminId: admin })).ok).toBe(true);
    // Only the buyer is told (not the operators, not other buyers).
    expect(await told()).toEqual([...before, { user_id: buyerId }]);
    const { notifications, mails } = await deliveryNotices(buyerId, buyer.email);
    expect(notifications).toEqual([
      {
        type: "success",
        title: "Recompensa entregada",
        message:
          "Tu recompensa «Descuento 5%» (500 puntos) ya fue entregada. Puedes ver tus canjes en la página de Recompensas.",
        link: "/buyer/rewards",
      },
    ]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain(`Hola ${buyer.first_name}:`);
    expect(mails[0]!.text_body).toContain("Tu recompensa «Descuento 5%» (500 puntos)");
    expect(mails[0]!.text_body).toContain("http://localhost:3999/buyer/rewards");
  });

  it("tells the operators about a new redemption with a link to the redemptions page", async () => {
    const admin = await makeUser("admin");
    await pendingRedemption();
    const notice = await db
      .selectFrom("notifications")
      .select(["title", "link"])
      .where("user_id", "=", admin)
      .execute();
    expect(notice).toEqual([{ title: "Recompensa canjeada", link: "/admin/redemptions" }]);
  });
});

describe("the operators' list", () => {
  it("shows pending redemptions oldest first, then delivered ones newest first, across pages", async () => {
    await db.deleteFrom("reward_redemptions").execute();
    const buyer = await makeUser("buyer");
    const admin = await makeUser("admin");
    const reward = await rewardCosting(500);
    const insert = async (createdAt: string, deliveredAt: string | null) => {
      const { id } = await db
        .insertInto("reward_redemptions")
        .values({
          buyer_id: buyer,
          reward_id: reward.id,
          points: 500,
          created_at: createdAt,
          status: deliveredAt ? "delivered" : "pending",
          delivered_at: deliveredAt,
          delivered_by: deliveredAt ? admin : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return id;
    };
    // Inserted out of order, so neither id nor insertion order gives the expected order.
    const pendingMiddle = await insert("2026-03-02T10:00:00.000Z", null);
    const deliveredOld = await insert("2026-01-01T10:00:00.000Z", "2026-01-05T10:00:00.000Z");
    const pendingOldest = await insert("2026-03-01T10:00:00.000Z", null);
    const deliveredNew = await insert("2026-01-02T10:00:00.000Z", "2026-02-20T10:00:00.000Z");
    const pendingNewest = await insert("2026-03-03T10:00:00.000Z", null);
    const deliveredMid = await insert("2026-01-03T10:00:00.000Z", "2026-02-01T10:00:00.000Z");

    const all = await listRedemptionsForAdmin(db, { page: 1 });
    expect(all.pending.map((r) => r.id)).toEqual([pendingOldest, pendingMiddle, pendingNewest]);
    expect(all.delivered.map((r) => r.id)).toEqual([deliveredNew, deliveredMid, deliveredOld]);
    expect(all.counts).toEqual({ pending: 3, delivered: 3 });
    expect(all.total).toBe(6);
    expect(all.pending[0]).toMatchObject({
      reward_name: "Descuento 5%",
      points: 500,
      buyer_first_name: "Beatriz",
      buyer_company: expect.stringMatching(/^Empresa \d+$/),
      buyer_email: expect.stringMatching(/@ejemplo\.test$/),
      delivered_by_first_name: null,
    });
    expect(all.delivered[0]).toMatchObject({
      status: "delivered",
      delivered_at: "2026-02-20T10:00:00.000Z",
      delivered_by_first_name: "Alicia",
    });

    // Pages of two: the second page holds the last pending one and the newest delivered one.
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => listRedemptionsForAdmin(db, { page, pageSize: 2 })),
    );
    expect(pages.map((p) => [...p.pending, ...p.delivered].map((r) => r.id))).toEqual([
      [pendingOldest, pendingMiddle],
      [pendingNewest, deliveredNew],
      [deliveredMid, deliveredOld],
      [],
    ]);
    expect(await pendingRedemptionCount(db)).toBe(3);
  });
});

describe("the buyer's confirmation step", () => {
  it("previews the reward, its points and the balance after, and refuses what cannot be redeemed", async () => {
    const buyerId = await makeUser("buyer");
    await grant(buyerId, 1234);
    const cheap = await rewardCosting(500);
    const pricey = await rewardCosting(2000);
    const unavailable = await rewardCosting(3500);
    const preview = await previewRedemption(db, { buyerId, rewardId: cheap.id });
    expect(preview).toMatchObject({
      ok: true,
      value: { reward: { id: cheap.id, name: "Descuento 5%", points_cost: 500 }, balance: 1234 },
    });
    expect(preview.ok && preview.value.balanceAfter).toBe(734);
    expect(await previewRedemption(db, { buyerId, rewardId: pricey.id })).toEqual({
      ok: false,
      code: "conflict",
      message: "No tienes puntos suficientes: necesitas 2,000 y tienes 1,234.",
    });
    expect(await previewRedemption(db, { buyerId, rewardId: unavailable.id })).toMatchObject({
      ok: false,
      message: "Esta recompensa no está disponible por ahora.",
    });
    expect(await previewRedemption(db, { buyerId, rewardId: 999_999 })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    // Looking spends nothing.
    expect(await pointsBalance(db, buyerId)).toBe(1234);
    expect(await listBuyerRedemptions(db, buyerId, 10)).toEqual([]);
  });

  it("a confirmation submitted twice with its token redeems once", async () => {
    const buyerId = await makeUser("buyer");
    await grant(buyerId, 1500);
    const cheap = await rewardCosting(500);
    const formToken = "token-de-confirmacion-0001";
    const outcomes = await Promise.allSettled([
      redeemReward(db, { buyerId, rewardId: cheap.id, formToken }),
      redeemReward(db, { buyerId, rewardId: cheap.id, formToken }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = outcomes.find((o) => o.status === "rejected");
    expect(rejected && rejected.status === "rejected" && rejected.reason).toBeInstanceOf(
      FormTokenAlreadyUsed,
    );
    expect(await pointsBalance(db, buyerId)).toBe(1000);
    const mine = await listBuyerRedemptions(db, buyerId, 10);
    expect(mine).toEqual([
      expect.objectContaining({
        reward_name: "Descuento 5%",
        points: 500,
        status: "pending",
        delivered_at: null,
      }),
    ]);

    const admin = await makeUser("admin");
    expect((await deliverRedemption(db, { redemptionId: mine[0]!.id, adminId: admin })).ok).toBe(
      true,
    );
    expect(await listBuyerRedemptions(db, buyerId, 10)).toEqual([
      expect.objectContaining({ status: "delivered", delivered_at: expect.any(String) }),
    ]);
  });
});

describe("the migration", () => {
  it("backfills earlier redemptions as pending and keeps status and delivery date together", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cotizahub-redemptions-"));
    const database = openDatabase(path.join(dir, "before.sqlite"));
    try {
      const migrator = new Migrator({
        db: database,
        provider: { getMigrations: async () => migrations },
      });
      // The database as it stood just before this migration.
      const names = Object.keys(migrations);
      const previous = names[names.indexOf("2026-11-26T03-00_redemption_delivery") - 1]!;
      const { error } = await migrator.migrateTo(previous);
      expect(error).toBeUndefined();
      const stamp = new Date().toISOString();
      const { id: buyer } = await database
        .insertInto("users")
        .values({
          email: "antes@ejemplo.test",
          password_hash: "x",
          first_name: "Ana",
          last_name: "Antes",
          role: "buyer",
          created_at: stamp,
          updated_at: stamp,
          company_name: null,
          phone: null,
          email_verified_at: stamp,
          lockout_alerted_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const { id: reward } = await database
        .selectFrom("rewards")
        .select("id")
        .executeTakeFirstOrThrow();
      // Written as the table stood before the migration (no status columns yet).
      await database
        .insertInto("reward_redemptions")
        .values({ buyer_id: buyer, reward_id: reward, points: 500 })
        .execute();

      await migrateToLatest(database as never);
      expect(
        await database
          .selectFrom("reward_redemptions")
          .select(["status", "delivered_at", "delivered_by"])
          .execute(),
      ).toEqual([{ status: "pending", delivered_at: null, delivered_by: null }]);
      await expect(
        database.updateTable("reward_redemptions").set({ status: "delivered" }).execute(),
      ).rejects.toThrow(/CHECK constraint failed/);
      await expect(
        database
          .updateTable("reward_redemptions")
          .set({ status: "entregada" as never, delivered_at: stamp })
          .execute(),
      ).rejects.toThrow(/CHECK constraint failed/);
    } finally {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the pages' loaders and actions", () => {
  const BASE = "http://localhost:3999";

  async function signedIn(userId: number) {
    const setCookie = await startSession(db, new Request(BASE), userId);
    return setCookie.split(";")[0]!;
  }

  function get(path: string, cookie: string) {
    return new Request(BASE + path, { headers: { Cookie: cookie } });
  }

  function post(path: string, cookie: string, form: Record<string, string>) {
    return new Request(BASE + path, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** What a loader, an action or a thrown redirect answered. */
  async function answer(run: () => Promise<unknown>) {
    try {
      const value = await run();
      if (value instanceof Response) return value;
      // `data()` from @remix-run/node: { type: "DataWithResponseInit", data, init }.
      const wrapped = value as { data?: unknown; init?: { status?: number } };
      if (wrapped && typeof wrapped === "object" && "init" in wrapped) {
        return { status: wrapped.init?.status ?? 200, data: wrapped.data };
      }
      return { status: 200, data: value };
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("/buyer/rewards?canjear= shows the confirmation; posting it redeems once per token", async () => {
    const rewards = await import("~/routes/buyer.rewards");
    const buyerId = await makeUser("buyer");
    await grant(buyerId, 800);
    const cookie = await signedIn(buyerId);
    const cheap = await rewardCosting(500);
    const pricey = await rewardCosting(1000);

    const view = (await answer(() =>
      rewards.loader({
        request: get(`/buyer/rewards?canjear=${cheap.id}`, cookie),
        params: {},
        context: {},
      }),
    )) as { status: number; data: Awaited<ReturnType<typeof rewards.loader>> };
    expect(view.data.confirmation).toMatchObject({
      ok: true,
      reward: { id: cheap.id, name: "Descuento 5%", points_cost: 500 },
      balance: 800,
      balanceAfter: 300,
      formToken: expect.stringMatching(/^[\w-]{16,64}$/),
    });
    const plain = (await answer(() =>
      rewards.loader({ request: get("/buyer/rewards", cookie), params: {}, context: {} }),
    )) as typeof view;
    expect(plain.data.confirmation).toBeNull();
    const tooDear = (await answer(() =>
      rewards.loader({
        request: get(`/buyer/rewards?canjear=${pricey.id}`, cookie),
        params: {},
        context: {},
      }),
    )) as typeof view;
    expect(tooDear.data.confirmation).toEqual({
      ok: false,
      message: "No tienes puntos suficientes: necesitas 1,000 y tienes 800.",
    });
    const nonsense = (await answer(() =>
      rewards.loader({
        request: get("/buyer/rewards?canjear=abc", cookie),
        params: {},
        context: {},
      }),
    )) as typeof view;
    expect(nonsense.data.confirmation).toEqual({ ok: false, message: "La recompensa no existe." });
    expect(await pointsBalance(db, buyerId)).toBe(800);

    const confirm = {
      intent: "redeem",
      reward_id: String(cheap.id),
      form_token: (view.data.confirmation as { formToken: string }).formToken,
    };
    const first = (await answer(() =>
      rewards.action({
        request: post(`/buyer/rewards?canjear=${cheap.id}`, cookie, confirm),
        params: {},
        context: {},
      }),
    )) as Response;
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/buyer/rewards");
    const again = (await answer(() =>
      rewards.action({
        request: post(`/buyer/rewards?canjear=${cheap.id}`, cookie, confirm),
        params: {},
        context: {},
      }),
    )) as Response;
    expect(again.status).toBe(302);
    expect(await pointsBalance(db, buyerId)).toBe(300);
    expect(await listBuyerRedemptions(db, buyerId, 10)).toHaveLength(1);

    const refused = (await answer(() =>
      rewards.action({
        request: post("/buyer/rewards", cookie, { intent: "redeem", reward_id: String(cheap.id) }),
        params: {},
        context: {},
      }),
    )) as { status: number };
    expect(refused.status).toBe(409);
    expect(await pointsBalance(db, buyerId)).toBe(300);
  });

  it("/admin/redemptions: admins list and deliver; a repeat is a 409, an unknown id a 404, other roles are sent home", async () => {
    const page = await import("~/routes/admin.redemptions");
    const { buyerId, redemptionId } = await pendingRedemption();
    const admin = await signedIn(await makeUser("admin"));
    const list = (await answer(() =>
      page.loader({ request: get("/admin/redemptions", admin), params: {}, context: {} }),
    )) as { data: Awaited<ReturnType<typeof page.loader>> };
    expect(list.data.pending.map((r) => r.id)).toContain(redemptionId);

    const deliver = { intent: "deliver", redemption_id: String(redemptionId) };
    const done = (await answer(() =>
      page.action({
        request: post("/admin/redemptions?page=1", admin, deliver),
        params: {},
        context: {},
      }),
    )) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/redemptions?page=1");
    const repeat = (await answer(() =>
      page.action({ request: post("/admin/redemptions", admin, deliver), params: {}, context: {} }),
    )) as { status: number; data: { result: { error: Record<string, string[]> }; code: string } };
    expect(repeat.status).toBe(409);
    expect(repeat.data.code).toBe("conflict");
    expect(repeat.data.result.error[""]?.[0]).toMatch(
      /^Este canje ya estaba marcado como entregado/,
    );
    const unknown = (await answer(() =>
      page.action({
        request: post("/admin/redemptions", admin, { intent: "deliver", redemption_id: "987654" }),
        params: {},
        context: {},
      }),
    )) as Response;
    expect(unknown.status).toBe(404);

    const delivered = await redemptionRow(redemptionId);
    for (const role of ["buyer", "partner"] as const) {
      const cookie = await signedIn(role === "buyer" ? buyerId : await makeUser("partner"));
      const opened = (await answer(() =>
        page.loader({ request: get("/admin/redemptions", cookie), params: {}, context: {} }),
      )) as Response;
      expect(opened.status).toBe(302);
      expect(opened.headers.get("Location")).toBe(`/${role}`);
      const posted = (await answer(() =>
        page.action({
          request: post("/admin/redemptions", cookie, deliver),
          params: {},
          context: {},
        }),
      )) as Response;
      expect(posted.headers.get("Location")).toBe(`/${role}`);
    }
    expect(await redemptionRow(redemptionId)).toEqual(delivered);
  });
});
