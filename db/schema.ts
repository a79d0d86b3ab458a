import type { ColumnType, Generated, Selectable } from "kysely";

/** ISO-8601 UTC timestamps stored as TEXT ("2026-11-22T14:03:36.000Z"). */
type Timestamp = string;
type CreatedAt = ColumnType<Timestamp, Timestamp | undefined, never>;

export type Role = "buyer" | "partner" | "admin";
export type RequestStatus =
  "pending" | "assigned" | "quoted" | "approved" | "paid" | "rejected" | "cancelled";
/** A partner's part in one request (DECISIONS §6). */
export type AssignmentState =
  "invited" | "offered" | "declined" | "withdrawn" | "selected" | "not_selected";
export type PaymentStatus = "pending" | "confirmed" | "rejected";
export type PaymentMethod = "transfer" | "check" | "cash" | "other";
export type TokenPurpose = "verify_email" | "reset_password" | "invitation";
export type NotificationType = "success" | "info" | "warning" | "error";
export type RedemptionStatus = "pending" | "delivered";
export type RelatedType = "quote" | "payment" | "assignment" | "contact" | "partner";
type MailStatus = "pending" | "sending" | "sent" | "failed";

interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  phone: string | null;
  role: Role;
  is_featured_partner: Generated<number>;
  email_verified_at: Timestamp | null;
  /** When the owner was last warned that their account is being locked out from somewhere. */
  lockout_alerted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Set while an operator has the account deactivated: no sign-in, no session, no e-mail. */
  deactivated_at: Timestamp | null;
  /** The operator who deactivated it. */
  deactivated_by: number | null;
  /**
   * When the account last started a session; NULL: never. Accounts verified before the column
   * existed (migration 2026-11-28T02-00) without a live session hold their verification time.
   */
  last_sign_in_at: Timestamp | null;
}

interface SessionsTable {
  id: string;
  user_id: number;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
}

interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  /** The client's address as the edge saw it (Fly-Client-IP behind TRUST_PROXY). */
  client_address: Generated<string>;
  /** The device cookie's nonce when the browser had one for this account; NULL: unknown device. */
  device: string | null;
  created_at: CreatedAt;
}

/** One-time tokens of create forms already used (a double submit stores one row). */
interface FormTokensTable {
  token: string;
  /** Where the first submit led; a repeated submit is sent there too. */
  result_path: string;
  used_at: CreatedAt;
}

interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: TokenPurpose;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

interface SettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

interface SecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

interface CategoriesTable {
  id: Generated<number>;
  name: string;
  is_active: Generated<number>;
  created_at: CreatedAt;
}

interface ProductsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  sku: string | null;
  category_id: number | null;
  supplier_id: number | null;
  base_price_cents: number | null;
  stock_quantity: Generated<number>;
  is_active: Generated<number>;
  image_key: string | null;
  image_type: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface ContactSubmissionsTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  message: string;
  /** Where the message came from (the contact form's flood limit); null before it was kept. */
  client_address: string | null;
  created_at: CreatedAt;
}

interface QuoteRequestsTable {
  id: Generated<number>;
  buyer_id: number;
  title: string;
  description: string | null;
  file_name: string;
  file_type: string;
  file_key: string;
  file_size: number;
  status: RequestStatus;
  total_amount_cents: number | null;
  admin_notes: string | null;
  rejection_reason: string | null;
  /** Partners may offer until this instant (DECISIONS §6). */
  quote_deadline: ColumnType<Timestamp, Timestamp | undefined, Timestamp>;
  /** The date the buyer needs the goods by ("2026-12-31"), if they said. */
  needed_by: string | null;
  cancellation_reason: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface RequestStatusHistoryTable {
  id: Generated<number>;
  quote_request_id: number;
  actor_id: number | null;
  from_status: RequestStatus | null;
  to_status: RequestStatus;
  note: string | null;
  /** What happened when the status stayed the same ("declined", "deadline_extended", …). */
  event: string | null;
  created_at: CreatedAt;
}

interface PartnerAssignmentsTable {
  id: Generated<number>;
  partner_id: number;
  quote_request_id: number;
  assigned_by: number | null;
  assigned_at: CreatedAt;
  state: Generated<AssignmentState>;
  decline_reason: string | null;
  state_changed_at: Timestamp | null;
  /** The request's quote_deadline, copied by triggers for the list's order (never written). */
  request_deadline: Generated<string>;
  /** 1 while invited or offered on a request still assigned, kept by triggers (never written). */
  request_open: Generated<number>;
  /** 1 while the partner's own quote on the request is selected, kept by triggers (never written). */
  quote_selected: Generated<number>;
}

interface PartnerQuotesTable {
  id: Generated<number>;
  quote_request_id: number;
  partner_id: number;
  /** The offer's total (subtotal + tax): what lists, counters and search read. */
  quoted_amount_cents: number;
  /** Filled from the total by a trigger when a writer leaves it out. */
  subtotal_cents: ColumnType<number, number | undefined, number>;
  /** Hundredths of a percent (1600 = 16 %). */
  tax_rate: Generated<number>;
  tax_cents: Generated<number>;
  lead_time_days: number | null;
  /** The last day the offer holds ("2026-12-31"), if the partner gave one. */
  valid_until: string | null;
  payment_terms: string | null;
  notes: string | null;
  file_name: string | null;
  file_type: string | null;
  file_key: string | null;
  is_selected: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface OfficialQuotesTable {
  id: Generated<number>;
  quote_request_id: number;
  partner_quote_id: number | null;
  /** The total the buyer pays (subtotal + tax). */
  final_amount_cents: number;
  /** Filled from the total by a trigger when a writer leaves it out. */
  subtotal_cents: ColumnType<number, number | undefined, number>;
  tax_rate: Generated<number>;
  tax_cents: Generated<number>;
  lead_time_days: number | null;
  payment_terms: string | null;
  /** 1, 2, … per request: a revision or a renewal is a new version (DECISIONS §7). */
  version: Generated<number>;
  revision_reason: string | null;
  /** When the buyer asked for an expired quote to be renewed (cleared by the next version). */
  renewal_requested_at: Timestamp | null;
  /** Commission is on the subtotal, never on tax. */
  commission_percentage: number;
  commission_amount_cents: number;
  currency: string;
  valid_until: string;
  pdf_key: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  /** Set when a reopened request gets a new official quote: this one is then an old version. */
  superseded_at: Timestamp | null;
}

/** A line of a partner's offer or of an official quote (quantity in thousandths). */
interface QuoteItemColumns {
  id: Generated<number>;
  position: number;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_price_cents: number;
  line_cents: number;
}

interface PartnerQuoteItemsTable extends QuoteItemColumns {
  partner_quote_id: number;
}

interface OfficialQuoteItemsTable extends QuoteItemColumns {
  official_quote_id: number;
}

interface PaymentsTable {
  id: Generated<number>;
  quote_request_id: number;
  official_quote_id: number;
  buyer_id: number;
  amount_cents: number;
  method: PaymentMethod | null;
  proof_key: string | null;
  proof_name: string | null;
  proof_type: string | null;
  status: PaymentStatus;
  rejection_reason: string | null;
  reviewed_by: number | null;
  submitted_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** The receipt PDF, stored on its first download; only a confirmed payment has one. */
  receipt_key: string | null;
}

interface BuyerCommissionsTable {
  id: Generated<number>;
  buyer_id: number;
  payment_id: number;
  commission_amount_cents: number;
  loyalty_points: number;
  created_at: CreatedAt;
}

interface RewardsTable {
  id: Generated<number>;
  name: string;
  description: string;
  points_cost: number;
  is_available: Generated<number>;
  sort_order: Generated<number>;
}

interface RewardRedemptionsTable {
  id: Generated<number>;
  buyer_id: number;
  reward_id: number;
  points: number;
  created_at: CreatedAt;
  /** `pending` until an operator delivers the reward (then delivered_at is set, by a CHECK). */
  status: Generated<RedemptionStatus>;
  delivered_at: Timestamp | null;
  /** The operator who delivered it (null while pending, or once that account is removed). */
  delivered_by: number | null;
}

interface LoyaltyLedgerTable {
  id: Generated<number>;
  buyer_id: number;
  /** Positive when earned, negative when spent. */
  points: number;
  reason: "payment" | "redemption" | "adjustment";
  payment_id: number | null;
  redemption_id: number | null;
  description: string;
  created_at: CreatedAt;
}

interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: NotificationType;
  title: string;
  message: string;
  link: string | null;
  related_type: RelatedType | null;
  related_id: number | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: Timestamp;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
  /** Set while `status` is "sending": when and by which worker pass the row was claimed. */
  claimed_at: Timestamp | null;
  claim_token: string | null;
  /** Reply-To address of the mail, e.g. the customer behind a contact-form notification. */
  reply_to: string | null;
  /** When the mail was given up on (`status` "failed"). */
  failed_at: Timestamp | null;
}

/** Scheduled work (migration 2026-11-26T05-00_jobs; app/services/jobs.server.ts). */
interface JobsTable {
  id: Generated<number>;
  /** Which handler runs it ("deadline_reminder"). */
  kind: string;
  /** Names the thing scheduled; unique, so scheduling it twice keeps one row. */
  key: string;
  /** JSON text handed to the handler. */
  payload: string;
  run_at: Timestamp;
  /** Set while a worker runs the job: when it claimed it and with which token. */
  claimed_at: Timestamp | null;
  claim_token: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  done_at: Timestamp | null;
  /** Given up on after the last attempt. */
  failed_at: Timestamp | null;
  created_at: CreatedAt;
}

/** Questions and answers on a request (DECISIONS §8; migration 2026-11-27T02-00_threads). */
export type ThreadKind = "buyer" | "partner";
export type ThreadMessageKind = "message" | "relay" | "forward";

interface ThreadsTable {
  id: Generated<number>;
  quote_request_id: number;
  kind: ThreadKind;
  /** The partner's assignment, for a `partner` thread; null for the buyer's. */
  assignment_id: number | null;
  created_at: CreatedAt;
}

interface ThreadMessagesTable {
  id: Generated<number>;
  thread_id: number;
  author_id: number | null;
  /** The author's role when writing: the other side's messages are the unread ones. */
  author_role: Role;
  kind: Generated<ThreadMessageKind>;
  body: string;
  file_name: string | null;
  file_type: string | null;
  file_key: string | null;
  file_size: number | null;
  /** The message a relay answered or a forward copied. */
  relayed_from_message_id: number | null;
  created_at: CreatedAt;
}

interface ThreadParticipantsTable {
  thread_id: number;
  user_id: number;
  last_read_message_id: Generated<number>;
  /** The e-mail digest has told this user of every message up to this id. */
  mailed_through_message_id: Generated<number>;
  mailed_at: Timestamp | null;
}

/** Whole backups (migration 2026-11-27T06-00_operations; app/services/backup.server.ts). */
interface BackupRunsTable {
  id: Generated<number>;
  /** The archive written or read. */
  archive: string;
  ok: number;
  size_bytes: number | null;
  file_count: number | null;
  error: string | null;
  finished_at: CreatedAt;
}

// ---- Summaries kept current by triggers (migration 2026-11-25T00-00_desk_summaries); read-only here.

export interface RequestStatusCountsTable {
  status: RequestStatus;
  requests: number;
  /** Requests in this status with at least one partner quote. */
  with_quotes: number;
}

export interface BuyerRequestCountsTable {
  buyer_id: number;
  status: RequestStatus;
  requests: number;
}

export interface PaymentStatusTotalsTable {
  status: PaymentStatus;
  payments: number;
  cents: number;
  /** Payments with a proof file attached. */
  with_proof: number;
  /** Payments whose proof was submitted (submitted_at set), and their amounts. */
  submitted: number;
  submitted_cents: number;
}

export interface BuyerPaymentTotalsTable {
  buyer_id: number;
  status: PaymentStatus;
  payments: number;
  cents: number;
}

export interface MonthlyTotalsTable {
  /** "YYYY-MM" (UTC). */
  month: string;
  /** Requests created in the month. */
  requests: number;
  /** Confirmed payments' amounts by the month they were confirmed. */
  paid_cents: number;
}

export interface SummaryTotalsTable {
  name: "commission_cents";
  value: number;
}

export interface RequestTurnaroundTable {
  quote_request_id: number;
  /** Whole seconds from the request to its first partner quote. */
  seconds: number;
}

export interface TurnaroundHoursTable {
  hour: number;
  requests: number;
}

export interface TurnaroundMinutesTable {
  minute: number;
  requests: number;
}

export interface TurnaroundSecondsTable {
  seconds: number;
  requests: number;
}

export interface PartnerWinsTable {
  partner_id: number;
  won: number;
  cents: number;
}

export interface PartnerCountersTable {
  partner_id: number;
  assigned: number;
  pending: number;
  submitted: number;
  selected: number;
  potential_cents: number;
  selected_cents: number;
}

export interface UserRoleCountsTable {
  role: Role;
  users: number;
}

/** FTS5 tables (migration 2026-11-25T01-00_desk_search); query them with MATCH. */
export interface QuoteRequestSearchTable {
  rowid: number;
  title: string;
  description: string;
  buyer: string;
  /** "b<buyer id>" and "p<partner id>" tokens of who may see the request. */
  scope: string;
}

export interface UserSearchTable {
  rowid: number;
  name: string;
  company: string;
  email: string;
}

export interface ProductSearchTable {
  rowid: number;
  name: string;
  sku: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  form_tokens: FormTokensTable;
  auth_tokens: AuthTokensTable;
  settings: SettingsTable;
  secrets: SecretsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  contact_submissions: ContactSubmissionsTable;
  quote_requests: QuoteRequestsTable;
  request_status_history: RequestStatusHistoryTable;
  partner_assignments: PartnerAssignmentsTable;
  partner_quotes: PartnerQuotesTable;
  official_quotes: OfficialQuotesTable;
  partner_quote_items: PartnerQuoteItemsTable;
  official_quote_items: OfficialQuoteItemsTable;
  payments: PaymentsTable;
  buyer_commissions: BuyerCommissionsTable;
  rewards: RewardsTable;
  reward_redemptions: RewardRedemptionsTable;
  loyalty_ledger: LoyaltyLedgerTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  jobs: JobsTable;
  threads: ThreadsTable;
  thread_messages: ThreadMessagesTable;
  thread_participants: ThreadParticipantsTable;
  backup_runs: BackupRunsTable;
  request_status_counts: RequestStatusCountsTable;
  buyer_request_counts: BuyerRequestCountsTable;
  payment_status_totals: PaymentStatusTotalsTable;
  buyer_payment_totals: BuyerPaymentTotalsTable;
  monthly_totals: MonthlyTotalsTable;
  summary_totals: SummaryTotalsTable;
  request_turnaround: RequestTurnaroundTable;
  turnaround_hours: TurnaroundHoursTable;
  turnaround_minutes: TurnaroundMinutesTable;
  turnaround_seconds: TurnaroundSecondsTable;
  partner_wins: PartnerWinsTable;
  partner_counters: PartnerCountersTable;
  user_role_counts: UserRoleCountsTable;
  quote_request_search: QuoteRequestSearchTable;
  user_search: UserSearchTable;
  product_search: ProductSearchTable;
}

export type User = Selectable<UsersTable>;
