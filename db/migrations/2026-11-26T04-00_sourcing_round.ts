import { sql, type Kysely } from "kysely";
import { inTableRebuild, rebuildTable } from "./rebuild-table";

/**
 * The sourcing round (DECISIONS §6):
 * - quote_requests: status `cancelled` (terminal), `quote_deadline` (UTC instant; partners offer
 *   before it), `needed_by` (a date), `cancellation_reason`.
 * - partner_assignments: `state` invited | offered | declined | withdrawn | selected | not_selected,
 *   with the partner's `decline_reason` and when the state last changed.
 * - official_quotes: a reopened request keeps its old official quote as a superseded version, so
 *   "one per request" becomes "one current per request" (a partial unique index).
 * - request_status_history: `event` names what happened when the status did not change (a decline,
 *   a withdrawal, an edit, a deadline extension).
 *
 * SQLite cannot change a CHECK or drop a UNIQUE in place: those two tables are rebuilt the way its
 * documentation prescribes (new table, copy, drop, rename, then the indexes and triggers that lived
 * on the old one, from their stored SQL), with foreign keys off and in one IMMEDIATE transaction.
 * Nothing is half-done if the process dies: the transaction rolls back as a whole.
 */

const REQUEST_STATUS_CHECK =
  "CHECK (status IN ('pending','assigned','quoted','approved','paid','rejected'))";

/** The new request columns (the model always sets the deadline from the "días para cotizar" setting). */
const REQUEST_COLUMNS = `,
    quote_deadline TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now','+3 days')),
    needed_by TEXT,
    cancellation_reason TEXT
  )`;

/**
 * Requests stored before deadlines existed: three days after they were made (the default), and never
 * less than three days from now for those still open to offers.
 */
const BACKFILLED_DEADLINE = `CASE
     WHEN status IN ('pending','assigned')
       THEN max(strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+3 days'),
                strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+3 days'))
     ELSE strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+3 days') END`;

const statements = [
  // The desk's "due in 24 h / overdue" filter and deadline sort read only the open requests.
  `CREATE INDEX quote_requests_open_deadline ON quote_requests (quote_deadline, id)
     WHERE status IN ('pending','assigned')`,
  `CREATE INDEX quote_requests_deadline ON quote_requests (quote_deadline, id)`,
  `INSERT OR IGNORE INTO request_status_counts (status) VALUES ('cancelled')`,

  `ALTER TABLE partner_assignments ADD COLUMN state TEXT NOT NULL DEFAULT 'invited'
     CHECK (state IN ('invited','offered','declined','withdrawn','selected','not_selected'))`,
  `ALTER TABLE partner_assignments ADD COLUMN decline_reason TEXT`,
  `ALTER TABLE partner_assignments ADD COLUMN state_changed_at TEXT`,
  `UPDATE partner_assignments SET state = CASE
     WHEN pq.is_selected = 1 THEN 'selected'
     WHEN EXISTS (SELECT 1 FROM official_quotes oq
                  WHERE oq.quote_request_id = partner_assignments.quote_request_id)
       THEN 'not_selected'
     ELSE 'offered' END
   FROM partner_quotes AS pq
   WHERE pq.quote_request_id = partner_assignments.quote_request_id
     AND pq.partner_id = partner_assignments.partner_id`,

  `ALTER TABLE official_quotes ADD COLUMN superseded_at TEXT`,
  `CREATE UNIQUE INDEX official_quotes_current ON official_quotes (quote_request_id)
     WHERE superseded_at IS NULL`,
  `CREATE INDEX official_quotes_request ON official_quotes (quote_request_id, created_at)`,

  `ALTER TABLE request_status_history ADD COLUMN event TEXT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await inTableRebuild(db, async () => {
    await rebuildTable(
      db,
      "quote_requests",
      (create) =>
        create
          .replace(
            REQUEST_STATUS_CHECK,
            "CHECK (status IN ('pending','assigned','quoted','approved','paid','rejected','cancelled'))",
          )
          .replace(/\s*\)\s*$/, REQUEST_COLUMNS),
      { quote_deadline: BACKFILLED_DEADLINE },
    );
    await rebuildTable(db, "official_quotes", (create) =>
      create.replace(
        "quote_request_id INTEGER NOT NULL UNIQUE",
        "quote_request_id INTEGER NOT NULL",
      ),
    );
    for (const statement of statements) await sql.raw(statement).execute(db);
  });
}

export async function down(): Promise<void> {
  throw new Error("La ronda de cotización no se puede deshacer: restaura una copia de seguridad.");
}
