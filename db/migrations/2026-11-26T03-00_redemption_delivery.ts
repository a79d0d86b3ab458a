import { sql, type Kysely } from "kysely";

/**
 * A reward redemption is fulfilled by an operator: `pending` until someone marks it `delivered`,
 * with who and when. Rows already stored take the column default, so they are all pending (nobody
 * could deliver them before). The pair (status, delivered_at) is kept consistent by a CHECK, so a
 * delivered redemption always says when.
 */
const statements = [
  `ALTER TABLE reward_redemptions ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending','delivered'))`,
  `ALTER TABLE reward_redemptions ADD COLUMN delivered_at TEXT
    CHECK ((delivered_at IS NULL) = (status = 'pending'))`,
  `ALTER TABLE reward_redemptions ADD COLUMN delivered_by INTEGER
    REFERENCES users(id) ON DELETE SET NULL`,
  // The operators' list: pending oldest first, then delivered newest first; each read by its index.
  `CREATE INDEX reward_redemptions_pending ON reward_redemptions (created_at, id)
    WHERE status = 'pending'`,
  `CREATE INDEX reward_redemptions_delivered ON reward_redemptions (delivered_at, id)
    WHERE status = 'delivered'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS reward_redemptions_pending`.execute(db);
  await sql`DROP INDEX IF EXISTS reward_redemptions_delivered`.execute(db);
  await sql`ALTER TABLE reward_redemptions DROP COLUMN delivered_by`.execute(db);
  await sql`ALTER TABLE reward_redemptions DROP COLUMN delivered_at`.execute(db);
  await sql`ALTER TABLE reward_redemptions DROP COLUMN status`.execute(db);
}
