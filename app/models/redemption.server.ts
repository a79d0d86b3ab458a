import { ADMIN_PAGE_SIZE } from "~/domain/admin-lists";
import { fail, ok, type Result } from "~/domain/result";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { flushNotifications, notify } from "~/services/notify.server";
import { countOf, formatDateTime } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageStartsWithin } from "./keyset.server";

/**
 * Reward redemptions as the operators fulfil them: a buyer's redemption waits `pending` until an
 * operator delivers the reward and marks it `delivered` (who and when), which tells the buyer.
 */

export const REDEMPTIONS_PAGE_SIZE = ADMIN_PAGE_SIZE;

export async function redemptionCounts(database: DB) {
  const rows = await database
    .selectFrom("reward_redemptions")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const count = (status: "pending" | "delivered") =>
    Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count("pending"), delivered: count("delivered") };
}

/** Redemptions waiting for delivery (the admin dashboard's card). */
export async function pendingRedemptionCount(database: DB): Promise<number> {
  const row = await database
    .selectFrom("reward_redemptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function adminRows(database: DB) {
  return database
    .selectFrom("reward_redemptions as rr")
    .innerJoin("users as b", "b.id", "rr.buyer_id")
    .innerJoin("rewards as r", "r.id", "rr.reward_id")
    .leftJoin("users as d", "d.id", "rr.delivered_by")
    .select([
      "rr.id",
      "rr.points",
      "rr.status",
      "rr.created_at",
      "rr.delivered_at",
      "r.name as reward_name",
      "b.first_name as buyer_first_name",
      "b.last_name as buyer_last_name",
      "b.company_name as buyer_company",
      "b.email as buyer_email",
      "d.first_name as delivered_by_first_name",
      "d.last_name as delivered_by_last_name",
    ]);
}

/**
 * One page of the operators' list: every pending redemption first, oldest first (the one waiting
 * longest on top), then the delivered ones, most recently delivered first. The two runs are read
 * separately, each along its own partial index, and a page may hold the end of one and the start
 * of the other.
 */
export async function listRedemptionsForAdmin(
  database: DB,
  { page, pageSize = REDEMPTIONS_PAGE_SIZE }: { page: number; pageSize?: number },
) {
  const counts = await redemptionCounts(database);
  const offset = (page - 1) * pageSize;
  const pending =
    offset < counts.pending
      ? await adminRows(database)
          .where("rr.status", "=", "pending")
          .orderBy("rr.created_at", "asc")
          .orderBy("rr.id", "asc")
          .limit(pageSize)
          .offset(offset)
          .execute()
      : [];
  const room = pageSize - pending.length;
  const delivered =
    room > 0 && pageStartsWithin(page, pageSize, counts.pending + counts.delivered)
      ? await adminRows(database)
          .where("rr.status", "=", "delivered")
          .orderBy("rr.delivered_at", "desc")
          .orderBy("rr.id", "desc")
          .limit(room)
          .offset(Math.max(0, offset - counts.pending))
          .execute()
      : [];
  return { pending, delivered, counts, total: counts.pending + counts.delivered };
}

/** A buyer's own redemptions, newest first, with their state. */
export async function listBuyerRedemptions(database: DB, buyerId: number, limit: number) {
  return database
    .selectFrom("reward_redemptions as rr")
    .innerJoin("rewards as r", "r.id", "rr.reward_id")
    .select([
      "rr.id",
      "rr.points",
      "rr.status",
      "rr.created_at",
      "rr.delivered_at",
      "r.name as reward_name",
    ])
    .where("rr.buyer_id", "=", buyerId)
    .orderBy("rr.created_at", "desc")
    .orderBy("rr.id", "desc")
    .limit(limit)
    .execute();
}

type DeliverResult = Result<{ rewardName: string; buyerName: string }>;

/**
 * Marks a pending redemption delivered, stamped with the operator and the time, and tells the
 * buyer in-app and by e-mail. The status is checked by the UPDATE itself, so of two clicks (or
 * two operators) exactly one delivers and notifies; the other is told it was already done.
 */
export async function deliverRedemption(
  database: DB,
  { redemptionId, adminId }: { redemptionId: number; adminId: number },
): Promise<DeliverResult> {
  const result = await writeTransaction(database, async (tx): Promise<DeliverResult> => {
    const delivered = await tx
      .updateTable("reward_redemptions")
      .set({ status: "delivered", delivered_at: now(), delivered_by: adminId })
      .where("id", "=", redemptionId)
      .where("status", "=", "pending")
      .returning(["buyer_id", "points"])
      .executeTakeFirst();
    if (!delivered) {
      const earlier = await tx
        .selectFrom("reward_redemptions as rr")
        .leftJoin("users as d", "d.id", "rr.delivered_by")
        .select(["rr.delivered_at", "d.first_name", "d.last_name"])
        .where("rr.id", "=", redemptionId)
        .executeTakeFirst();
      if (!earlier) return fail("not_found", "Canje no encontrado");
      const by = earlier.first_name ? ` por ${earlier.first_name} ${earlier.last_name}` : "";
      return fail(
        "conflict",
        `Este canje ya estaba marcado como entregado${by} el ${formatDateTime(earlier.delivered_at)}. No se cambió nada.`,
      );
    }
    const { reward_name, first_name, last_name } = await tx
      .selectFrom("reward_redemptions as rr")
      .innerJoin("rewards as r", "r.id", "rr.reward_id")
      .innerJoin("users as b", "b.id", "rr.buyer_id")
      .select(["r.name as reward_name", "b.first_name", "b.last_name"])
      .where("rr.id", "=", redemptionId)
      .executeTakeFirstOrThrow();
    await notify(tx, {
      to: { userIds: [delivered.buyer_id] },
      type: "success",
      title: "Recompensa entregada",
      message: `Tu recompensa «${reward_name}» (${countOf(delivered.points, "punto", "puntos")}) ya fue entregada. Puedes ver tus canjes en la página de Recompensas.`,
      link: paths.buyer.rewards(),
    });
    return ok({ rewardName: reward_name, buyerName: `${first_name} ${last_name}` });
  });
  if (result.ok) flushNotifications();
  return result;
}
