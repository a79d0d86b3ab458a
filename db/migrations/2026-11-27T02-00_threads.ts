import { sql, type Kysely } from "kysely";

/**
 * Questions and answers on a request (DECISIONS §8).
 * - `threads`: one `buyer` thread per request (the buyer ↔ the operators) and one `partner` thread
 *   per assignment (the operators ↔ that partner). Created with their first message; partial unique
 *   indexes keep one of each.
 * - `thread_messages`: plain text of 1-5,000 characters, an optional attachment (same columns as the
 *   other stored files), the author and the author's role when writing (the unread rule reads it:
 *   what the other side wrote). `kind` says whether an operator relayed an answer to every partner
 *   (`relay`) or forwarded a partner's question to the buyer (`forward`); `relayed_from_message_id`
 *   names the message it answered or copied.
 * - `thread_participants`: per thread and user, the last message read and how far the e-mail digest
 *   has reached (at most one e-mail per thread and recipient every 10 minutes).
 */
const statements = [
  `CREATE TABLE threads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    quote_request_id INTEGER NOT NULL REFERENCES quote_requests(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('buyer', 'partner')),
    assignment_id INTEGER REFERENCES partner_assignments(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    CHECK ((kind = 'buyer') = (assignment_id IS NULL))
  )`,
  `CREATE UNIQUE INDEX threads_one_buyer ON threads (quote_request_id) WHERE kind = 'buyer'`,
  `CREATE UNIQUE INDEX threads_one_per_assignment ON threads (assignment_id) WHERE assignment_id IS NOT NULL`,
  `CREATE INDEX threads_request ON threads (quote_request_id, kind)`,
  `CREATE TABLE thread_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    author_role TEXT NOT NULL CHECK (author_role IN ('buyer', 'partner', 'admin')),
    kind TEXT NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'relay', 'forward')),
    body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
    file_name TEXT,
    file_type TEXT,
    file_key TEXT,
    file_size INTEGER,
    relayed_from_message_id INTEGER REFERENCES thread_messages(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    CHECK ((file_key IS NULL) = (file_name IS NULL)),
    CHECK (kind = 'message' OR author_role = 'admin')
  )`,
  // A thread's window (the last 50, then older ones by id) and the unread counts (id > marker).
  `CREATE INDEX thread_messages_thread ON thread_messages (thread_id, id)`,
  `CREATE TABLE thread_participants (
    thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    last_read_message_id INTEGER NOT NULL DEFAULT 0,
    mailed_through_message_id INTEGER NOT NULL DEFAULT 0,
    mailed_at TEXT,
    PRIMARY KEY (thread_id, user_id)
  ) WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE thread_participants`.execute(db);
  await sql`DROP TABLE thread_messages`.execute(db);
  await sql`DROP TABLE threads`.execute(db);
}
