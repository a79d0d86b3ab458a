import { sql, type Kysely } from "kysely";

/**
 * Structured offers and official quote versions (DECISIONS §7).
 * - partner_quotes: subtotal, tax rate (hundredths of a percent), tax, lead time, validity and
 *   payment terms. `quoted_amount_cents` stays the offer's total (subtotal + tax), so the lists,
 *   counters and search triggers built on it keep their meaning.
 * - official_quotes: the same figures plus a version number per request (1, 2, …), the reason for
 *   a revision and when the buyer asked for a renewal. `final_amount_cents` stays the total the
 *   buyer pays; the commission is on the subtotal.
 * - Line items of both in tables of their own (quantity in thousandths).
 * A writer that gives only the total gets subtotal = total − tax from a trigger (a real subtotal
 * is never 0: amounts are positive).
 * Rows already stored had no tax: their subtotal is their amount and their version is the order in
 * which they were issued.
 */
/** The line items of an offer or of an official quote: the same columns under another parent. */
const itemsTable = (table: string, parent: string, parentTable: string) =>
  `CREATE TABLE ${table} (
     id INTEGER PRIMARY KEY,
     ${parent} INTEGER NOT NULL REFERENCES ${parentTable}(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     description TEXT NOT NULL,
     quantity_milli INTEGER NOT NULL CHECK (quantity_milli > 0),
     unit TEXT NOT NULL DEFAULT '',
     unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents > 0),
     line_cents INTEGER NOT NULL,
     UNIQUE (${parent}, position)
   )`;

const statements = [
  `ALTER TABLE partner_quotes ADD COLUMN subtotal_cents INTEGER NOT NULL DEFAULT 0`,
  `UPDATE partner_quotes SET subtotal_cents = quoted_amount_cents`,
  `ALTER TABLE partner_quotes ADD COLUMN tax_rate INTEGER NOT NULL DEFAULT 0
     CHECK (tax_rate BETWEEN 0 AND 10000)`,
  `ALTER TABLE partner_quotes ADD COLUMN tax_cents INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE partner_quotes ADD COLUMN lead_time_days INTEGER
     CHECK (lead_time_days IS NULL OR lead_time_days BETWEEN 0 AND 365)`,
  `ALTER TABLE partner_quotes ADD COLUMN valid_until TEXT`,
  `ALTER TABLE partner_quotes ADD COLUMN payment_terms TEXT`,
  itemsTable("partner_quote_items", "partner_quote_id", "partner_quotes"),
  `ALTER TABLE official_quotes ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
  `UPDATE official_quotes SET version = (
     SELECT COUNT(*) FROM official_quotes AS earlier
     WHERE earlier.quote_request_id = official_quotes.quote_request_id
       AND earlier.id <= official_quotes.id)`,
  `CREATE UNIQUE INDEX official_quotes_version ON official_quotes (quote_request_id, version)`,
  `ALTER TABLE official_quotes ADD COLUMN subtotal_cents INTEGER NOT NULL DEFAULT 0`,
  `UPDATE official_quotes SET subtotal_cents = final_amount_cents`,
  `ALTER TABLE official_quotes ADD COLUMN tax_rate INTEGER NOT NULL DEFAULT 0
     CHECK (tax_rate BETWEEN 0 AND 10000)`,
  `ALTER TABLE official_quotes ADD COLUMN tax_cents INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE official_quotes ADD COLUMN lead_time_days INTEGER`,
  `ALTER TABLE official_quotes ADD COLUMN payment_terms TEXT`,
  `ALTER TABLE official_quotes ADD COLUMN revision_reason TEXT`,
  `ALTER TABLE official_quotes ADD COLUMN renewal_requested_at TEXT`,
  // Writers that give only the total (older scripts, raw seeds) still store a whole row.
  `CREATE TRIGGER partner_quotes_subtotal AFTER INSERT ON partner_quotes
     WHEN NEW.subtotal_cents = 0
   BEGIN
     UPDATE partner_quotes SET subtotal_cents = NEW.quoted_amount_cents - NEW.tax_cents
     WHERE id = NEW.id;
   END`,
  `CREATE TRIGGER official_quotes_subtotal AFTER INSERT ON official_quotes
     WHEN NEW.subtotal_cents = 0
   BEGIN
     UPDATE official_quotes SET subtotal_cents = NEW.final_amount_cents - NEW.tax_cents
     WHERE id = NEW.id;
   END`,
  itemsTable("official_quote_items", "official_quote_id", "official_quotes"),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE official_quote_items`.execute(db);
  await sql`DROP TABLE partner_quote_items`.execute(db);
  await sql`DROP INDEX official_quotes_version`.execute(db);
  await sql`DROP TRIGGER partner_quotes_subtotal`.execute(db);
  await sql`DROP TRIGGER official_quotes_subtotal`.execute(db);
  for (const column of [
    "subtotal_cents",
    "tax_rate",
    "tax_cents",
    "lead_time_days",
    "payment_terms",
    "revision_reason",
    "renewal_requested_at",
    "version",
  ])
    await sql.raw(`ALTER TABLE official_quotes DROP COLUMN ${column}`).execute(db);
  for (const column of [
    "subtotal_cents",
    "tax_rate",
    "tax_cents",
    "lead_time_days",
    "valid_until",
    "payment_terms",
  ])
    await sql.raw(`ALTER TABLE partner_quotes DROP COLUMN ${column}`).execute(db);
}
