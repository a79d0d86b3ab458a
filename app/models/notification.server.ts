import { NOTIFICATIONS_PAGE_SIZE } from "~/domain/pagination";
import { now, type DB } from "~/services/db.server";
import { pageStartsWithin } from "./keyset.server";

export async function countUnread(database: DB, userId: number): Promise<number> {
  const row = await database
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listNotifications(database: DB, userId: number, page: number) {
  const { count } = await database
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const rows = pageStartsWithin(page, NOTIFICATIONS_PAGE_SIZE, total)
    ? await database
        .selectFrom("notifications")
        .select(["id", "type", "title", "message", "link", "read_at", "created_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(NOTIFICATIONS_PAGE_SIZE)
        .offset((page - 1) * NOTIFICATIONS_PAGE_SIZE)
        .execute()
    : [];
  return { rows, total };
}

/** Every change is scoped by user: another user's notification id changes nothing. */
function markRead(database: DB, userId: number, id: number | null) {
  return database
    .updateTable("notifications")
    .set({ read_at: now() })
    .$if(id !== null, (qb) => qb.where("id", "=", id!))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirst();
}

export async function markNotificationRead(
  database: DB,
  userId: number,
  id: number,
): Promise<boolean> {
  const result = await markRead(database, userId, id);
  return Number(result.numUpdatedRows) > 0;
}

export async function markAllNotificationsRead(database: DB, userId: number): Promise<void> {
  await markRead(database, userId, null);
}

export async function deleteNotification(
  database: DB,
  userId: number,
  id: number,
): Promise<boolean> {
  const result = await database
    .deleteFrom("notifications")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks the user's notification read and returns where it points (null when not theirs). */
export async function openNotification(
  database: DB,
  userId: number,
  id: number,
): Promise<string | null> {
  const row = await database
    .selectFrom("notifications")
    .select("link")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  await markNotificationRead(database, userId, id);
  return row.link;
}
