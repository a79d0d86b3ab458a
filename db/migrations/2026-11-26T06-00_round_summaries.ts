import { sql, type Kysely } from "kysely";

/**
 * The desk's summaries and search scopes, told the truth about the sourcing round (DECISIONS §6).
 * The triggers of 2026-11-25T00-00_desk_summaries and 2026-11-26T00-00_search_filters were written
 * before assignment states and the `cancelled` status; those that must change are dropped and
 * recreated here (their generators are copied: landed migrations are frozen), and the rows they
 * keep are recomputed from the base tables.
 *
 * - partner_counters.pending: the partner's assignments still `invited` and without an own quote,
 *   on requests still `assigned`. A declined or withdrawn assignment is closed for the partner: it
 *   is no longer pending. (The quote check keeps the figure exact for quotes stored before the
 *   offer step moved assignments to `offered`.) A new trigger follows `UPDATE OF state`.
 * - partner_counters.potential_cents: a selected offer on a cancelled request is no longer in
 *   play, as one on a rejected request was not.
 * - request_status_counts: every status is counted, `cancelled` included; the insert and status
 *   triggers add a status row when it is missing instead of silently counting nothing.
 * - quote_request_search.scope: `c<partner>` for each declined or withdrawn assignment, so the
 *   partner's "pending" search filter (`sassigned`, not `q<partner>`, not `c<partner>`) excludes
 *   them as the counter does.
 *
 * Indexes for the lists sorted and filtered by deadline (issue 11), read by name (INDEXED BY) so
 * their plans do not hang on the planner's statistics:
 * - quote_requests_open_created: open requests newest first, with their deadline and status, so
 *   the desk's «Plazo» filter reads one index range whether it matches few requests or thousands;
 * - quote_requests_status_deadline: a status sorted by deadline, and the «Plazo» count by status;
 * - partner_assignments_partner_state: a partner's assignments with their state and request, so
 *   sorting them by deadline reads no assignment row.
 * The sourcing round rebuilt quote_requests and official_quotes, which dropped their planner
 * statistics; where the database keeps statistics for other tables, theirs are gathered again
 * (without any, the planner estimated every list from the users table and sorted all requests).
 *
 * Everything runs in one IMMEDIATE transaction: no write lands between a dropped trigger and its
 * replacement, and a failure leaves the previous triggers and figures as they were.
 */

/** Whether the definitions know the sourcing round (up) or are the earlier ones (down). */
type Version = "round" | "earlier";

interface QuoteTerms {
  id: string;
  selected: string;
  cents: string;
}

/** What one partner assignment adds to its partner's counters, given its quote, status and state. */
function contribution(
  version: Version,
  pq: QuoteTerms,
  status: string,
  state: string,
): Record<string, string> {
  const round = version === "round";
  return {
    assigned: "1",
    pending: round
      ? `(${state} = 'invited' AND ${pq.id} IS NULL AND ${status} = 'assigned')`
      : `(${pq.id} IS NULL AND ${status} = 'assigned')`,
    submitted: `(${pq.id} IS NOT NULL)`,
    selected: `coalesce(${pq.selected} = 1, 0)`,
    potential_cents: `(CASE WHEN ${pq.selected} = 1 AND ${status} NOT IN (${round ? "'rejected', 'cancelled'" : "'rejected'"}) THEN ${pq.cents}
      WHEN ${pq.selected} = 0 AND ${status} = 'assigned' THEN ${pq.cents} ELSE 0 END)`,
    selected_cents: `(CASE WHEN ${pq.selected} = 1 THEN ${pq.cents} ELSE 0 END)`,
  };
}

const NO_QUOTE: QuoteTerms = { id: "NULL", selected: "NULL", cents: "NULL" };
const COUNTER_COLUMNS = [
  "assigned",
  "pending",
  "submitted",
  "selected",
  "potential_cents",
  "selected_cents",
] as const;

/** `UPDATE partner_counters` adding `plus` and subtracting `minus` (contributions), per column. */
function adjustPartner(
  partnerId: string,
  plus: Record<string, string> | null,
  minus: Record<string, string> | null,
  condition = "1",
): string {
  const sets = COUNTER_COLUMNS.map((column) => {
    const delta = [plus ? `+ ${plus[column]}` : "", minus ? `- ${minus[column]}` : ""].join(" ");
    return `${column} = ${column} ${delta}`;
  });
  return `INSERT OR IGNORE INTO partner_counters (partner_id) SELECT ${partnerId} WHERE ${condition};
    UPDATE partner_counters SET ${sets.join(", ")} WHERE partner_id = ${partnerId} AND ${condition};`;
}

const statusOf = (requestId: string) =>
  `(SELECT status FROM quote_requests WHERE id = ${requestId})`;
const stateOf = (requestId: string, partnerId: string) =>
  `(SELECT state FROM partner_assignments WHERE quote_request_id = ${requestId} AND partner_id = ${partnerId})`;
const quoteOf = (alias: string): QuoteTerms => ({
  id: `${alias}.id`,
  selected: `${alias}.is_selected`,
  cents: `${alias}.quoted_amount_cents`,
});
const quoteRow = (row: "NEW" | "OLD"): QuoteTerms => ({
  id: `${row}.id`,
  selected: `${row}.is_selected`,
  cents: `${row}.quoted_amount_cents`,
});
/** The own quote of the assignment `row` (NEW or OLD), read from partner_quotes. */
const assignmentQuote = (row: "NEW" | "OLD"): QuoteTerms => {
  const column = (name: string) =>
    `(SELECT ${name} FROM partner_quotes WHERE quote_request_id = ${row}.quote_request_id AND partner_id = ${row}.partner_id)`;
  return {
    id: column("id"),
    selected: column("is_selected"),
    cents: column("quoted_amount_cents"),
  };
};
const assignmentExists = (requestId: string, partnerId: string) =>
  `EXISTS (SELECT 1 FROM partner_assignments WHERE quote_request_id = ${requestId} AND partner_id = ${partnerId})`;

const hasQuotes = (requestId: string) =>
  `EXISTS (SELECT 1 FROM request_turnaround WHERE quote_request_id = ${requestId})`;

/** One more request in `status` (with_quotes: 0/1 expression); the row is added when missing. */
function countInto(version: Version, status: string, withQuotes: string | null): string {
  if (version === "earlier") {
    return withQuotes === null
      ? `UPDATE request_status_counts SET requests = requests + 1 WHERE status = ${status};`
      : `UPDATE request_status_counts SET requests = requests + 1, with_quotes = with_quotes + ${withQuotes}
          WHERE status = ${status};`;
  }
  return `INSERT INTO request_status_counts (status, requests, with_quotes)
      VALUES (${status}, 1, ${withQuotes ?? "0"})
      ON CONFLICT (status) DO UPDATE SET requests = requests + 1,
        with_quotes = with_quotes + excluded.with_quotes;`;
}

// ---- Search scope

const buyerText = (u: string) =>
  `${u}.first_name || ' ' || ${u}.last_name || ' ' || coalesce(${u}.company_name, '') || ' ' || ${u}.email`;

const CLOSED_STATES = "('declined', 'withdrawn')";

/** The scope tokens of request `id` whose buyer and status are the columns `buyerId`, `status`. */
const scopeOf = (version: Version, id: string, buyerId: string, status: string) =>
  `'b' || ${buyerId} || ' s' || replace(${status}, '_', '')
    || coalesce((SELECT ' ' || group_concat('p' || pa.partner_id, ' ')
      FROM partner_assignments pa WHERE pa.quote_request_id = ${id}), '')
    ${
      version === "round"
        ? `|| coalesce((SELECT ' ' || group_concat('c' || pa.partner_id, ' ')
      FROM partner_assignments pa WHERE pa.quote_request_id = ${id} AND pa.state IN ${CLOSED_STATES}), '')`
        : ""
    }
    || coalesce((SELECT ' ' || group_concat('q' || pq.partner_id
        || CASE WHEN pq.is_selected = 1 THEN ' w' || pq.partner_id ELSE '' END, ' ')
      FROM partner_quotes pq WHERE pq.quote_request_id = ${id}), '')`;

const refreshScope = (version: Version, id: string) =>
  `UPDATE quote_request_search
    SET scope = (SELECT ${scopeOf(version, "qr.id", "qr.buyer_id", "qr.status")} FROM quote_requests qr WHERE qr.id = ${id})
    WHERE rowid = ${id};`;

// ---- Triggers

function triggers(version: Version): Record<string, string> {
  const requestStatusCounters = (() => {
    const quote = quoteOf("pq");
    const plus = contribution(version, quote, "NEW.status", "pa.state");
    const minus = contribution(version, quote, "OLD.status", "pa.state");
    const sets = COUNTER_COLUMNS.map(
      (k) => `${k} = ${k} + (SELECT ${plus[k]} - ${minus[k]} FROM partner_assignments pa
          LEFT JOIN partner_quotes pq ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
          WHERE pa.quote_request_id = NEW.id AND pa.partner_id = partner_counters.partner_id)`,
    );
    return `UPDATE partner_counters SET ${sets.join(", ")}
        WHERE partner_id IN (SELECT partner_id FROM partner_assignments WHERE quote_request_id = NEW.id);`;
  })();
  /** The counters of a quote's partner, with the quote `row` in or out. */
  const quoteCounters = (row: "NEW" | "OLD", direction: "add" | "remove") => {
    const request = `${row}.quote_request_id`;
    const partner = `${row}.partner_id`;
    const status = statusOf(request);
    const state = stateOf(request, partner);
    const withQuote = contribution(version, quoteRow(row), status, state);
    const without = contribution(version, NO_QUOTE, status, state);
    return direction === "add"
      ? adjustPartner(partner, withQuote, without, assignmentExists(request, partner))
      : adjustPartner(partner, without, withQuote, assignmentExists(request, partner));
  };

  const definitions: Record<string, string> = {
    quote_requests_summary_insert: `AFTER INSERT ON quote_requests BEGIN
      ${countInto(version, "NEW.status", null)}
      INSERT INTO buyer_request_counts (buyer_id, status, requests) VALUES (NEW.buyer_id, NEW.status, 1)
        ON CONFLICT (buyer_id, status) DO UPDATE SET requests = requests + 1;
      INSERT INTO monthly_totals (month, requests) VALUES (substr(NEW.created_at, 1, 7), 1)
        ON CONFLICT (month) DO UPDATE SET requests = requests + 1;
    END`,
    quote_requests_summary_status: `AFTER UPDATE OF status, buyer_id ON quote_requests
    WHEN OLD.status IS NOT NEW.status OR OLD.buyer_id IS NOT NEW.buyer_id BEGIN
      UPDATE request_status_counts SET requests = requests - 1,
        with_quotes = with_quotes - ${hasQuotes("OLD.id")}
        WHERE status = OLD.status;
      ${countInto(version, "NEW.status", hasQuotes("NEW.id"))}
      UPDATE buyer_request_counts SET requests = requests - 1
        WHERE buyer_id = OLD.buyer_id AND status = OLD.status;
      INSERT INTO buyer_request_counts (buyer_id, status, requests) VALUES (NEW.buyer_id, NEW.status, 1)
        ON CONFLICT (buyer_id, status) DO UPDATE SET requests = requests + 1;
      ${requestStatusCounters}
    END`,
    partner_quotes_summary_insert: `AFTER INSERT ON partner_quotes BEGIN
      DELETE FROM request_turnaround WHERE quote_request_id = NEW.quote_request_id;
      INSERT INTO request_turnaround (quote_request_id, seconds)
        SELECT qr.id, unixepoch(min(pq.created_at)) - unixepoch(qr.created_at)
        FROM quote_requests qr JOIN partner_quotes pq ON pq.quote_request_id = qr.id
        WHERE qr.id = NEW.quote_request_id GROUP BY qr.id;
      INSERT INTO partner_wins (partner_id, won, cents)
        SELECT NEW.partner_id, 1, NEW.quoted_amount_cents WHERE NEW.is_selected = 1
        ON CONFLICT (partner_id) DO UPDATE SET won = won + 1, cents = cents + excluded.cents;
      ${quoteCounters("NEW", "add")}
    END`,
    partner_quotes_summary_delete: `AFTER DELETE ON partner_quotes BEGIN
      DELETE FROM request_turnaround WHERE quote_request_id = OLD.quote_request_id;
      INSERT INTO request_turnaround (quote_request_id, seconds)
        SELECT qr.id, unixepoch(min(pq.created_at)) - unixepoch(qr.created_at)
        FROM quote_requests qr JOIN partner_quotes pq ON pq.quote_request_id = qr.id
        WHERE qr.id = OLD.quote_request_id GROUP BY qr.id;
      UPDATE partner_wins SET won = won - 1, cents = cents - OLD.quoted_amount_cents
        WHERE partner_id = OLD.partner_id AND OLD.is_selected = 1;
      ${quoteCounters("OLD", "remove")}
    END`,
    partner_quotes_summary_update: `AFTER UPDATE OF is_selected, quoted_amount_cents, partner_id, quote_request_id ON partner_quotes BEGIN
      UPDATE partner_wins SET won = won - 1, cents = cents - OLD.quoted_amount_cents
        WHERE partner_id = OLD.partner_id AND OLD.is_selected = 1;
      INSERT INTO partner_wins (partner_id, won, cents)
        SELECT NEW.partner_id, 1, NEW.quoted_amount_cents WHERE NEW.is_selected = 1
        ON CONFLICT (partner_id) DO UPDATE SET won = won + 1, cents = cents + excluded.cents;
      ${quoteCounters("OLD", "remove")}
      ${quoteCounters("NEW", "add")}
    END`,
    partner_assignments_summary_insert: `AFTER INSERT ON partner_assignments BEGIN
      ${adjustPartner(
        "NEW.partner_id",
        contribution(
          version,
          assignmentQuote("NEW"),
          statusOf("NEW.quote_request_id"),
          "NEW.state",
        ),
        null,
      )}
    END`,
    partner_assignments_summary_delete: `AFTER DELETE ON partner_assignments BEGIN
      ${adjustPartner(
        "OLD.partner_id",
        null,
        contribution(
          version,
          assignmentQuote("OLD"),
          statusOf("OLD.quote_request_id"),
          "OLD.state",
        ),
      )}
    END`,

    quote_requests_search_insert: `AFTER INSERT ON quote_requests BEGIN
      INSERT INTO quote_request_search (rowid, title, description, buyer, scope)
        SELECT NEW.id, NEW.title, coalesce(NEW.description, ''), ${buyerText("u")}, ${scopeOf(version, "NEW.id", "NEW.buyer_id", "NEW.status")}
        FROM users u WHERE u.id = NEW.buyer_id;
    END`,
    quote_requests_search_update: `AFTER UPDATE OF title, description, buyer_id ON quote_requests
    WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.buyer_id IS NOT NEW.buyer_id BEGIN
      UPDATE quote_request_search SET title = NEW.title, description = coalesce(NEW.description, ''),
        buyer = (SELECT ${buyerText("u")} FROM users u WHERE u.id = NEW.buyer_id),
        scope = ${scopeOf(version, "NEW.id", "NEW.buyer_id", "NEW.status")}
      WHERE rowid = NEW.id;
    END`,
    quote_requests_search_status: `AFTER UPDATE OF status ON quote_requests
    WHEN OLD.status IS NOT NEW.status BEGIN
      ${refreshScope(version, "NEW.id")}
    END`,
    partner_assignments_search_insert: `AFTER INSERT ON partner_assignments BEGIN
      ${refreshScope(version, "NEW.quote_request_id")}
    END`,
    partner_assignments_search_delete: `AFTER DELETE ON partner_assignments BEGIN
      ${refreshScope(version, "OLD.quote_request_id")}
    END`,
    partner_quotes_search_insert: `AFTER INSERT ON partner_quotes BEGIN
      ${refreshScope(version, "NEW.quote_request_id")}
    END`,
    partner_quotes_search_update: `AFTER UPDATE OF is_selected, partner_id, quote_request_id ON partner_quotes
    WHEN OLD.is_selected IS NOT NEW.is_selected OR OLD.partner_id IS NOT NEW.partner_id
      OR OLD.quote_request_id IS NOT NEW.quote_request_id BEGIN
      ${refreshScope(version, "NEW.quote_request_id")}
      ${refreshScope(version, "OLD.quote_request_id")}
    END`,
    partner_quotes_search_delete: `AFTER DELETE ON partner_quotes BEGIN
      ${refreshScope(version, "OLD.quote_request_id")}
    END`,
  };
  if (version === "round") {
    // Of the counters, only "pending" depends on the state: whether it is `invited`.
    definitions.partner_assignments_summary_state = `AFTER UPDATE OF state ON partner_assignments
    WHEN (OLD.state = 'invited') IS NOT (NEW.state = 'invited') BEGIN
      ${adjustPartner(
        "NEW.partner_id",
        contribution(
          version,
          assignmentQuote("NEW"),
          statusOf("NEW.quote_request_id"),
          "NEW.state",
        ),
        contribution(
          version,
          assignmentQuote("NEW"),
          statusOf("NEW.quote_request_id"),
          "OLD.state",
        ),
      )}
    END`;
    // Of the scope, only `c<partner>` depends on the state: whether it is closed.
    definitions.partner_assignments_search_state = `AFTER UPDATE OF state ON partner_assignments
    WHEN (OLD.state IN ${CLOSED_STATES}) IS NOT (NEW.state IN ${CLOSED_STATES}) BEGIN
      ${refreshScope(version, "NEW.quote_request_id")}
    END`;
  }
  return definitions;
}

/** The figures the triggers keep, recomputed from the base tables. */
function recompute(version: Version): string[] {
  const c = contribution(version, quoteOf("pq"), "qr.status", "pa.state");
  return [
    `INSERT OR IGNORE INTO request_status_counts (status) VALUES
      ('pending'), ('assigned'), ('quoted'), ('approved'), ('paid'), ('rejected'), ('cancelled')`,
    `UPDATE request_status_counts SET
      requests = (SELECT count(*) FROM quote_requests qr WHERE qr.status = request_status_counts.status),
      with_quotes = (SELECT count(*) FROM quote_requests qr JOIN request_turnaround t ON t.quote_request_id = qr.id
        WHERE qr.status = request_status_counts.status)`,
    `DELETE FROM partner_counters`,
    `INSERT INTO partner_counters (partner_id, ${COUNTER_COLUMNS.join(", ")})
      SELECT pa.partner_id, ${COUNTER_COLUMNS.map((k) => `sum(${c[k]})`).join(", ")}
      FROM partner_assignments pa
      JOIN quote_requests qr ON qr.id = pa.quote_request_id
      LEFT JOIN partner_quotes pq ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
      GROUP BY pa.partner_id`,
    // Only requests with a closed assignment gain (or, going down, lose) a token.
    `UPDATE quote_request_search
      SET scope = (SELECT ${scopeOf(version, "qr.id", "qr.buyer_id", "qr.status")}
        FROM quote_requests qr WHERE qr.id = quote_request_search.rowid)
      WHERE rowid IN (SELECT quote_request_id FROM partner_assignments WHERE state IN ${CLOSED_STATES})`,
  ];
}

const INDEXES = {
  quote_requests_open_created: `ON quote_requests (created_at, id, quote_deadline, status)
    WHERE status IN ('pending','assigned')`,
  quote_requests_status_deadline: `ON quote_requests (status, quote_deadline, id)`,
  partner_assignments_partner_state: `ON partner_assignments (partner_id, state, quote_request_id)`,
};

/** Tables the sourcing round rebuilt, whose statistics went with the old table. */
const REBUILT_TABLES = ["quote_requests", "official_quotes"];

async function install(db: Kysely<unknown>, from: Version, to: Version, statements: string[]) {
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    for (const name of Object.keys(triggers(from))) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
    }
    for (const [name, body] of Object.entries(triggers(to))) {
      await sql.raw(`CREATE TRIGGER ${name} ${body}`).execute(db);
    }
    for (const statement of [...recompute(to), ...statements]) await sql.raw(statement).execute(db);
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  }
}

/**
 * ANALYZE for each rebuilt table without statistics and for each new index, where the database
 * keeps statistics (a database never analyzed stays so: the lists name their indexes anyway). An
 * index without statistics beside analyzed ones looks better than it is to the planner.
 */
async function statisticsToRestore(db: Kysely<unknown>): Promise<string[]> {
  const kept = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_schema
    WHERE type = 'table' AND name = 'sqlite_stat1'`.execute(db);
  if (Number(kept.rows[0]?.n ?? 0) === 0) return [];
  const analyzed = await sql<{ tbl: string }>`SELECT DISTINCT tbl FROM sqlite_stat1`.execute(db);
  const tables = new Set(analyzed.rows.map((r) => r.tbl));
  if (tables.size === 0) return [];
  const rebuilt = REBUILT_TABLES.filter((table) => !tables.has(table));
  const indexes = Object.entries(INDEXES)
    .filter(([, on]) => !rebuilt.some((table) => on.startsWith(`ON ${table} `)))
    .map(([name]) => name);
  return [...rebuilt, ...indexes].map((name) => `ANALYZE ${name}`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await install(db, "earlier", "round", [
    ...Object.entries(INDEXES).map(([name, on]) => `CREATE INDEX ${name} ${on}`),
    ...(await statisticsToRestore(db)),
  ]);
}

/** Back to the earlier triggers and figures (the assignment states themselves stay). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await install(
    db,
    "round",
    "earlier",
    Object.keys(INDEXES).map((name) => `DROP INDEX IF EXISTS ${name}`),
  );
}
