import type { DB } from "~/services/db.server";

/**
 * The newest mail given up on (refused by the recipient's server, or out of attempts), for the admin
 * dashboard: who it was for, what it was, when it failed and the server's last answer.
 */
export function latestFailedMail(database: DB, limit: number) {
  return database
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "failed_at", "last_error"])
    .where("status", "=", "failed")
    .orderBy("failed_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
