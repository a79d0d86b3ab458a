import { sql, type Kysely } from "kysely";

/**
 * Indexes for the lists' date ranges and sorts (issue 14, app/domain/list-filters.ts), so each
 * sort is read in order and stopped at the page's end, with or without a date range:
 * - a request's amount (null until it has one, kept last as -1), overall and per buyer (the
 *   rowid follows the key, so ties are read in id order);
 * - a payment's date as the lists show it (the proof's submission, else its creation) and its
 *   amount, overall, per buyer and per status.
 * The sorts by creation use the existing (…, created_at) indexes. No index leads with a request's
 * status: without statistics SQLite took one for `status = ? ORDER BY created_at` over
 * quote_requests_status_created and sorted the whole status (ADR 0009). The payments lists name
 * their index in every query, so theirs may.
 */
const INDEXES = [
  `CREATE INDEX quote_requests_amount ON quote_requests (coalesce(total_amount_cents, -1))`,
  // The «Plazo» filter's open requests by amount: almost none has one yet, so the overall index
  // would be walked past every closed request before the first open one.
  `CREATE INDEX quote_requests_open_amount ON quote_requests (coalesce(total_amount_cents, -1))
    WHERE status IN ('pending','assigned')`,
  `CREATE INDEX quote_requests_buyer_amount
    ON quote_requests (buyer_id, coalesce(total_amount_cents, -1))`,
  `CREATE INDEX payments_sent ON payments (coalesce(submitted_at, created_at))`,
  `CREATE INDEX payments_buyer_sent ON payments (buyer_id, coalesce(submitted_at, created_at))`,
  `CREATE INDEX payments_status_sent ON payments (status, coalesce(submitted_at, created_at))`,
  `CREATE INDEX payments_amount ON payments (amount_cents)`,
  `CREATE INDEX payments_buyer_amount ON payments (buyer_id, amount_cents)`,
  `CREATE INDEX payments_status_amount ON payments (status, amount_cents)`,
];

const NAMES = INDEXES.map((statement) => /CREATE INDEX (\w+)/.exec(statement)![1]!);

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of INDEXES) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of NAMES) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
}
