import { sql, type Kysely } from "kysely";

/**
 * A confirmed payment's receipt PDF is generated on its first download and kept under a stored key,
 * like the official quote PDF. Only a confirmed payment has a receipt (a CHECK keeps it so); rows
 * already stored have none yet and get one when first downloaded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments ADD COLUMN receipt_key TEXT
    CHECK (receipt_key IS NULL OR status = 'confirmed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments DROP COLUMN receipt_key`.execute(db);
}
