import { LEDGER_PAGE_SIZE } from "~/domain/pagination";
import { fail, ok, type Result } from "~/domain/result";
import { now, writeTransaction, type DB } from "~/services/db.server";
import { claimFormToken } from "~/services/form-token.server";
import { flushNotifications, notify } from "~/services/notify.server";
import { countOf, formatNumber } from "~/utils/format";
import { paths } from "~/utils/paths";
import { pageStartsWithin } from "./keyset.server";

/** Points come only from the ledger: earned on confirmed payments, spent on redemptions. */

export async function pointsBalance(database: DB, buyerId: number): Promise<number> {
  const row = await database
    .selectFrom("loyalty_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("points"), eb.lit(0)).as("balance"))
    .where("buyer_id", "=", buyerId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Points ever earned (the tier is based on what a buyer earned, so redeeming never demotes). */
async function pointsEarned(database: DB, buyerId: number): Promise<number> {
  const row = await database
    .selectFrom("loyalty_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("points"), eb.lit(0)).as("earned"))
    .where("buyer_id", "=", buyerId)
    .where("points", ">", 0)
    .executeTakeFirstOrThrow();
  return Number(row.earned);
}

export async function loyaltySummary(database: DB, buyerId: number) {
  const monthStart = new Date();
  monthStart.setUTCDate(1);
  monthStart.setUTCHours(0, 0, 0, 0);
  const [balance, earned, month, redeemed, paidQuotes] = await Promise.all([
    pointsBalance(database, buyerId),
    pointsEarned(database, buyerId),
    database
      .selectFrom("loyalty_ledger")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("points"), eb.lit(0)).as("points"))
      .where("buyer_id", "=", buyerId)
      .where("points", ">", 0)
      .where("created_at", ">=", monthStart.toISOString())
      .executeTakeFirstOrThrow(),
    database
      .selectFrom("reward_redemptions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("buyer_id", "=", buyerId)
      .executeTakeFirstOrThrow(),
    database
      .selectFrom("buyer_commissions")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("buyer_id", "=", buyerId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    balance,
    earned,
    pointsThisMonth: Number(month.points),
    rewardsRedeemed: Number(redeemed.count),
    paidQuotes: Number(paidQuotes.count),
  };
}

export async function listLedger(database: DB, buyerId: number, page: number) {
  const { count } = await database
    .selectFrom("loyalty_ledger")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("buyer_id", "=", buyerId)
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const rows = pageStartsWithin(page, LEDGER_PAGE_SIZE, total)
    ? await database
        .selectFrom("loyalty_ledger")
        .select(["id", "points", "reason", "description", "created_at"])
        .where("buyer_id", "=", buyerId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(LEDGER_PAGE_SIZE)
        .offset((page - 1) * LEDGER_PAGE_SIZE)
        .execute()
    : [];
  return { rows, total };
}

export function listRewards(database: DB) {
  return database
    .selectFrom("rewards")
    .select(["id", "name", "description", "points_cost", "is_available"])
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
}

const rewardNotFound = () => fail("not_found", "La recompensa no existe.");

interface RedeemableReward {
  reward: { id: number; name: string; description: string; points_cost: number };
  balance: number;
}

/**
 * Whether the buyer may redeem the reward now: it exists, is available and the balance covers it.
 * Read by the confirmation view and again inside the redeeming transaction.
 */
async function checkRedeemable(
  database: DB,
  buyerId: number,
  rewardId: number,
): Promise<Result<RedeemableReward>> {
  const reward = await database
    .selectFrom("rewards")
    .select(["id", "name", "description", "points_cost", "is_available"])
    .where("id", "=", rewardId)
    .executeTakeFirst();
  if (!reward) return rewardNotFound();
  if (!reward.is_available)
    return fail("conflict", "Esta recompensa no está disponible por ahora.");
  const balance = await pointsBalance(database, buyerId);
  if (balance < reward.points_cost) {
    return fail(
      "conflict",
      `No tienes puntos suficientes: necesitas ${formatNumber(reward.points_cost)} y tienes ${formatNumber(balance)}.`,
    );
  }
  const { id, name, description, points_cost } = reward;
  return ok({ reward: { id, name, description, points_cost }, balance });
}

/** What the buyer confirms before spending points: the reward, its cost and the balance after. */
export async function previewRedemption(
  database: DB,
  { buyerId, rewardId }: { buyerId: number; rewardId: number },
): Promise<Result<RedeemableReward & { balanceAfter: number }>> {
  const checked = await checkRedeemable(database, buyerId, rewardId);
  if (!checked.ok) return checked;
  return ok({
    ...checked.value,
    balanceAfter: checked.value.balance - checked.value.reward.points_cost,
  });
}

type RedeemResult = Result<{ rewardName: string; balance: number }>;

/**
 * Spends points on a reward; the checks are re-run inside the transaction, so the balance never
 * goes negative. With the confirmation form's one-time token, a second submit of the same form
 * throws FormTokenAlreadyUsed (rolled back) instead of redeeming twice.
 */
export async function redeemReward(
  database: DB,
  {
    buyerId,
    rewardId,
    formToken = null,
  }: { buyerId: number; rewardId: number; formToken?: string | null },
): Promise<RedeemResult> {
  const result = await writeTransaction(database, async (tx): Promise<RedeemResult> => {
    // First, so a concurrent second submit is told apart from a refusal (a refused form comes back
    // with a fresh token, so spending this one costs nothing).
    await claimFormToken(tx, formToken, paths.buyer.rewards());
    const checked = await checkRedeemable(tx, buyerId, rewardId);
    if (!checked.ok) return checked;
    const { reward, balance } = checked.value;
    const { id: redemptionId } = await tx
      .insertInto("reward_redemptions")
      .values({
        buyer_id: buyerId,
        reward_id: reward.id,
        points: reward.points_cost,
        created_at: now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("loyalty_ledger")
      .values({
        buyer_id: buyerId,
        points: -reward.points_cost,
        reason: "redemption",
        redemption_id: redemptionId,
        description: `Canje: ${reward.name}`,
      })
      .execute();
    await notify(tx, {
      to: { role: "admin" },
      type: "info",
      title: "Recompensa canjeada",
      message: `Un comprador canjeó «${reward.name}» por ${countOf(reward.points_cost, "punto", "puntos")}. Márcala como entregada cuando la apliques.`,
      link: paths.admin.redemptions(),
      email: false,
    });
    return ok({ rewardName: reward.name, balance: balance - reward.points_cost });
  });
  if (result.ok) flushNotifications();
  return result;
}

export async function setRewardAvailability(
  database: DB,
  rewardId: number,
  available: boolean,
): Promise<Result> {
  const result = await database
    .updateTable("rewards")
    .set({ is_available: available ? 1 : 0 })
    .where("id", "=", rewardId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? ok() : rewardNotFound();
}
