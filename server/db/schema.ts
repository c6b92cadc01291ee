import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * Table types. Row types stay inside repositories: services and routes see domain objects.
 * Times are ISO-8601 UTC strings and booleans are 0/1 integers in both dialects, so SQLite and
 * PostgreSQL return the same values and one code path serves both (docs/decisions/002).
 */

type Bool = number;

export interface SubmissionsTable {
  id: Generated<number>;
  student_name: string;
  index_number: string;
  programme: string;
  contact: string | null;
  student_email: string | null;
  thesis_submitted: Bool;
  thesis_received_on: string | null;
  turnitin_report_submitted: Bool;
  turnitin_report_received_on: string | null;
  supervisor_form_submitted: Bool;
  supervisor_form_received_on: string | null;
  statement_of_result_submitted: Bool;
  statement_of_result_received_on: string | null;
  financial_clearance_submitted: Bool;
  financial_clearance_received_on: string | null;
  sgs_stage: string | null;
  internal_examiner: string | null;
  external_examiner: string | null;
  thesis_status: string | null;
  effective_date: string | null;
  thesis_title: ColumnType<string | null, string | null | undefined, string | null>;
  thesis_abstract: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
  version: ColumnType<number, number | undefined, number>;
  /** Which system (an API token's name) marked Financial Clearance, and when (migration 017). */
  financial_clearance_by: ColumnType<string | null, string | null | undefined, string | null>;
  financial_clearance_by_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Every uploaded version of a checklist item (migration 004). */
export interface SubmissionDocumentsTable {
  id: Generated<number>;
  submission_id: number;
  /** A DocumentItem: "thesis", "turnitinReport", ... */
  item: string;
  version: number;
  is_current: Bool;
  file_name: string;
  size_bytes: number;
  /** The file store's key. */
  sha256: string;
  page_count: number;
  has_javascript: Bool;
  has_embedded_files: Bool;
  uploaded_by: number | null;
  uploaded_at: string;
  review_state: "pending" | "accepted" | "returned" | "superseded";
  reviewed_by: number | null;
  reviewed_at: string | null;
  return_reason: string | null;
}

export interface SubmissionEventsTable {
  id: Generated<number>;
  submission_id: number;
  actor_user_id: number | null;
  at: string;
  field: string;
  from_value: string | null;
  to_value: string | null;
  /** "next", "skip", "reverse", "edit", "create", "import", "bulk". */
  kind: string;
  /** 1 when the administrator confirmed a move that skips or reverses the flow. */
  confirmed_out_of_order: Bool;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  index_number: string | null;
  name: string | null;
  role: "student" | "admin";
  password_hash: string | null;
  active: Bool;
  failed_sign_ins: number;
  locked_until: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LoginCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  persistent: Bool;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /**
   * How the session began: a mailed code lets the user set a password without the old one; a
   * single sign-on ("oidc", "saml") tells sign-out to offer the provider's sign-out too. Plain
   * text without a CHECK constraint (migration 002), so adding a value needs no migration.
   */
  sign_in_method: ColumnType<
    "password" | "code" | "oidc" | "saml",
    "password" | "code" | "oidc" | "saml" | undefined,
    never
  >;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** Template name and its parameters (JSON), e.g. the sign-up code mail. */
  template: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** 1 when the text holds a sign-in code or an examiner's link: scrubbed once delivered (013). */
  carries_secret: ColumnType<Bool, Bool | undefined, Bool>;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  event: string;
  actor_user_id: number | null;
  subject: string | null;
  ip: string | null;
  details: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  /** null: a broadcast shown in every student's Messages tab. */
  submission_id: number | null;
  title: string | null;
  body: string;
  created_by: number | null;
  created_at: string;
}

export interface MessageReadsTable {
  message_id: number;
  user_id: number;
  read_at: string;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  email: string;
  message: string;
  created_at: string;
  handled_at: string | null;
}

/** Request-limit counters shared by every server (migration 005). */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  resets_at: string;
}

/** Who runs a periodic job now, and until when (migration 005). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** The school's examiner list (migration 006). */
export interface ExaminersTable {
  id: Generated<number>;
  name: string;
  /** Lower case, unique. */
  email: string;
  institution: string;
  kind: "internal" | "external";
  active: ColumnType<Bool, Bool | undefined, Bool>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** One examiner nominated for one submission in one role (migration 006). */
export interface ExaminationsTable {
  id: Generated<number>;
  submission_id: number;
  examiner_id: number;
  role: "internal" | "external";
  state: "nominated" | "sent" | "received" | "report_submitted" | "replaced";
  nominated_by: number | null;
  nominated_at: string;
  // token_hash (migration 006) is null since migration 015: the links are in examiner_links.
  /** When the latest invitation (or corrections) link was made; null until sent. */
  link_created_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The latest expiry of the examination's links. */
  link_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the school last revoked the examination's links; cleared by a new send. */
  link_revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
  sent_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD. */
  due_on: ColumnType<string | null, string | null | undefined, string | null>;
  received_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_opened_at: ColumnType<string | null, string | null | undefined, string | null>;
  report_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  report_file_name: ColumnType<string | null, string | null | undefined, string | null>;
  report_size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  report_page_count: ColumnType<number | null, number | null | undefined, number | null>;
  report_has_javascript: ColumnType<Bool | null, Bool | null | undefined, Bool | null>;
  report_has_embedded_files: ColumnType<Bool | null, Bool | null | undefined, Bool | null>;
  report_uploaded_at: ColumnType<string | null, string | null | undefined, string | null>;
  recommendation: ColumnType<string | null, string | null | undefined, string | null>;
  note_to_school: ColumnType<string | null, string | null | undefined, string | null>;
  replaced_at: ColumnType<string | null, string | null | undefined, string | null>;
  replaced_by: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
  updated_at: string;
}

/** An examination's links (migration 015): several may work at once, each until it expires. */
export interface ExaminerLinksTable {
  id: Generated<number>;
  examination_id: number;
  /** SHA-256 (hex) of the 256-bit token. */
  token_hash: string;
  purpose: "invitation" | "reminder" | "corrections";
  created_at: string;
  expires_at: string;
  revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Reminders mailed to examiners (migration 006); unique per examination and offset. */
export interface ExaminerRemindersTable {
  id: Generated<number>;
  examination_id: number;
  /** Days from the due date; null for a reminder sent by hand. */
  offset_days: number | null;
  sent_by: number | null;
  sent_at: string;
}

/** The outcome released to the student, and the corrections' approval (migration 006). */
export interface ExaminationOutcomesTable {
  submission_id: number;
  decision: "pass" | "minor_corrections" | "major_corrections" | "resubmit" | "fail";
  corrections: string | null;
  released_by: number | null;
  released_at: string;
  thesis_version_at_release: number | null;
  corrections_approved_at: ColumnType<string | null, string | null | undefined, string | null>;
  corrections_approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  corrections_approved_examination: ColumnType<
    number | null,
    number | null | undefined,
    number | null
  >;
}

/** Which provider identity is which account (migration 007). */
export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: "oidc" | "saml";
  subject: string;
  created_at: string;
  last_sign_in_at: string | null;
}

/** Single sign-ons under way, so any server can finish one (migration 007). */
export interface SsoRequestsTable {
  key: string;
  provider: "oidc" | "saml";
  nonce: string | null;
  code_verifier: string | null;
  return_to: string | null;
  created_at: string;
  expires_at: string;
}

/** Assertions and nonces already used (migration 007). */
export interface SsoReplaysTable {
  key: string;
  expires_at: string;
}

/** An upload being stored (migration 013): removed with the row that records its file. */
export interface PendingUploadsTable {
  id: Generated<number>;
  sha256: string;
  /** 1 when the store did not have the key before this upload put it. */
  stored_new: number;
  created_at: string;
}

/**
 * The dashboard's counts, kept by triggers (migration 009): per figure and value, a count (SQLite,
 * one row per value) or a change to one (PostgreSQL appends; the figure is the sum of its rows).
 */
export interface DashboardCountsTable {
  figure: "stage" | "internal" | "external" | "month";
  /** The column's value, '' for "not set"; YYYY-MM of created_at for "month". */
  value: string;
  n: number;
}

/**
 * Per submission and examiner role whose typed report is waiting, since when and whether the
 * examiner has a link (migration 009); kept by triggers on submissions, events and examinations.
 */
export interface ExaminerWaitsTable {
  submission_id: number;
  role: "internal" | "external";
  since: string;
  linked: Bool;
}

/**
 * Per examiner role, how many rows of examiner_waits have no link (migration 012): a count
 * (SQLite, one row per role) or a change to one (PostgreSQL appends; the total is the sum).
 */
export interface ExaminerWaitTotalsTable {
  role: "internal" | "external";
  n: number;
}

/** The degrees the school awards (migration 016), kept by administrators. */
export interface DegreesTable {
  id: Generated<number>;
  name: string;
  abbreviation: string;
  level: "masters" | "doctoral";
  active: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: string;
  updated_at: string;
}

/** The school's distribution licence, one row per version, never changed (migration 016). */
export interface LicenceVersionsTable {
  version: number;
  text: string;
  created_by: number | null;
  created_at: string;
}

/**
 * A submission's publication (migration 016, docs/decisions/020-publication.md): one row once its
 * publication starts. `published_at` is set once every condition of publication holds (and only
 * then: a row is public exactly when it is not null); `datestamp` moves with every change of
 * anything public (OAI-PMH pages by it and submission_id). Keywords and supervisors are JSON text.
 */
export interface PublicationsTable {
  submission_id: number;
  /** JSON array of strings. */
  keywords: ColumnType<string, string | undefined, string>;
  /** ISO 639-3. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  degree_id: ColumnType<number | null, number | null | undefined, number | null>;
  department: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of { name, orcid }. */
  supervisors: ColumnType<string, string | undefined, string>;
  /** YYYY-MM-DD. */
  examination_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD. */
  award_date: ColumnType<string | null, string | null | undefined, string | null>;
  confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
  confirmed_by: ColumnType<number | null, number | null | undefined, number | null>;
  licence_version: ColumnType<number | null, number | null | undefined, number | null>;
  licence_accepted_at: ColumnType<string | null, string | null | undefined, string | null>;
  licence_accepted_by: ColumnType<number | null, number | null | undefined, number | null>;
  embargo_choice: ColumnType<
    "none" | "6m" | "1y" | "2y" | "sensitive" | null,
    "none" | "6m" | "1y" | "2y" | "sensitive" | null | undefined,
    "none" | "6m" | "1y" | "2y" | "sensitive" | null
  >;
  embargo_reason: ColumnType<string | null, string | null | undefined, string | null>;
  embargo_approval: ColumnType<
    "pending" | "approved" | "refused" | null,
    "pending" | "approved" | "refused" | null | undefined,
    "pending" | "approved" | "refused" | null
  >;
  embargo_decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  embargo_decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  embargo_decision_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD: the files are public from this day. */
  embargo_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the lifting job saw the embargo end and moved the datestamp. */
  embargo_lifted_at: ColumnType<string | null, string | null | undefined, string | null>;
  published_at: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The thesis's programme while it is on the public list, else null: written by the database's
   * triggers alone (migration 023_public_search), read by the list's programme filter.
   */
  list_programme: ColumnType<string | null, never, never>;
  datestamp: string;
  withdrawn_at: ColumnType<string | null, string | null | undefined, string | null>;
  withdrawn_by: ColumnType<number | null, number | null | undefined, number | null>;
  withdrawn_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The repository's item address (SWORD deposit receipt); set, the record is locked. */
  handle: ColumnType<string | null, string | null | undefined, string | null>;
  deposited_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/**
 * The SWORD deposit queue (migration 020, docs/decisions/026-library-exports-and-deposit.md): one
 * row per submission sent to the repository; a claim (claimed_by, claim_expires_at) lets one
 * server at a time work a row.
 */
export interface DepositsTable {
  id: Generated<number>;
  submission_id: number;
  state: "queued" | "depositing" | "deposited" | "failed";
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  claim_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** The name the repository is given for the item, the same on every attempt. */
  slug: string;
  /** The repository's item from the first step (In-Progress: true); set, a retry only completes it. */
  edit_iri: ColumnType<string | null, string | null | undefined, string | null>;
  handle: ColumnType<string | null, string | null | undefined, string | null>;
  requested_by: ColumnType<number | null, number | null | undefined, number | null>;
  requested_at: string;
  deposited_at: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: string;
}

/** Keys the servers share, made on first use (migration 021): OAI-PMH tokens, download readers. */
export interface PublicationSecretsTable {
  name: string;
  /** base64url of 32 random bytes. */
  value: string;
  created_at: string;
}

/**
 * One distinct keyword of a listed thesis (migration 025): the public list's keyword links read
 * it. Written by the database's triggers alone, from `publications`.
 */
export interface PublicationKeywordsTable {
  /** The keyword as the database's lower() gives it. */
  keyword: ColumnType<string, never, never>;
  published_at: ColumnType<string, never, never>;
  submission_id: ColumnType<number, never, never>;
  list_programme: ColumnType<string, never, never>;
}

/** Downloads of a published thesis's file (migration 021). */
export interface ThesisDownloadCountsTable {
  submission_id: number;
  downloads: ColumnType<number, number | undefined, number>;
  updated_at: string;
}

/** When a reader (a keyed hash of address and user agent) was last counted (migration 021). */
export interface ThesisDownloadReadersTable {
  submission_id: number;
  reader_hash: string;
  counted_at: string;
}

/** Per submission, the facts its history gives the Reports figures (migration 019). */
export interface ReportJourneysTable {
  submission_id: number;
  /** The programme and cohort (year of creation) the facts were counted under. */
  programme: string;
  cohort: number;
  /** JSON: ReportFact[] (server/db/report-rollups.ts). */
  facts: string;
}

/**
 * The Reports figures' rollups (migration 019): per figure, subject, programme ('' for all),
 * cohort (0 for all), month and whole days, a count (SQLite, one row per key) or a change to one
 * (PostgreSQL appends; the count is the sum of its rows).
 */
export interface ReportRollupsTable {
  figure: string;
  subject: string;
  programme: string;
  cohort: number;
  month: string;
  /** Whole days; -1 for a figure that counts without a duration. */
  days: number;
  n: number;
}

/**
 * The open reports of a record (migration 022): each examination out with a link and no report
 * ("link": its due day) and each examiner state typed by hand without a link ("typed": the day it
 * was typed), with the programme and cohort they were counted under in report_open_rollups.
 */
export interface ReportOpenItemsTable {
  submission_id: number;
  kind: "link" | "typed";
  role: "internal" | "external";
  /** The examination's id ("link"); 0 for a typed state. */
  examination_id: number;
  /** The examiner's id ("link"); 0 for a typed state. */
  examiner_id: number;
  programme: string;
  cohort: number;
  /** YYYY-MM-DD: the link's due day ("9999-12-31" when it has none), or the day typed. */
  day: string;
}

/**
 * Per programme ('' for all), cohort (0 for all), kind, examiner (0 for all) and day, how many open
 * reports (migration 022): SQLite one row per key, PostgreSQL appended changes summed by readers.
 */
export interface ReportOpenRollupsTable {
  programme: string;
  cohort: number;
  kind: "link" | "typed";
  examiner_id: number;
  day: string;
  n: number;
}

/** API tokens (migration 017, docs/decisions/022-api-tokens.md): only the token's hash is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  token_prefix: string;
  /** Space-separated scopes (common/api-tokens.ts). */
  scopes: string;
  created_by: number;
  created_at: string;
  expires_at: string;
  revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
  revoked_by: ColumnType<number | null, number | null | undefined, number | null>;
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_ip: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The registrar's Idempotency-Keys with their first answer (migration 017). */
export interface IdempotencyKeysTable {
  token_id: number;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  submissions: SubmissionsTable;
  submission_events: SubmissionEventsTable;
  submission_documents: SubmissionDocumentsTable;
  users: UsersTable;
  login_codes: LoginCodesTable;
  sessions: SessionsTable;
  outbox: OutboxTable;
  audit_log: AuditLogTable;
  messages: MessagesTable;
  message_reads: MessageReadsTable;
  contact_messages: ContactMessagesTable;
  rate_limit_counters: RateLimitCountersTable;
  job_leases: JobLeasesTable;
  examiners: ExaminersTable;
  examinations: ExaminationsTable;
  examiner_links: ExaminerLinksTable;
  examiner_reminders: ExaminerRemindersTable;
  examination_outcomes: ExaminationOutcomesTable;
  user_identities: UserIdentitiesTable;
  sso_requests: SsoRequestsTable;
  sso_replays: SsoReplaysTable;
  pending_uploads: PendingUploadsTable;
  dashboard_counts: DashboardCountsTable;
  examiner_waits: ExaminerWaitsTable;
  examiner_wait_totals: ExaminerWaitTotalsTable;
  degrees: DegreesTable;
  licence_versions: LicenceVersionsTable;
  publications: PublicationsTable;
  publication_keywords: PublicationKeywordsTable;
  deposits: DepositsTable;
  publication_secrets: PublicationSecretsTable;
  thesis_download_counts: ThesisDownloadCountsTable;
  thesis_download_readers: ThesisDownloadReadersTable;
  report_journeys: ReportJourneysTable;
  report_rollups: ReportRollupsTable;
  report_open_items: ReportOpenItemsTable;
  report_open_rollups: ReportOpenRollupsTable;
  api_tokens: ApiTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type SubmissionRow = Selectable<SubmissionsTable>;
export type NewSubmissionRow = Insertable<SubmissionsTable>;
export type SubmissionRowUpdate = Updateable<SubmissionsTable>;
export type SubmissionDocumentRow = Selectable<SubmissionDocumentsTable>;
export type UserRow = Selectable<UsersTable>;

/** Where administrators want events sent (migration 018, docs/decisions/023-webhooks.md). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  /** The event types sent to it, a JSON array. */
  events: string;
  /** The signing secret, shown once when the endpoint is made; never sent back. */
  secret: string;
  active: Bool;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** One event, written with the change it reports; `body` is what every delivery sends. */
export interface WebhookEventsTable {
  id: Generated<number>;
  /** The public id receivers deduplicate on ("evt_..."). */
  event_id: string;
  type: string;
  submission_id: number | null;
  body: string;
  created_at: string;
}

/** One event to one endpoint: the delivery queue and its log. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: number;
  /** The event's submission: deliveries of one submission to one endpoint go in id order. */
  submission_id: number | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string | null;
  /** The delivery this one sends again ("Send again"), if any. */
  redelivery_of: number | null;
  created_at: string;
  finished_at: string | null;
}

/** Each try of a delivery: the answer's status or why there was none. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
