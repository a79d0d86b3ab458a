import { sql, type Kysely } from "kysely";

/**
 * A partner's assignments list in its default order (open ones by deadline ascending, then the rest
 * by deadline descending) read from index ranges stopped at the page's end, instead of sorting
 * every assignment of the partner joined with its request on each view (3,878 assignments of the
 * busiest partner of the 100,000-request seed: 4.8 ms per view, tenfold at 1,000,000).
 *
 * What the order needs is copied onto the assignment and kept current by triggers, in the same
 * transaction as every write that changes it:
 * - `request_deadline`: the request's quote_deadline (an extension, a reopen or a buyer's edit);
 * - `request_open`: 1 while the partner may still offer, deadline aside: the assignment invited or
 *   offered and the request assigned (offerRefusal's rule without the deadline, which depends on
 *   the time of reading and is applied then, as two ranges either side of now).
 * - `quote_selected`: 1 while the partner's own quote on the request is selected (the «Ganadas»
 *   filter), from partner_quotes' writes.
 * Indexes: the open assignments by deadline ascending (the list's first part), and every
 * assignment by open-or-not then deadline descending (its second part: the closed ones, and the
 * open ones whose deadline has passed). The rowid closes both, ascending, as the list's ties. The
 * same two for the won assignments alone: read through the others, that filter would step over
 * every open assignment (almost none is won) before its first row.
 */
const OPEN = `state IN ('invited', 'offered')`;

const STATEMENTS = [
  `ALTER TABLE partner_assignments ADD COLUMN request_deadline TEXT NOT NULL DEFAULT ''`,
  `ALTER TABLE partner_assignments ADD COLUMN request_open INTEGER NOT NULL DEFAULT 0
    CHECK (request_open IN (0, 1))`,
  `ALTER TABLE partner_assignments ADD COLUMN quote_selected INTEGER NOT NULL DEFAULT 0
    CHECK (quote_selected IN (0, 1))`,
  `UPDATE partner_assignments SET quote_selected = 1 FROM partner_quotes pq
    WHERE pq.quote_request_id = partner_assignments.quote_request_id
      AND pq.partner_id = partner_assignments.partner_id AND pq.is_selected = 1`,
  `UPDATE partner_assignments
    SET request_deadline = qr.quote_deadline,
      request_open = (partner_assignments.${OPEN} AND qr.status = 'assigned')
    FROM quote_requests qr WHERE qr.id = partner_assignments.quote_request_id`,
  `CREATE INDEX partner_assignments_open_deadline
    ON partner_assignments (partner_id, request_open, request_deadline) WHERE request_open = 1`,
  `CREATE INDEX partner_assignments_list_order
    ON partner_assignments (partner_id, request_open, request_deadline DESC)`,
  `CREATE INDEX partner_assignments_won_open
    ON partner_assignments (partner_id, request_open, request_deadline)
    WHERE request_open = 1 AND quote_selected = 1`,
  `CREATE INDEX partner_assignments_won
    ON partner_assignments (partner_id, request_open, request_deadline DESC)
    WHERE quote_selected = 1`,
  `CREATE TRIGGER partner_assignments_order_insert AFTER INSERT ON partner_assignments BEGIN
    UPDATE partner_assignments
      SET request_deadline = (SELECT quote_deadline FROM quote_requests WHERE id = NEW.quote_request_id),
        request_open = (NEW.${OPEN}
          AND (SELECT status FROM quote_requests WHERE id = NEW.quote_request_id) = 'assigned'),
        quote_selected = coalesce((SELECT is_selected FROM partner_quotes
          WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id), 0)
      WHERE id = NEW.id;
  END`,
  `CREATE TRIGGER partner_assignments_order_state AFTER UPDATE OF state ON partner_assignments
    BEGIN
    UPDATE partner_assignments
      SET request_open = (NEW.${OPEN}
        AND (SELECT status FROM quote_requests WHERE id = NEW.quote_request_id) = 'assigned')
      WHERE id = NEW.id;
  END`,
  `CREATE TRIGGER quote_requests_order_status AFTER UPDATE OF status ON quote_requests
    WHEN (OLD.status = 'assigned') IS NOT (NEW.status = 'assigned') BEGIN
    UPDATE partner_assignments SET request_open = (${OPEN} AND NEW.status = 'assigned')
      WHERE quote_request_id = NEW.id;
  END`,
  `CREATE TRIGGER quote_requests_order_deadline AFTER UPDATE OF quote_deadline ON quote_requests
    WHEN OLD.quote_deadline IS NOT NEW.quote_deadline BEGIN
    UPDATE partner_assignments SET request_deadline = NEW.quote_deadline
      WHERE quote_request_id = NEW.id;
  END`,
  // An assignment's or a quote's request and partner never change: a quote's writes are an
  // insert, a selection (or its undoing) and a delete.
  `CREATE TRIGGER partner_quotes_order_insert AFTER INSERT ON partner_quotes
    WHEN NEW.is_selected = 1 BEGIN
    UPDATE partner_assignments SET quote_selected = 1
      WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id;
  END`,
  `CREATE TRIGGER partner_quotes_order_selected AFTER UPDATE OF is_selected ON partner_quotes
    WHEN OLD.is_selected IS NOT NEW.is_selected BEGIN
    UPDATE partner_assignments SET quote_selected = NEW.is_selected
      WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id;
  END`,
  `CREATE TRIGGER partner_quotes_order_delete AFTER DELETE ON partner_quotes
    WHEN OLD.is_selected = 1 BEGIN
    UPDATE partner_assignments SET quote_selected = 0
      WHERE quote_request_id = OLD.quote_request_id AND partner_id = OLD.partner_id;
  END`,
];

const INDEXES = STATEMENTS.flatMap((statement) => /CREATE INDEX (\w+)/.exec(statement)?.[1] ?? []);

/**
 * ANALYZE for the new indexes where the table has statistics (as round_summaries does): an index
 * without them beside analyzed ones looks better than it is, and the planner read a page's 20
 * assignments by id through every assignment of the partner in partner_assignments_list_order.
 */
async function statisticsToRestore(db: Kysely<unknown>): Promise<string[]> {
  const kept = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_schema
    WHERE type = 'table' AND name = 'sqlite_stat1'`.execute(db);
  if (Number(kept.rows[0]?.n ?? 0) === 0) return [];
  const analyzed = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_stat1
    WHERE tbl = 'partner_assignments'`.execute(db);
  if (Number(analyzed.rows[0]?.n ?? 0) === 0) return [];
  return INDEXES.map((name) => `ANALYZE ${name}`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
  for (const statement of await statisticsToRestore(db)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    "partner_quotes_order_delete",
    "partner_quotes_order_selected",
    "partner_quotes_order_insert",
    "quote_requests_order_deadline",
    "quote_requests_order_status",
    "partner_assignments_order_state",
    "partner_assignments_order_insert",
  ])
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  for (const name of INDEXES) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
  await sql`ALTER TABLE partner_assignments DROP COLUMN quote_selected`.execute(db);
  await sql`ALTER TABLE partner_assignments DROP COLUMN request_open`.execute(db);
  await sql`ALTER TABLE partner_assignments DROP COLUMN request_deadline`.execute(db);
}
