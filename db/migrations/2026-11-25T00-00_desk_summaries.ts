import { sql, type Kysely } from "kysely";

/**
 * Summary data for the operator's desk (issue 10): counters and totals kept current by triggers in
 * the same transaction as the write that changes them, so /admin/analytics and every page's counters
 * read a handful of rows instead of scanning requests, quotes and payments.
 *
 * - request_status_counts: requests per status, and how many of them already have a partner quote.
 * - buyer_request_counts / buyer_payment_totals: the same per buyer (their dashboards and lists).
 * - payment_status_totals: payments per status with amounts, proofs and submitted proofs.
 * - monthly_totals: requests created and confirmed volume per month (the 12-month charts).
 * - summary_totals: platform-wide sums (commissions).
 * - request_turnaround: seconds from each request to its first partner quote (one row per request
 *   with a quote), and turnaround_hours / turnaround_seconds: how many requests took each whole hour
 *   / each second, so the median and the histogram are found without reading every request.
 * - partner_wins: selected quotes per partner (the top-partners table).
 * - partner_counters: each partner's dashboard figures.
 * - user_role_counts: users per role.
 *
 * Requests are never deleted by the product; delete triggers still undo what inserts did.
 * The migration fills every table from the existing rows (backfill).
 */

const hourOf = (seconds: string) =>
  `(CASE WHEN ${seconds} >= 0 THEN ${seconds} / 3600 ELSE (${seconds} - 3599) / 3600 END)`;

/** What one partner assignment adds to its partner's counters, given its quote and status. */
function contribution(
  pq: { id: string; selected: string; cents: string },
  status: string,
): Record<string, string> {
  return {
    assigned: "1",
    pending: `(${pq.id} IS NULL AND ${status} = 'assigned')`,
    submitted: `(${pq.id} IS NOT NULL)`,
    selected: `coalesce(${pq.selected} = 1, 0)`,
    potential_cents: `(CASE WHEN ${pq.selected} = 1 AND ${status} <> 'rejected' THEN ${pq.cents}
      WHEN ${pq.selected} = 0 AND ${status} = 'assigned' THEN ${pq.cents} ELSE 0 END)`,
    selected_cents: `(CASE WHEN ${pq.selected} = 1 THEN ${pq.cents} ELSE 0 END)`,
  };
}

const NO_QUOTE = { id: "NULL", selected: "NULL", cents: "NULL" };
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
const quoteOf = (alias: string) => ({
  id: `${alias}.id`,
  selected: `${alias}.is_selected`,
  cents: `${alias}.quoted_amount_cents`,
});
const assignmentExists = (requestId: string, partnerId: string) =>
  `EXISTS (SELECT 1 FROM partner_assignments WHERE quote_request_id = ${requestId} AND partner_id = ${partnerId})`;

/** The first partner quote of a request, recomputed from its quotes (deleted, then inserted). */
const recomputeTurnaround = (requestId: string) => `
  DELETE FROM request_turnaround WHERE quote_request_id = ${requestId};
  INSERT INTO request_turnaround (quote_request_id, seconds)
    SELECT qr.id, unixepoch(min(pq.created_at)) - unixepoch(qr.created_at)
    FROM quote_requests qr JOIN partner_quotes pq ON pq.quote_request_id = qr.id
    WHERE qr.id = ${requestId} GROUP BY qr.id;`;

const paymentTerms = (row: "OLD" | "NEW") => ({
  payments: "1",
  cents: `${row}.amount_cents`,
  with_proof: `(${row}.proof_key IS NOT NULL)`,
  submitted: `(${row}.submitted_at IS NOT NULL)`,
  submitted_cents: `(CASE WHEN ${row}.submitted_at IS NOT NULL THEN ${row}.amount_cents ELSE 0 END)`,
});

function paymentAdd(row: "NEW"): string {
  const t = paymentTerms(row);
  return `
    UPDATE payment_status_totals SET payments = payments + 1, cents = cents + ${t.cents},
      with_proof = with_proof + ${t.with_proof}, submitted = submitted + ${t.submitted},
      submitted_cents = submitted_cents + ${t.submitted_cents}
    WHERE status = NEW.status;
    INSERT INTO buyer_payment_totals (buyer_id, status, payments, cents)
      VALUES (NEW.buyer_id, NEW.status, 1, NEW.amount_cents)
      ON CONFLICT (buyer_id, status) DO UPDATE SET payments = payments + 1, cents = cents + excluded.cents;
    INSERT INTO monthly_totals (month, paid_cents)
      SELECT substr(NEW.confirmed_at, 1, 7), NEW.amount_cents
      WHERE NEW.status = 'confirmed' AND NEW.confirmed_at IS NOT NULL
      ON CONFLICT (month) DO UPDATE SET paid_cents = paid_cents + excluded.paid_cents;`;
}

function paymentRemove(row: "OLD"): string {
  const t = paymentTerms(row);
  return `
    UPDATE payment_status_totals SET payments = payments - 1, cents = cents - ${t.cents},
      with_proof = with_proof - ${t.with_proof}, submitted = submitted - ${t.submitted},
      submitted_cents = submitted_cents - ${t.submitted_cents}
    WHERE status = OLD.status;
    UPDATE buyer_payment_totals SET payments = payments - 1, cents = cents - OLD.amount_cents
      WHERE buyer_id = OLD.buyer_id AND status = OLD.status;
    UPDATE monthly_totals SET paid_cents = paid_cents - OLD.amount_cents
      WHERE month = substr(OLD.confirmed_at, 1, 7) AND OLD.status = 'confirmed';`;
}

const statements = [
  // ---- Tables
  `CREATE TABLE request_status_counts (
    status TEXT PRIMARY KEY,
    requests INTEGER NOT NULL DEFAULT 0,
    with_quotes INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  `CREATE TABLE buyer_request_counts (
    buyer_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    requests INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (buyer_id, status)
  ) WITHOUT ROWID`,
  `CREATE TABLE payment_status_totals (
    status TEXT PRIMARY KEY,
    payments INTEGER NOT NULL DEFAULT 0,
    cents INTEGER NOT NULL DEFAULT 0,
    with_proof INTEGER NOT NULL DEFAULT 0,
    submitted INTEGER NOT NULL DEFAULT 0,
    submitted_cents INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  `CREATE TABLE buyer_payment_totals (
    buyer_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    payments INTEGER NOT NULL DEFAULT 0,
    cents INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (buyer_id, status)
  ) WITHOUT ROWID`,
  `CREATE TABLE monthly_totals (
    month TEXT PRIMARY KEY,
    requests INTEGER NOT NULL DEFAULT 0,
    paid_cents INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  `CREATE TABLE summary_totals (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  `CREATE TABLE request_turnaround (
    quote_request_id INTEGER PRIMARY KEY,
    seconds INTEGER NOT NULL
  )`,
  `CREATE TABLE turnaround_hours (
    hour INTEGER PRIMARY KEY,
    requests INTEGER NOT NULL
  )`,
  `CREATE TABLE turnaround_seconds (
    seconds INTEGER PRIMARY KEY,
    requests INTEGER NOT NULL
  )`,
  `CREATE TABLE partner_wins (
    partner_id INTEGER PRIMARY KEY,
    won INTEGER NOT NULL DEFAULT 0,
    cents INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX partner_wins_rank ON partner_wins (won DESC, cents DESC, partner_id)`,
  `CREATE TABLE partner_counters (
    partner_id INTEGER PRIMARY KEY,
    assigned INTEGER NOT NULL DEFAULT 0,
    pending INTEGER NOT NULL DEFAULT 0,
    submitted INTEGER NOT NULL DEFAULT 0,
    selected INTEGER NOT NULL DEFAULT 0,
    potential_cents INTEGER NOT NULL DEFAULT 0,
    selected_cents INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE user_role_counts (
    role TEXT PRIMARY KEY,
    users INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  // A buyer's commissions and points are summed through covering indexes.
  `CREATE INDEX buyer_commissions_buyer_cents ON buyer_commissions (buyer_id, commission_amount_cents)`,
  `DROP INDEX buyer_commissions_buyer`,
  `CREATE INDEX loyalty_ledger_buyer_created_points ON loyalty_ledger (buyer_id, created_at, points)`,
  `DROP INDEX loyalty_ledger_buyer_created`,

  // ---- Backfill
  `INSERT INTO request_status_counts (status) VALUES
    ('pending'), ('assigned'), ('quoted'), ('approved'), ('paid'), ('rejected')`,
  `INSERT INTO payment_status_totals (status) VALUES ('pending'), ('confirmed'), ('rejected')`,
  `INSERT INTO user_role_counts (role) VALUES ('buyer'), ('partner'), ('admin')`,
  `INSERT INTO summary_totals (name, value)
    SELECT 'commission_cents', coalesce(sum(commission_amount_cents), 0) FROM buyer_commissions`,
  `UPDATE user_role_counts SET users = (SELECT count(*) FROM users u WHERE u.role = user_role_counts.role)`,
  `INSERT INTO request_turnaround (quote_request_id, seconds)
    SELECT qr.id, unixepoch(f.quoted_at) - unixepoch(qr.created_at)
    FROM (SELECT quote_request_id, min(created_at) AS quoted_at FROM partner_quotes GROUP BY quote_request_id) f
    JOIN quote_requests qr ON qr.id = f.quote_request_id`,
  `INSERT INTO turnaround_hours (hour, requests)
    SELECT ${hourOf("seconds")} AS h, count(*) FROM request_turnaround GROUP BY h`,
  `INSERT INTO turnaround_seconds (seconds, requests)
    SELECT seconds, count(*) FROM request_turnaround GROUP BY seconds`,
  `UPDATE request_status_counts SET
    requests = (SELECT count(*) FROM quote_requests qr WHERE qr.status = request_status_counts.status),
    with_quotes = (SELECT count(*) FROM quote_requests qr JOIN request_turnaround t ON t.quote_request_id = qr.id
      WHERE qr.status = request_status_counts.status)`,
  `INSERT INTO buyer_request_counts (buyer_id, status, requests)
    SELECT buyer_id, status, count(*) FROM quote_requests GROUP BY buyer_id, status`,
  `UPDATE payment_status_totals SET
    (payments, cents, with_proof, submitted, submitted_cents) = (
      SELECT count(*), coalesce(sum(amount_cents), 0), count(proof_key), count(submitted_at),
        coalesce(sum(CASE WHEN submitted_at IS NOT NULL THEN amount_cents ELSE 0 END), 0)
      FROM payments p WHERE p.status = payment_status_totals.status)`,
  `INSERT INTO buyer_payment_totals (buyer_id, status, payments, cents)
    SELECT buyer_id, status, count(*), sum(amount_cents) FROM payments GROUP BY buyer_id, status`,
  `INSERT INTO monthly_totals (month, requests)
    SELECT substr(created_at, 1, 7) AS m, count(*) FROM quote_requests GROUP BY m`,
  `INSERT INTO monthly_totals (month, paid_cents)
    SELECT substr(confirmed_at, 1, 7) AS m, sum(amount_cents) FROM payments
    WHERE status = 'confirmed' AND confirmed_at IS NOT NULL GROUP BY m
    ON CONFLICT (month) DO UPDATE SET paid_cents = excluded.paid_cents`,
  `INSERT INTO partner_wins (partner_id, won, cents)
    SELECT partner_id, count(*), sum(quoted_amount_cents) FROM partner_quotes
    WHERE is_selected = 1 GROUP BY partner_id`,
  (() => {
    const c = contribution(quoteOf("pq"), "qr.status");
    return `INSERT INTO partner_counters (partner_id, ${COUNTER_COLUMNS.join(", ")})
      SELECT pa.partner_id, ${COUNTER_COLUMNS.map((k) => `sum(${c[k]})`).join(", ")}
      FROM partner_assignments pa
      JOIN quote_requests qr ON qr.id = pa.quote_request_id
      LEFT JOIN partner_quotes pq ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
      GROUP BY pa.partner_id`;
  })(),

  // ---- Requests
  `CREATE TRIGGER quote_requests_summary_insert AFTER INSERT ON quote_requests BEGIN
    UPDATE request_status_counts SET requests = requests + 1 WHERE status = NEW.status;
    INSERT INTO buyer_request_counts (buyer_id, status, requests) VALUES (NEW.buyer_id, NEW.status, 1)
      ON CONFLICT (buyer_id, status) DO UPDATE SET requests = requests + 1;
    INSERT INTO monthly_totals (month, requests) VALUES (substr(NEW.created_at, 1, 7), 1)
      ON CONFLICT (month) DO UPDATE SET requests = requests + 1;
  END`,
  `CREATE TRIGGER quote_requests_summary_delete AFTER DELETE ON quote_requests BEGIN
    UPDATE request_status_counts SET requests = requests - 1 WHERE status = OLD.status;
    UPDATE buyer_request_counts SET requests = requests - 1
      WHERE buyer_id = OLD.buyer_id AND status = OLD.status;
    UPDATE monthly_totals SET requests = requests - 1 WHERE month = substr(OLD.created_at, 1, 7);
    DELETE FROM request_turnaround WHERE quote_request_id = OLD.id;
  END`,
  `CREATE TRIGGER quote_requests_summary_status AFTER UPDATE OF status, buyer_id ON quote_requests
  WHEN OLD.status IS NOT NEW.status OR OLD.buyer_id IS NOT NEW.buyer_id BEGIN
    UPDATE request_status_counts SET requests = requests - 1,
      with_quotes = with_quotes - EXISTS (SELECT 1 FROM request_turnaround WHERE quote_request_id = OLD.id)
      WHERE status = OLD.status;
    UPDATE request_status_counts SET requests = requests + 1,
      with_quotes = with_quotes + EXISTS (SELECT 1 FROM request_turnaround WHERE quote_request_id = NEW.id)
      WHERE status = NEW.status;
    UPDATE buyer_request_counts SET requests = requests - 1
      WHERE buyer_id = OLD.buyer_id AND status = OLD.status;
    INSERT INTO buyer_request_counts (buyer_id, status, requests) VALUES (NEW.buyer_id, NEW.status, 1)
      ON CONFLICT (buyer_id, status) DO UPDATE SET requests = requests + 1;
    ${(() => {
      const quote = quoteOf("pq");
      const plus = contribution(quote, "NEW.status");
      const minus = contribution(quote, "OLD.status");
      const sets = COUNTER_COLUMNS.map(
        (k) => `${k} = ${k} + (SELECT ${plus[k]} - ${minus[k]} FROM partner_assignments pa
          LEFT JOIN partner_quotes pq ON pq.quote_request_id = pa.quote_request_id AND pq.partner_id = pa.partner_id
          WHERE pa.quote_request_id = NEW.id AND pa.partner_id = partner_counters.partner_id)`,
      );
      return `UPDATE partner_counters SET ${sets.join(", ")}
        WHERE partner_id IN (SELECT partner_id FROM partner_assignments WHERE quote_request_id = NEW.id);`;
    })()}
  END`,
  `CREATE TRIGGER quote_requests_summary_created AFTER UPDATE OF created_at ON quote_requests
  WHEN OLD.created_at IS NOT NEW.created_at BEGIN
    UPDATE monthly_totals SET requests = requests - 1 WHERE month = substr(OLD.created_at, 1, 7);
    INSERT INTO monthly_totals (month, requests) VALUES (substr(NEW.created_at, 1, 7), 1)
      ON CONFLICT (month) DO UPDATE SET requests = requests + 1;
    ${recomputeTurnaround("NEW.id")}
  END`,

  // ---- Turnaround buckets and "with quotes" follow request_turnaround
  `CREATE TRIGGER request_turnaround_insert AFTER INSERT ON request_turnaround BEGIN
    INSERT INTO turnaround_hours (hour, requests) VALUES (${hourOf("NEW.seconds")}, 1)
      ON CONFLICT (hour) DO UPDATE SET requests = requests + 1;
    INSERT INTO turnaround_seconds (seconds, requests) VALUES (NEW.seconds, 1)
      ON CONFLICT (seconds) DO UPDATE SET requests = requests + 1;
    UPDATE request_status_counts SET with_quotes = with_quotes + 1
      WHERE status = ${statusOf("NEW.quote_request_id")};
  END`,
  `CREATE TRIGGER request_turnaround_delete AFTER DELETE ON request_turnaround BEGIN
    UPDATE turnaround_hours SET requests = requests - 1 WHERE hour = ${hourOf("OLD.seconds")};
    DELETE FROM turnaround_hours WHERE hour = ${hourOf("OLD.seconds")} AND requests <= 0;
    UPDATE turnaround_seconds SET requests = requests - 1 WHERE seconds = OLD.seconds;
    DELETE FROM turnaround_seconds WHERE seconds = OLD.seconds AND requests <= 0;
    UPDATE request_status_counts SET with_quotes = with_quotes - 1
      WHERE status = ${statusOf("OLD.quote_request_id")};
  END`,

  // ---- Partner quotes
  `CREATE TRIGGER partner_quotes_summary_insert AFTER INSERT ON partner_quotes BEGIN
    ${recomputeTurnaround("NEW.quote_request_id")}
    INSERT INTO partner_wins (partner_id, won, cents)
      SELECT NEW.partner_id, 1, NEW.quoted_amount_cents WHERE NEW.is_selected = 1
      ON CONFLICT (partner_id) DO UPDATE SET won = won + 1, cents = cents + excluded.cents;
    ${adjustPartner(
      "NEW.partner_id",
      contribution(
        { id: "NEW.id", selected: "NEW.is_selected", cents: "NEW.quoted_amount_cents" },
        statusOf("NEW.quote_request_id"),
      ),
      contribution(NO_QUOTE, statusOf("NEW.quote_request_id")),
      assignmentExists("NEW.quote_request_id", "NEW.partner_id"),
    )}
  END`,
  `CREATE TRIGGER partner_quotes_summary_delete AFTER DELETE ON partner_quotes BEGIN
    ${recomputeTurnaround("OLD.quote_request_id")}
    UPDATE partner_wins SET won = won - 1, cents = cents - OLD.quoted_amount_cents
      WHERE partner_id = OLD.partner_id AND OLD.is_selected = 1;
    ${adjustPartner(
      "OLD.partner_id",
      contribution(NO_QUOTE, statusOf("OLD.quote_request_id")),
      contribution(
        { id: "OLD.id", selected: "OLD.is_selected", cents: "OLD.quoted_amount_cents" },
        statusOf("OLD.quote_request_id"),
      ),
      assignmentExists("OLD.quote_request_id", "OLD.partner_id"),
    )}
  END`,
  `CREATE TRIGGER partner_quotes_summary_update
  AFTER UPDATE OF is_selected, quoted_amount_cents, partner_id, quote_request_id ON partner_quotes BEGIN
    UPDATE partner_wins SET won = won - 1, cents = cents - OLD.quoted_amount_cents
      WHERE partner_id = OLD.partner_id AND OLD.is_selected = 1;
    INSERT INTO partner_wins (partner_id, won, cents)
      SELECT NEW.partner_id, 1, NEW.quoted_amount_cents WHERE NEW.is_selected = 1
      ON CONFLICT (partner_id) DO UPDATE SET won = won + 1, cents = cents + excluded.cents;
    ${adjustPartner(
      "OLD.partner_id",
      contribution(NO_QUOTE, statusOf("OLD.quote_request_id")),
      contribution(
        { id: "OLD.id", selected: "OLD.is_selected", cents: "OLD.quoted_amount_cents" },
        statusOf("OLD.quote_request_id"),
      ),
      assignmentExists("OLD.quote_request_id", "OLD.partner_id"),
    )}
    ${adjustPartner(
      "NEW.partner_id",
      contribution(
        { id: "NEW.id", selected: "NEW.is_selected", cents: "NEW.quoted_amount_cents" },
        statusOf("NEW.quote_request_id"),
      ),
      contribution(NO_QUOTE, statusOf("NEW.quote_request_id")),
      assignmentExists("NEW.quote_request_id", "NEW.partner_id"),
    )}
  END`,
  `CREATE TRIGGER partner_quotes_summary_moved
  AFTER UPDATE OF created_at, quote_request_id ON partner_quotes
  WHEN OLD.created_at IS NOT NEW.created_at OR OLD.quote_request_id IS NOT NEW.quote_request_id BEGIN
    ${recomputeTurnaround("OLD.quote_request_id")}
    ${recomputeTurnaround("NEW.quote_request_id")}
  END`,

  // ---- Partner assignments
  `CREATE TRIGGER partner_assignments_summary_insert AFTER INSERT ON partner_assignments BEGIN
    ${adjustPartner(
      "NEW.partner_id",
      contribution(
        {
          id: "(SELECT id FROM partner_quotes WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id)",
          selected:
            "(SELECT is_selected FROM partner_quotes WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id)",
          cents:
            "(SELECT quoted_amount_cents FROM partner_quotes WHERE quote_request_id = NEW.quote_request_id AND partner_id = NEW.partner_id)",
        },
        statusOf("NEW.quote_request_id"),
      ),
      null,
    )}
  END`,
  `CREATE TRIGGER partner_assignments_summary_delete AFTER DELETE ON partner_assignments BEGIN
    ${adjustPartner(
      "OLD.partner_id",
      null,
      contribution(
        {
          id: "(SELECT id FROM partner_quotes WHERE quote_request_id = OLD.quote_request_id AND partner_id = OLD.partner_id)",
          selected:
            "(SELECT is_selected FROM partner_quotes WHERE quote_request_id = OLD.quote_request_id AND partner_id = OLD.partner_id)",
          cents:
            "(SELECT quoted_amount_cents FROM partner_quotes WHERE quote_request_id = OLD.quote_request_id AND partner_id = OLD.partner_id)",
        },
        statusOf("OLD.quote_request_id"),
      ),
    )}
  END`,

  // ---- Payments
  `CREATE TRIGGER payments_summary_insert AFTER INSERT ON payments BEGIN
    ${paymentAdd("NEW")}
  END`,
  `CREATE TRIGGER payments_summary_delete AFTER DELETE ON payments BEGIN
    ${paymentRemove("OLD")}
  END`,
  `CREATE TRIGGER payments_summary_update
  AFTER UPDATE OF status, amount_cents, proof_key, submitted_at, confirmed_at, buyer_id ON payments BEGIN
    ${paymentRemove("OLD")}
    ${paymentAdd("NEW")}
  END`,

  // ---- Commissions
  `CREATE TRIGGER buyer_commissions_summary_insert AFTER INSERT ON buyer_commissions BEGIN
    UPDATE summary_totals SET value = value + NEW.commission_amount_cents WHERE name = 'commission_cents';
  END`,
  `CREATE TRIGGER buyer_commissions_summary_delete AFTER DELETE ON buyer_commissions BEGIN
    UPDATE summary_totals SET value = value - OLD.commission_amount_cents WHERE name = 'commission_cents';
  END`,
  `CREATE TRIGGER buyer_commissions_summary_update AFTER UPDATE OF commission_amount_cents ON buyer_commissions BEGIN
    UPDATE summary_totals SET value = value - OLD.commission_amount_cents + NEW.commission_amount_cents
      WHERE name = 'commission_cents';
  END`,

  // ---- Users per role
  `CREATE TRIGGER users_summary_insert AFTER INSERT ON users BEGIN
    UPDATE user_role_counts SET users = users + 1 WHERE role = NEW.role;
  END`,
  `CREATE TRIGGER users_summary_delete AFTER DELETE ON users BEGIN
    UPDATE user_role_counts SET users = users - 1 WHERE role = OLD.role;
  END`,
  `CREATE TRIGGER users_summary_role AFTER UPDATE OF role ON users WHEN OLD.role IS NOT NEW.role BEGIN
    UPDATE user_role_counts SET users = users - 1 WHERE role = OLD.role;
    UPDATE user_role_counts SET users = users + 1 WHERE role = NEW.role;
  END`,
];

const TABLES = [
  "request_status_counts",
  "buyer_request_counts",
  "payment_status_totals",
  "buyer_payment_totals",
  "monthly_totals",
  "summary_totals",
  "request_turnaround",
  "turnaround_hours",
  "turnaround_seconds",
  "partner_wins",
  "partner_counters",
  "user_role_counts",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    // Dropping a table drops the triggers that write into it only when they are ON it: drop all.
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
  const triggers = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_summary_%'
      OR type = 'trigger' AND name LIKE 'request_turnaround_%'`.execute(db);
  for (const { name } of triggers.rows) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
  await sql`CREATE INDEX buyer_commissions_buyer ON buyer_commissions (buyer_id)`.execute(db);
  await sql`DROP INDEX buyer_commissions_buyer_cents`.execute(db);
  await sql`CREATE INDEX loyalty_ledger_buyer_created ON loyalty_ledger (buyer_id, created_at)`.execute(
    db,
  );
  await sql`DROP INDEX loyalty_ledger_buyer_created_points`.execute(db);
}
