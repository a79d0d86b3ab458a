import { sql, type Kysely } from "kysely";

/** The admin Pagos tab lists reviewed payments newest first across both review statuses. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX payments_created ON payments (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX payments_created`.execute(db);
}
