import { sql, type Kysely } from "kysely";

/**
 * The whole data model. Money is integer cents; timestamps are ISO-8601 UTC text; booleans are 0/1.
 * CHECK constraints mirror the domain enums so a bad write fails in the database too.
 */
const statements = [
  `CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    company_name TEXT,
    phone TEXT,
    role TEXT NOT NULL DEFAULT 'buyer' CHECK (role IN ('buyer','partner','admin')),
    is_featured_partner INTEGER NOT NULL DEFAULT 0 CHECK (is_featured_partner IN (0,1)),
    email_verified_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX users_role_created ON users (role, created_at)`,
  `CREATE INDEX users_created ON users (created_at)`,
  `CREATE INDEX users_featured ON users (is_featured_partner) WHERE is_featured_partner = 1`,

  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    user_agent TEXT
  )`,
  `CREATE INDEX sessions_user ON sessions (user_id)`,
  `CREATE INDEX sessions_expires ON sessions (expires_at)`,

  `CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL COLLATE NOCASE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX login_failures_email_created ON login_failures (email, created_at)`,

  `CREATE TABLE auth_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('verify_email','reset_password')),
    token_hash TEXT NOT NULL UNIQUE,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX auth_tokens_user ON auth_tokens (user_id, purpose)`,

  `CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,

  `CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,

  `CREATE TABLE categories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0,1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,

  `CREATE TABLE products (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT,
    sku TEXT,
    category_id INTEGER REFERENCES categories(id) ON DELETE SET NULL,
    supplier_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    base_price_cents INTEGER CHECK (base_price_cents IS NULL OR base_price_cents >= 0),
    stock_quantity INTEGER NOT NULL DEFAULT 0,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0,1)),
    image_key TEXT,
    image_type TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX products_active_created ON products (is_active, created_at)`,
  `CREATE INDEX products_category ON products (category_id)`,
  `CREATE INDEX products_supplier ON products (supplier_id)`,

  `CREATE TABLE contact_submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT,
    company TEXT,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX contact_submissions_created ON contact_submissions (created_at)`,

  `CREATE TABLE quote_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    buyer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
    title TEXT NOT NULL,
    description TEXT,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    file_key TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
      CHECK (status IN ('pending','assigned','quoted','approved','paid','rejected')),
    total_amount_cents INTEGER,
    admin_notes TEXT,
    rejection_reason TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX quote_requests_buyer_created ON quote_requests (buyer_id, created_at)`,
  `CREATE INDEX quote_requests_buyer_status ON quote_requests (buyer_id, status)`,
  `CREATE INDEX quote_requests_status_created ON quote_requests (status, created_at)`,
  `CREATE INDEX quote_requests_created ON quote_requests (created_at)`,

  `CREATE TABLE request_status_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    quote_request_id INTEGER NOT NULL REFERENCES quote_requests(id) ON DELETE CASCADE,
    actor_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    note TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX request_status_history_request ON request_status_history (quote_request_id, created_at)`,

  `CREATE TABLE partner_assignments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    partner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    quote_request_id INTEGER NOT NULL REFERENCES quote_requests(id) ON DELETE CASCADE,
    assigned_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    assigned_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    UNIQUE (quote_request_id, partner_id)
  )`,
  `CREATE INDEX partner_assignments_partner ON partner_assignments (partner_id, assigned_at)`,

  `CREATE TABLE partner_quotes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    quote_request_id INTEGER NOT NULL REFERENCES quote_requests(id) ON DELETE CASCADE,
    partner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    quoted_amount_cents INTEGER NOT NULL CHECK (quoted_amount_cents > 0),
    notes TEXT,
    file_name TEXT,
    file_type TEXT,
    file_key TEXT,
    is_selected INTEGER NOT NULL DEFAULT 0 CHECK (is_selected IN (0,1)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    UNIQUE (quote_request_id, partner_id)
  )`,
  `CREATE INDEX partner_quotes_partner ON partner_quotes (partner_id, created_at)`,
  `CREATE UNIQUE INDEX partner_quotes_one_selected ON partner_quotes (quote_request_id) WHERE is_selected = 1`,

  `CREATE TABLE official_quotes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    quote_request_id INTEGER NOT NULL UNIQUE REFERENCES quote_requests(id) ON DELETE CASCADE,
    partner_quote_id INTEGER REFERENCES partner_quotes(id) ON DELETE SET NULL,
    final_amount_cents INTEGER NOT NULL CHECK (final_amount_cents > 0),
    commission_percentage REAL NOT NULL CHECK (commission_percentage >= 0 AND commission_percentage <= 100),
    commission_amount_cents INTEGER NOT NULL CHECK (commission_amount_cents >= 0),
    currency TEXT NOT NULL DEFAULT 'USD',
    valid_until TEXT NOT NULL,
    pdf_key TEXT,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,

  `CREATE TABLE payments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    quote_request_id INTEGER NOT NULL REFERENCES quote_requests(id) ON DELETE CASCADE,
    official_quote_id INTEGER NOT NULL REFERENCES official_quotes(id) ON DELETE CASCADE,
    buyer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    method TEXT CHECK (method IS NULL OR method IN ('transfer','check','cash','other')),
    proof_key TEXT,
    proof_name TEXT,
    proof_type TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','confirmed','rejected')),
    rejection_reason TEXT,
    reviewed_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    submitted_at TEXT,
    confirmed_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX payments_buyer_created ON payments (buyer_id, created_at)`,
  `CREATE INDEX payments_status_created ON payments (status, created_at)`,
  `CREATE INDEX payments_request ON payments (quote_request_id)`,
  // One open payment and at most one confirmed payment per official quote, whatever races happen.
  `CREATE UNIQUE INDEX payments_one_pending ON payments (official_quote_id) WHERE status = 'pending'`,
  `CREATE UNIQUE INDEX payments_one_confirmed ON payments (official_quote_id) WHERE status = 'confirmed'`,

  `CREATE TABLE buyer_commissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    buyer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    payment_id INTEGER NOT NULL UNIQUE REFERENCES payments(id) ON DELETE CASCADE,
    commission_amount_cents INTEGER NOT NULL,
    loyalty_points INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX buyer_commissions_buyer ON buyer_commissions (buyer_id)`,

  `CREATE TABLE rewards (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    points_cost INTEGER NOT NULL CHECK (points_cost > 0),
    is_available INTEGER NOT NULL DEFAULT 1 CHECK (is_available IN (0,1)),
    sort_order INTEGER NOT NULL DEFAULT 0
  )`,

  `CREATE TABLE reward_redemptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    buyer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reward_id INTEGER NOT NULL REFERENCES rewards(id) ON DELETE RESTRICT,
    points INTEGER NOT NULL CHECK (points > 0),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX reward_redemptions_buyer ON reward_redemptions (buyer_id, created_at)`,

  `CREATE TABLE loyalty_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    buyer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    points INTEGER NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('payment','redemption','adjustment')),
    payment_id INTEGER UNIQUE REFERENCES payments(id) ON DELETE SET NULL,
    redemption_id INTEGER UNIQUE REFERENCES reward_redemptions(id) ON DELETE SET NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX loyalty_ledger_buyer_created ON loyalty_ledger (buyer_id, created_at)`,

  `CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('success','info','warning','error')),
    title TEXT NOT NULL,
    message TEXT NOT NULL,
    link TEXT,
    related_type TEXT CHECK (related_type IS NULL OR related_type IN ('quote','payment','assignment','contact','partner')),
    related_id INTEGER,
    read_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX notifications_user_created ON notifications (user_id, created_at)`,
  `CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read_at IS NULL`,

  `CREATE TABLE mail_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sending','sent','failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_attempt_at TEXT NOT NULL,
    sent_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
  )`,
  `CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at)`,

  `INSERT INTO rewards (name, description, points_cost, is_available, sort_order) VALUES
    ('Descuento 5%', 'Descuento del 5% en la comisión de tu próxima cotización.', 500, 1, 1),
    ('Descuento 10%', 'Descuento del 10% en la comisión de tu próxima cotización.', 1000, 1, 2),
    ('Consultoría Gratuita', 'Una sesión de consultoría de compras con nuestro equipo.', 2000, 1, 3),
    ('Descuento 15%', 'Descuento del 15% en la comisión de tu próxima cotización.', 3500, 0, 4)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = [
    "mail_outbox",
    "notifications",
    "loyalty_ledger",
    "reward_redemptions",
    "rewards",
    "buyer_commissions",
    "payments",
    "official_quotes",
    "partner_quotes",
    "partner_assignments",
    "request_status_history",
    "quote_requests",
    "contact_submissions",
    "products",
    "categories",
    "secrets",
    "settings",
    "auth_tokens",
    "login_failures",
    "sessions",
    "users",
  ];
  for (const table of tables) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
