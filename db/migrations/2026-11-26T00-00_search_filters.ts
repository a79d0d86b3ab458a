import { sql, type Kysely } from "kysely";

/**
 * Search that stays flat at 1,000,000 requests (issue 10): a search combined with a filter is
 * answered by the full-text index alone, read newest first and stopped at the page's end.
 *
 * - The request index's `scope` now also carries the request's status ("spaid") and, per partner,
 *   whether they quoted ("q7") and whether their quote was selected ("w7"), beside the buyer
 *   ("b12") and the assigned partners ("p7"). "paid requests matching válvulas" or "a partner's
 *   quoted assignments matching acero" is one MATCH, with no row read only to be thrown away.
 * - Prefix indexes for 2 to 8 letters (were 2-4): a typed word of up to 8 letters reads one
 *   doclist instead of merging every word it begins (`"acero"*` went from 12 ms to 0.1 ms at
 *   1,000,000 requests; the index grew by a fifth). Longer words are cut to 8 letters when
 *   searched (~/utils/search), which finds the same rows or a few more.
 *
 * Both search tables are rebuilt with the new options and their triggers recreated.
 */

const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'`;
const buyerText = (u: string) =>
  `${u}.first_name || ' ' || ${u}.last_name || ' ' || coalesce(${u}.company_name, '') || ' ' || ${u}.email`;

/** The scope tokens of request `id` whose buyer and status are the columns `buyerId`, `status`. */
const scopeOf = (id: string, buyerId: string, status: string) =>
  `'b' || ${buyerId} || ' s' || replace(${status}, '_', '')
    || coalesce((SELECT ' ' || group_concat('p' || pa.partner_id, ' ')
      FROM partner_assignments pa WHERE pa.quote_request_id = ${id}), '')
    || coalesce((SELECT ' ' || group_concat('q' || pq.partner_id
        || CASE WHEN pq.is_selected = 1 THEN ' w' || pq.partner_id ELSE '' END, ' ')
      FROM partner_quotes pq WHERE pq.quote_request_id = ${id}), '')`;

const refreshScope = (id: string) =>
  `UPDATE quote_request_search
    SET scope = (SELECT ${scopeOf("qr.id", "qr.buyer_id", "qr.status")} FROM quote_requests qr WHERE qr.id = ${id})
    WHERE rowid = ${id};`;

const OLD_TRIGGERS = [
  "quote_requests_search_insert",
  "quote_requests_search_update",
  "quote_requests_search_delete",
  "partner_assignments_search_insert",
  "partner_assignments_search_delete",
  "users_search_insert",
  "users_search_update",
  "users_search_delete",
];
const NEW_TRIGGERS = [
  "quote_requests_search_status",
  "partner_quotes_search_insert",
  "partner_quotes_search_update",
  "partner_quotes_search_delete",
];

const statements = [
  ...OLD_TRIGGERS.map((t) => `DROP TRIGGER IF EXISTS ${t}`),
  `DROP TABLE IF EXISTS quote_request_search`,
  `DROP TABLE IF EXISTS user_search`,
  `CREATE VIRTUAL TABLE quote_request_search USING fts5(title, description, buyer, scope, ${TOKENIZER})`,
  `CREATE VIRTUAL TABLE user_search USING fts5(name, company, email, ${TOKENIZER})`,
  `INSERT INTO quote_request_search (rowid, title, description, buyer, scope)
    SELECT qr.id, qr.title, coalesce(qr.description, ''), ${buyerText("u")}, ${scopeOf("qr.id", "qr.buyer_id", "qr.status")}
    FROM quote_requests qr JOIN users u ON u.id = qr.buyer_id`,
  `INSERT INTO user_search (rowid, name, company, email)
    SELECT id, first_name || ' ' || last_name, coalesce(company_name, ''), email FROM users`,

  `CREATE TRIGGER quote_requests_search_insert AFTER INSERT ON quote_requests BEGIN
    INSERT INTO quote_request_search (rowid, title, description, buyer, scope)
      SELECT NEW.id, NEW.title, coalesce(NEW.description, ''), ${buyerText("u")}, ${scopeOf("NEW.id", "NEW.buyer_id", "NEW.status")}
      FROM users u WHERE u.id = NEW.buyer_id;
  END`,
  `CREATE TRIGGER quote_requests_search_update AFTER UPDATE OF title, description, buyer_id ON quote_requests
  WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.buyer_id IS NOT NEW.buyer_id BEGIN
    UPDATE quote_request_search SET title = NEW.title, description = coalesce(NEW.description, ''),
      buyer = (SELECT ${buyerText("u")} FROM users u WHERE u.id = NEW.buyer_id),
      scope = ${scopeOf("NEW.id", "NEW.buyer_id", "NEW.status")}
    WHERE rowid = NEW.id;
  END`,
  `CREATE TRIGGER quote_requests_search_status AFTER UPDATE OF status ON quote_requests
  WHEN OLD.status IS NOT NEW.status BEGIN
    ${refreshScope("NEW.id")}
  END`,
  `CREATE TRIGGER quote_requests_search_delete AFTER DELETE ON quote_requests BEGIN
    DELETE FROM quote_request_search WHERE rowid = OLD.id;
  END`,
  `CREATE TRIGGER partner_assignments_search_insert AFTER INSERT ON partner_assignments BEGIN
    ${refreshScope("NEW.quote_request_id")}
  END`,
  `CREATE TRIGGER partner_assignments_search_delete AFTER DELETE ON partner_assignments BEGIN
    ${refreshScope("OLD.quote_request_id")}
  END`,
  `CREATE TRIGGER partner_quotes_search_insert AFTER INSERT ON partner_quotes BEGIN
    ${refreshScope("NEW.quote_request_id")}
  END`,
  `CREATE TRIGGER partner_quotes_search_update AFTER UPDATE OF is_selected, partner_id, quote_request_id ON partner_quotes
  WHEN OLD.is_selected IS NOT NEW.is_selected OR OLD.partner_id IS NOT NEW.partner_id
    OR OLD.quote_request_id IS NOT NEW.quote_request_id BEGIN
    ${refreshScope("NEW.quote_request_id")}
    ${refreshScope("OLD.quote_request_id")}
  END`,
  `CREATE TRIGGER partner_quotes_search_delete AFTER DELETE ON partner_quotes BEGIN
    ${refreshScope("OLD.quote_request_id")}
  END`,
  `CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN
    INSERT INTO user_search (rowid, name, company, email)
      VALUES (NEW.id, NEW.first_name || ' ' || NEW.last_name, coalesce(NEW.company_name, ''), NEW.email);
  END`,
  `CREATE TRIGGER users_search_update AFTER UPDATE OF first_name, last_name, company_name, email ON users
  WHEN OLD.first_name IS NOT NEW.first_name OR OLD.last_name IS NOT NEW.last_name
    OR OLD.company_name IS NOT NEW.company_name OR OLD.email IS NOT NEW.email BEGIN
    UPDATE user_search SET name = NEW.first_name || ' ' || NEW.last_name,
      company = coalesce(NEW.company_name, ''), email = NEW.email
    WHERE rowid = NEW.id;
    UPDATE quote_request_search SET buyer = ${buyerText("NEW")}
      WHERE rowid IN (SELECT id FROM quote_requests WHERE buyer_id = NEW.id);
  END`,
  `CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN
    DELETE FROM user_search WHERE rowid = OLD.id;
  END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

/** Back to the 2026-11-25 search: the previous migration's tables and triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of [...OLD_TRIGGERS, ...NEW_TRIGGERS]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
  }
  await sql`DROP TABLE IF EXISTS user_search`.execute(db);
  await sql`DROP TABLE IF EXISTS quote_request_search`.execute(db);
  await sql`DROP INDEX IF EXISTS payments_review_queue`.execute(db);
  const previous = await import("./2026-11-25T01-00_desk_search");
  await previous.up(db);
}
