import { sql, type Kysely } from "kysely";

/**
 * Where a contact message came from (the edge's client address), so the form can refuse a flood
 * from one address: each message notifies and e-mails every operator. Earlier messages have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE contact_submissions ADD COLUMN client_address TEXT`.execute(db);
  await sql`CREATE INDEX contact_submissions_client
    ON contact_submissions (client_address, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX contact_submissions_client`.execute(db);
  await sql`ALTER TABLE contact_submissions DROP COLUMN client_address`.execute(db);
}
