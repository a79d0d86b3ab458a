import { sql, type Kysely } from "kysely";

/**
 * Full-text search (issue 10) with SQLite's FTS5, accent- and case-insensitive
 * (`unicode61 remove_diacritics 2`: "tuberia" finds "Tubería"), kept in sync by triggers:
 *
 * - quote_request_search: one row per request (rowid = request id) with its title, description,
 *   its buyer's name, company and e-mail, and a `scope` of tokens naming who may see it
 *   ("b<buyer id>" and "p<partner id>" for each assigned partner), so a buyer's or a partner's
 *   search is one index lookup intersected with their own token.
 * - user_search: one row per user (rowid = user id): name, company, e-mail.
 *
 * Also the index of the admin payments queue (pending payments, proof first, oldest first), which
 * its keyset pages read.
 */

/** Prefix indexes for 2-4 letters: "lo"*, "lote"* stream from their own doclists. */
const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'`;
const buyerText = (u: string) =>
  `${u}.first_name || ' ' || ${u}.last_name || ' ' || coalesce(${u}.company_name, '') || ' ' || ${u}.email`;
const scopeOf = (requestId: string, buyerId: string) =>
  `'b' || ${buyerId} || coalesce((SELECT ' ' || group_concat('p' || pa.partner_id, ' ')
    FROM partner_assignments pa WHERE pa.quote_request_id = ${requestId}), '')`;
const refreshScope = (requestId: string) =>
  `UPDATE quote_request_search
    SET scope = ${scopeOf(requestId, `(SELECT buyer_id FROM quote_requests WHERE id = ${requestId})`)}
    WHERE rowid = ${requestId};`;

const statements = [
  `CREATE VIRTUAL TABLE quote_request_search USING fts5(title, description, buyer, scope, ${TOKENIZER})`,
  `CREATE VIRTUAL TABLE user_search USING fts5(name, company, email, ${TOKENIZER})`,
  `INSERT INTO quote_request_search (rowid, title, description, buyer, scope)
    SELECT qr.id, qr.title, coalesce(qr.description, ''), ${buyerText("u")}, ${scopeOf("qr.id", "qr.buyer_id")}
    FROM quote_requests qr JOIN users u ON u.id = qr.buyer_id`,
  `INSERT INTO user_search (rowid, name, company, email)
    SELECT id, first_name || ' ' || last_name, coalesce(company_name, ''), email FROM users`,

  `CREATE TRIGGER quote_requests_search_insert AFTER INSERT ON quote_requests BEGIN
    INSERT INTO quote_request_search (rowid, title, description, buyer, scope)
      SELECT NEW.id, NEW.title, coalesce(NEW.description, ''), ${buyerText("u")}, ${scopeOf("NEW.id", "NEW.buyer_id")}
      FROM users u WHERE u.id = NEW.buyer_id;
  END`,
  `CREATE TRIGGER quote_requests_search_update AFTER UPDATE OF title, description, buyer_id ON quote_requests
  WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.buyer_id IS NOT NEW.buyer_id BEGIN
    UPDATE quote_request_search SET title = NEW.title, description = coalesce(NEW.description, ''),
      buyer = (SELECT ${buyerText("u")} FROM users u WHERE u.id = NEW.buyer_id),
      scope = ${scopeOf("NEW.id", "NEW.buyer_id")}
    WHERE rowid = NEW.id;
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

  // Not partial: the status is a bound parameter, which a partial index's WHERE cannot match.
  `CREATE INDEX payments_review_queue
    ON payments (status, (proof_key IS NULL), coalesce(submitted_at, created_at), id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of [
    "quote_requests_search_insert",
    "quote_requests_search_update",
    "quote_requests_search_delete",
    "partner_assignments_search_insert",
    "partner_assignments_search_delete",
    "users_search_insert",
    "users_search_update",
    "users_search_delete",
  ]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
  }
  await sql`DROP INDEX IF EXISTS payments_review_queue`.execute(db);
  await sql`DROP TABLE IF EXISTS user_search`.execute(db);
  await sql`DROP TABLE IF EXISTS quote_request_search`.execute(db);
}
