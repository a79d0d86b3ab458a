import { sql, type Kysely } from "kysely";

/**
 * The operator's products list (newest first) read in order and stopped at the page's end. Without
 * it SQLite sorted every product on each view (5,000 products: 2.7 ms of the page's query).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX products_created ON products (created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS products_created`.execute(db);
}
