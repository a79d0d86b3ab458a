import { sql, type Kysely } from "kysely";

/**
 * The operator's partners list (/admin/partners: featured first, then by company or first name)
 * read in order and stopped at the page's end. Without it SQLite sorted every partner on each view
 * (1,000 partners: 1.5 ms of the page's query). The expression is the list's own ORDER BY
 * (listPartnersForAdmin); statistics come when the database is next opened (openDatabase).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX users_partner_list ON users
    (role, is_featured_partner DESC, coalesce(nullif(trim(company_name), ''), first_name), id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_partner_list`.execute(db);
}
