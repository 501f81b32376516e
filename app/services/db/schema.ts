import type { Generated } from 'kysely';

// One schema for SQLite and PostgreSQL. Booleans are stored as 0/1 integers and timestamps as
// ISO-8601 UTC text so the same queries and comparisons work on both engines.

export type Bool = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  password_hash: string | null;
  profile_picture: string | null;
  profile_finished: Bool;
  /** Admin override of has_access: null follows the rules, 1 grants, 0 revokes. */
  access_override: number | null;
  is_superuser: Bool;
  disabled: Bool;
  created_at: string;
  updated_at: string;
}

export interface AccessTokensTable {
  id: string;
  token_hash: string;
  user_id: string;
  token_type: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface OneTimeCodesTable {
  id: string;
  purpose: 'signin' | 'reset' | 'email_change';
  email: string;
  user_id: string | null;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  /** Extra data bound to the code, e.g. the new address of an e-mail change (JSON text). */
  payload: string | null;
}

export interface OAuthAccountsTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  detail: string | null;
  created_at: string;
}

// Screeners and watchlists (migration 002).

export interface ScreenersTable {
  id: string;
  user_id: string;
  name: string;
  /** The screen's versioned JSON. */
  screen: string;
  /** Random token of the read-only share link; null when not shared. */
  share_token: string | null;
  last_run_at: string | null;
  last_match_count: number | null;
  created_at: string;
  updated_at: string;
}

export interface WatchlistsTable {
  id: string;
  user_id: string;
  name: string;
  is_default: Bool;
  /** JSON array of catalogue metric ids. */
  columns: string;
  sort_key: string;
  sort_dir: 'asc' | 'desc';
  created_at: string;
  updated_at: string;
}

export interface WatchlistItemsTable {
  watchlist_id: string;
  permaticker: number;
  note: string | null;
  added_at: string;
}

/** Saved column sets of the screener's results (migration 005). */
export interface ColumnSetsTable {
  id: string;
  user_id: string;
  name: string;
  /** JSON array of catalogue metric ids, in display order. */
  columns: string;
  created_at: string;
  updated_at: string;
}

// Jobs and backtests (migration 003).

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  user_id: string | null;
  status: JobStatus;
  /** 0…1. */
  progress: number;
  /** What the job is doing now, or how it ended. */
  message: string | null;
  attempts: number;
  max_attempts: number;
  timeout_ms: number;
  cancel_requested: Bool;
  /** Worker holding the lease; the lease lapses at locked_until unless renewed. */
  locked_by: string | null;
  locked_until: string | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface BacktestsTable {
  id: string;
  user_id: string;
  screener_id: string | null;
  name: string;
  /** The screen's versioned JSON as it was when the backtest was asked for. */
  screen: string;
  /** BacktestParams JSON. */
  params: string;
  job_id: string | null;
  /** Market data snapshot id the result was computed on (set when it runs). */
  snapshot_id: string | null;
  engine_version: string;
  /** JSON of the headline statistics, for lists. */
  summary: string | null;
  /** base64(gzip(…)) of the stored result: whole (formats 1–3) or its light part (format 4, parts in backtest_result_parts). */
  result: string | null;
  /** The run_key of the parts the stored result uses (format 4; migration 006). */
  parts_key: string | null;
  share_token: string | null;
  created_at: string;
  updated_at: string;
}

/** One part of a paged stored result's holdings or trade rows (migration 006). */
export interface BacktestResultPartsTable {
  backtest_id: string;
  /** The store (one per finished run) the part belongs to. */
  run_key: string;
  kind: 'holdings' | 'trades';
  /** 0, 1, … in row order within its kind. */
  seq: number;
  row_count: number;
  /** base64(gzip(…)) of the part's columns (stored-result.ts, format 4). */
  data: string;
}

// Billing (migration 004).

export interface SubscriptionsTable {
  provider: string;
  /** The provider's subscription id: also the id the API shows. */
  provider_id: string;
  user_id: string;
  /** The provider's status, e.g. on_trial, active, paused, past_due, unpaid, cancelled, expired. */
  status: string;
  variant_id: string;
  product_name: string | null;
  variant_name: string | null;
  customer_id: string | null;
  user_email: string | null;
  cancelled: Bool;
  /** "void" or "free" while paused, else null. */
  pause_mode: string | null;
  trial_ends_at: string | null;
  renews_at: string | null;
  ends_at: string | null;
  /** The provider's updated_at of the snapshot stored (ISO-8601 UTC): older snapshots are ignored. */
  provider_updated_at: string;
  created_at: string;
  updated_at: string;
}

export interface BillingWebhookEventsTable {
  /** SHA-256 (hex) of the raw body: the provider sends no event id. */
  dedupe_key: string;
  event_name: string;
  /** applied | stale | ignored | unlinked */
  outcome: string;
  subscription_id: string | null;
  received_at: string;
}

/** The version of one user's ('u:<id>') or every ('*') cached page (migration 007). */
export interface PageVersionsTable {
  scope: string;
  version: number;
}

export interface Database {
  users: UsersTable;
  access_tokens: AccessTokensTable;
  one_time_codes: OneTimeCodesTable;
  oauth_accounts: OAuthAccountsTable;
  audit_log: AuditLogTable;
  screeners: ScreenersTable;
  watchlists: WatchlistsTable;
  watchlist_items: WatchlistItemsTable;
  column_sets: ColumnSetsTable;
  jobs: JobsTable;
  backtests: BacktestsTable;
  backtest_result_parts: BacktestResultPartsTable;
  subscriptions: SubscriptionsTable;
  billing_webhook_events: BillingWebhookEventsTable;
  page_versions: PageVersionsTable;
}
