import type { ColumnType, Generated, Selectable } from "kysely";

/** Typed view of the database created by db/migrations. Money is in integer minor units. */

export const ORDER_STATUSES = ["draft", "pending", "paid", "processing", "shipped", "completed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const FILE_TYPES = ["matrix", "aligners", "retainer"] as const;
export type FileType = (typeof FILE_TYPES)[number];
export const QUEUE_STATUSES = ["pending", "uploading", "completed", "failed"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export type Role = "admin" | "manager" | "user";
export type MarketColumn = "domestic" | "international";
export type Currency = "rub" | "eur";
export type MaterialType = "single_layer" | "three_layer";
export type CutType = "wavy" | "straight";
export type MatrixType = "soft" | "hard";
export type NotificationChannel = "email" | "whatsapp" | "none";
export type PaymentProviderId = "sandbox" | "yookassa" | "stripe";
/** Where a payment row came from: a provider, or a bank transfer staff recorded against an invoice (ADR 072). */
export type PaymentSource = PaymentProviderId | "invoice";
export type PaymentStatus = "created" | "pending" | "succeeded" | "canceled" | "failed";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** numeric comes back as a string from both pg and PGlite. */
type Numeric = ColumnType<string, string | number, string | number>;
/** bigint is parsed to a JS number by both drivers (amounts stay far below 2^53). */
type Int8 = ColumnType<number, number | bigint, number | bigint>;

export interface FileInfo {
  originalName: string;
  storagePath: string;
  url: string;
  type: string;
  size: number;
  triangles?: number;
  uploadedAt?: string;
  /**
   * The jaw and aligner step the doctor declared for the file (ADR 058), prefilled from its name;
   * `confirmed` false while one the name did not give is still to be chosen. Older files have none
   * of the three: their labels keep the guess from the name.
   */
  jaw?: "upper" | "lower" | null;
  stepNumber?: number | null;
  confirmed?: boolean;
  /**
   * Set aside by a confirmed skip of its step (ADR 087): kept in storage and on the list, but not in
   * the order — not billed, checked, labelled or sent — until the step is un-skipped.
   */
  setAside?: boolean;
  /**
   * The file as the doctor sent it when it was a PLY or OBJ (ADR 102): kept under its own key;
   * `storagePath` is then the binary STL made from it, what the factory, staff and the packer read.
   */
  source?: { storagePath: string; format: "ply" | "obj" };
}
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  created_at: CreatedAt;
  last_sign_in_at: Date | null;
}
/** A staff member's remembered choices on the orders dashboard (ADR 067). */
export interface StaffPreferencesTable {
  user_id: string;
  orders_view: Generated<"cards" | "table">;
  statistics_folded: Generated<boolean>;
  updated_at: Generated<Date>;
}
export interface SessionsTable {
  id: string;
  /** Null while the visitor has only asked for a sign-in link. */
  user_id: string | null;
  /** The session's other values (Remix session data), a JSON object. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: Generated<Date>;
  ip: string | null;
  user_agent: string | null;
}
export interface SignInTokensTable {
  id: Generated<string>;
  email: string;
  token_hash: string;
  code_hash: string;
  redirect_to: string | null;
  attempts: Generated<number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}
export interface UserRolesTable {
  user_id: string;
  role: Role;
  created_at: CreatedAt;
}
/** Every grant and removal of a role, with who did it (ADR 069). */
export interface RoleChangesTable {
  id: Generated<Int8>;
  user_id: string;
  role: Role;
  change: "granted" | "removed";
  actor: string;
  created_at: CreatedAt;
}
export interface OrdersTable {
  id: string;
  code: string;
  status: Generated<OrderStatus>;
  market: MarketColumn;
  currency: Currency;
  email: string | null;
  full_name: string | null;
  phone: string | null;
  address: string | null;
  delivery_comment: string | null;
  additional_comments: string | null;
  material_type: MaterialType | null;
  cut_type: CutType | null;
  matrix_type: MatrixType | null;
  retainer_type: "standard" | "premium" | null;
  current_patient_id: string | null;
  wizard_step: Generated<number>;
  /** The step was opened from the summary's "изменить" link: "next" leads back there (ADR 060). */
  wizard_returns: Generated<boolean>;
  total_cost: Int8 | null;
  discount_percentage: Numeric | null;
  payment_id: string | null;
  tracking_number: string | null;
  /** The carrier of the tracking number (config/carriers.ts), when staff named one. */
  carrier: string | null;
  partner_code_id: string | null;
  paid_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  /** When every file of the order's storage folder was deleted (ADR 063); its file lists stay as a record. */
  storage_removed_at: Timestamp | null;
  /** When the scheduled job removed the order's personal data after its retention period (ADR 074); the accounting record stays. */
  anonymised_at: Timestamp | null;
  /** When and by whom the doctor marked the parcel received (ADR 070). */
  parcel_received_at: Timestamp | null;
  parcel_received_by: string | null;
  /** When the payment page sent the order's address its one sign-in link to the order (ADR 070). */
  cabinet_link_sent_at: Timestamp | null;
  /** The client's interface language when the order was created; its mails use it. */
  language: "ru" | "en" | "de" | "es" | "fr" | "it" | null;
  /**
   * Who started the order while it is unpaid (ADR 082): a digest of the client's address group and
   * one of the signed-in account; both null once it is paid or cancelled, or for orders made otherwise.
   */
  started_from: string | null;
  started_by: string | null;
  /** The contacts are those a signed-in client's draft was born with, never saved by a form (ADR 082). */
  contacts_prefilled: Generated<boolean>;
  /** When the doctor ticked the consent to the processing of personal data on the delivery step (ADR 087); null once unticked. */
  data_consent_at: Timestamp | null;
}
/** A held order code (DESIGN §4.6, ADR 038): free again once `release_after` has passed or its order is deleted. */
export interface OrderCodesTable {
  code: string;
  order_id: string | null;
  reserved_at: CreatedAt;
  release_after: Timestamp;
}
export interface OrderStatusHistoryTable {
  id: Generated<string>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor: string;
  note: string | null;
  tracking_number: string | null;
  /** The carrier named beside the tracking number (config/carriers.ts). */
  carrier: string | null;
  /** This change undid that one (ADR 062). */
  undoes: string | null;
  created_at: CreatedAt;
  /** Handled: its mail accepted by the mail server, or nothing to send (ADR 075). */
  notified_at: Timestamp | null;
  /** The status mail's outbox (ADR 075): attempts so far, when it is due again (a claim's lease or a retry's backoff), and its end after the last attempt. */
  mail_attempts: Generated<number>;
  mail_due_at: Timestamp | null;
  mail_failed_at: Timestamp | null;
  mail_error: string | null;
}
/** The packer's "Упаковано" (ADR 068): one per order, with the status it had and moved to (null: no status fits). */
export interface OrderPackingsTable {
  id: Generated<string>;
  order_id: string;
  actor: string;
  from_status: OrderStatus;
  to_status: OrderStatus | null;
  /** Bags not scanned when it was packed (ADR 103), and the packer's reason then. */
  missing_bags: Generated<number>;
  missing_reason: string | null;
  created_at: CreatedAt;
}
/** Each accepted scan of a bag's code on an order (ADR 103). */
export interface BagScansTable {
  id: Generated<string>;
  order_id: string;
  code: string;
  actor: string;
  created_at: CreatedAt;
}
/** Staff's corrections of a file's declared jaw and step (ADR 058): the order's history of its files. */
export interface OrderFileCorrectionsTable {
  id: Generated<string>;
  order_id: string;
  patient_id: string;
  file_type: FileType;
  storage_path: string;
  original_name: string;
  from_jaw: "upper" | "lower";
  from_step: number | null;
  /** The values before were the guess from the file's name, not a declaration. */
  from_guessed: boolean;
  to_jaw: "upper" | "lower";
  to_step: number | null;
  actor: string;
  created_at: CreatedAt;
}
export interface OrdersPatientsTable {
  id: Generated<string>;
  order_id: string;
  patient_name: string;
  folder_name: string;
  material_type: MaterialType | null;
  cut_type: CutType | null;
  matrix_type: MatrixType | null;
  additional_comments: string | null;
  matrix_files_info: Json<FileInfo[]>;
  aligner_files_info: Json<FileInfo[]>;
  retainer_files_info: Json<FileInfo[]>;
  /** The files of each kind in the order, as `filesOf` counts them: kept by the database (generated columns). */
  matrix_file_count: ColumnType<number, never, never>;
  aligner_file_count: ColumnType<number, never, never>;
  retainer_file_count: ColumnType<number, never, never>;
  /** The order's e-mail, kept by the database from the order (ADR 098): the cabinet's search index keys a clinic's patients by it. */
  order_email: ColumnType<string | null, never, never>;
  skip_matrix: Generated<boolean>;
  skip_aligners: Generated<boolean>;
  skip_retainers: Generated<boolean>;
  /** When the current skip of each upload step was confirmed (ADR 087): an upload started before it lands set aside. */
  skip_matrix_at: Timestamp | null;
  skip_aligners_at: Timestamp | null;
  skip_retainers_at: Timestamp | null;
  /** When a skipped upload step came back into the order (un-skipped, or a file uploaded on it), for the summary (ADR 087). */
  unskip_matrix_at: Timestamp | null;
  unskip_aligners_at: Timestamp | null;
  unskip_retainers_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
export interface PaymentsTable {
  id: Generated<string>;
  order_id: string | null;
  order_code: string;
  provider: PaymentSource;
  provider_payment_id: string | null;
  amount: Int8;
  currency: Currency;
  status: Generated<PaymentStatus>;
  idempotence_key: string;
  confirmation_url: string | null;
  /** The payment lines sent with this attempt (description, quantity, unit price in minor units). */
  lines: ColumnType<PaymentLineInfo[], string | undefined, string>;
  /** The last provider error (outage or refusal) of this attempt. */
  last_error: string | null;
  /** The payer as the provider reports it (Stripe Checkout's tax ID collection and invoice). */
  customer_vat_number: string | null;
  customer_business_name: string | null;
  invoice_id: string | null;
  /** The provider's receipt as it reported it (ADR 070): YooKassa's fiscal data, Stripe's receipt or invoice page. */
  receipt: ColumnType<PaymentReceipt | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
/** What a provider says of a payment's receipt; every field only when the provider gave it. */
export interface PaymentReceipt {
  /** A page of the receipt or invoice at the provider (Stripe's receipt_url or hosted_invoice_url). */
  url?: string | null;
  /** YooKassa's receipt_registration: pending, succeeded, canceled. */
  registration?: string | null;
  /** YooKassa's fiscal data: ФД, ФН, ФП and when the receipt was registered. */
  fiscalDocumentNumber?: string | null;
  fiscalStorageNumber?: string | null;
  fiscalAttribute?: string | null;
  registeredAt?: string | null;
}
export interface PaymentLineInfo {
  description: string;
  quantity: number;
  price: number;
}
/** The sandbox provider's own status store (never in strict mode). */
export interface SandboxPaymentsTable {
  id: string;
  idempotence_key: string;
  order_id: string | null;
  amount: Int8;
  currency: Currency;
  description: string;
  return_url: string;
  lines: ColumnType<PaymentLineInfo[], string | undefined, string>;
  status: Generated<"pending" | "succeeded" | "canceled">;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
export interface PaymentEventsTable {
  id: Generated<string>;
  provider: PaymentProviderId;
  event_id: string;
  payment_id: string | null;
  type: string;
  payload: Json<unknown>;
  received_at: CreatedAt;
}
export interface FtpUploadsQueueTable {
  id: Generated<string>;
  order_id: string;
  patient_id: string | null;
  file_path: string;
  original_name: string;
  destination_path: string;
  order_prefix: string;
  patient_name: string | null;
  file_type: FileType;
  file_size: Int8 | null;
  status: Generated<QueueStatus>;
  error_message: string | null;
  attempts: Generated<number>;
  last_attempt_at: Timestamp | null;
  next_attempt_at: Generated<Date>;
  locked_until: Timestamp | null;
  locked_by: string | null;
  released_at: Timestamp | null;
  released_by: string | null;
  removed_at: Timestamp | null;
  /** The file was set aside by a confirmed skip of its step (ADR 087): not due, not sent, while this is set. */
  set_aside_at: Timestamp | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
  /** Its order is in the paid set or staff released it: kept by the database's triggers (ADR 092), never written by the code. */
  due: Generated<boolean>;
  /** Its order is a draft (ADR 106): kept by the database, so the back-office queue reads only placed orders' entries. */
  of_draft: Generated<boolean>;
}
export interface FtpUploadsView {
  id: string;
  order_id: string;
  patient_id: string | null;
  file_path: string;
  original_name: string;
  destination_path: string;
  order_prefix: string;
  patient_name: string | null;
  file_type: FileType;
  file_size: number | null;
  status: QueueStatus;
  error_message: string | null;
  attempts: number;
  last_attempt_at: Date | null;
  next_attempt_at: Date;
  released_at: Date | null;
  removed_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
  order_status: OrderStatus;
  order_email: string | null;
  order_full_name: string | null;
  set_aside_at: Date | null;
}
export interface ClientSettingsTable {
  email: string;
  currency: Generated<Currency>;
  aligner_price: Int8 | null;
  aligner_single_layer_price: Int8 | null;
  aligner_three_layer_price: Int8 | null;
  matrix_price: Int8 | null;
  retainer_standard_price: Int8 | null;
  retainer_premium_price: Int8 | null;
  discount_percentage: Numeric | null;
  /** Shown to the client on the order's summary. */
  personal_comment: string | null;
  /** Staff only: never shown to the client (ADR 093). */
  internal_comment: string | null;
  notification_channel: Generated<NotificationChannel>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
export interface PartnerCodesTable {
  id: Generated<string>;
  code: string;
  user_email: string;
  user_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  offer_accepted_at: Timestamp | null;
  reward_percentage: ColumnType<string, string | number | undefined, string | number>;
  created_at: CreatedAt;
}
export interface PartnerAffiliatesTable {
  id: Generated<string>;
  partner_code_id: string;
  affiliate_email: string;
  first_order_id: string | null;
  created_at: CreatedAt;
}
export interface PartnerPayoutsTable {
  id: Generated<string>;
  partner_code_id: string;
  amount: Int8;
  currency: Generated<Currency>;
  period_year: number;
  period_quarter: number;
  note: string | null;
  created_by: string | null;
  paid_at: Generated<Date>;
}
/** One row per client e-mail, kept by a trigger on orders (ADR 042). */
export interface ClientSummariesTable {
  email: string;
  orders_count: number;
  /** Orders of the paid set (DESIGN §4.2). */
  paid_orders_count: number;
  last_order_at: Date;
}
export interface PartnerBalanceSummaryView {
  partner_code_id: string;
  accrued_total: number;
  paid_total: number;
  due_total: number;
}
export interface PartnerAffiliateOrderStatsView {
  partner_code_id: string;
  affiliate_email: string;
  first_paid_at: Date | null;
  expires_at: Date | null;
  orders_count: number;
  orders_sum: number;
  eligible_orders_sum: number;
  is_active: boolean;
}
export interface TranslationsTable {
  id: Generated<string>;
  original_text: string;
  translated_text: string;
  source_language: Generated<string>;
  target_language: Generated<string>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
/** One row: bumped by a trigger on every change of `translations` (cache invalidation across instances). */
export interface TranslationsVersionTable {
  id: Generated<boolean>;
  version: Generated<Int8>;
}
export interface RateLimitsTable {
  key: string;
  count: number;
  window_started_at: Generated<Date>;
  expires_at: Timestamp;
}

/** The answer to an enhanced post, kept by the key its page sent, for a post sent again (ADR 046). */
export interface RequestReplaysTable {
  key: string;
  /** Method and URL the key was first sent with; another target never gets this answer. */
  target: string;
  /** Null while the first request is still being answered. */
  status: number | null;
  headers: Array<[string, string]> | null;
  /** gzip of the answer's body. */
  body: Buffer | null;
  /** A hash of who sent the first request (its session or browser, else its address group): only it gets the answer again. */
  sender: Generated<string>;
  address_group: Generated<string>;
  created_at: Generated<Date>;
}

/** The background walk of the `orders` bucket (ADR 063): one row, its cursor and the last full pass. */
export interface StorageWalkTable {
  id: Generated<number>;
  /** The last key listed in the pass under way (S3 start-after); null: the next run starts a pass. */
  cursor: string | null;
  pass_started_at: Timestamp | null;
  pass_objects: Generated<number>;
  pass_bytes: Generated<number>;
  pass_folders: Generated<number>;
  pass_last_folder: string | null;
  finished_at: Timestamp | null;
  objects: Int8 | null;
  bytes: Int8 | null;
  folders: number | null;
}

/**
 * Housekeeping's one row (ADR 084): the lease of the pass under way, if any, and what the last pass
 * recorded. A pass starts only when no lease is held (or it has run out) and none started in the
 * current interval.
 */
export interface HousekeepingLeaseTable {
  id: Generated<number>;
  /** The process running a pass now ("web:host:pid:…", "queue-worker:…", "cron:…"); null between passes. */
  held_by: string | null;
  /** When the lease runs out unless renewed: a process that died mid-pass loses it then. */
  held_until: Timestamp | null;
  last_started_at: Timestamp | null;
  last_finished_at: Timestamp | null;
  last_ran_by: string | null;
  /** How the last finished pass ended; a pass whose process died records nothing here. */
  last_outcome: "completed" | "failed" | null;
  /** Passes started since the table was made. */
  passes: Generated<number>;
  created_at: CreatedAt;
}

export type StorageTrashReason = "order_missing" | "unlisted" | "cancelled" | "abandoned_draft" | "delivered";

/** Objects of the `orders` bucket the walk found to be garbage (DESIGN §4.18), re-checked before deleting. */
/** The trash's totals, kept by statement triggers on storage_trash (ADR 106): one row, id 1. */
export interface StorageTrashTotals {
  id: number;
  files: number;
  bytes: number;
}
export interface StorageTrashTable {
  key: string;
  /** The key's first segment (its order folder). */
  folder: string;
  size: Int8;
  modified_at: Timestamp;
  reason: StorageTrashReason;
  found_at: Generated<Date>;
}

/** A clinic's request to erase its data (ADR 079): open until every order of the address is deleted or anonymised. */
export interface ErasureRequestsTable {
  id: Generated<string>;
  /** The clinic's address; replaced by the pseudonym once the erasure is complete. */
  email: string;
  /** What replaces the address on the orders and referrals it keeps: `erased-<random>@erased.invalid`. */
  pseudonym: string;
  requested_at: CreatedAt;
  approved_at: Timestamp | null;
  approved_by: string | null;
  completed_at: Timestamp | null;
  orders_deleted: Generated<number>;
  orders_anonymised: Generated<number>;
  files_deleted: Generated<number>;
  /** Paid orders still being made or shipped at the last pass: they go once finished. */
  orders_waiting: Generated<number>;
  /** Until when accounting keeps the paid orders' records (the last payment plus the orders' period). */
  kept_until: Timestamp | null;
}

/** The lab's requisites as an invoice printed them (ADR 072): kept, so a later change of bank never rewrites an issued invoice. */
export interface InvoiceSupplierInfo {
  name: string;
  inn: string;
  kpp: string | null;
  address: string;
  bankName: string;
  bik: string;
  account: string;
  corrAccount: string;
  vatNote: string;
  /** Demo values filled a gap (outside strict mode): the invoice says it is not for paying. */
  demo: boolean;
}
/** A bank-transfer invoice of a domestic order (ADR 072): what it printed, and who recorded the transfer, when. */
export interface InvoicesTable {
  id: Generated<string>;
  /** From the sequence `invoice_numbers`: the number the invoice prints. */
  number: ColumnType<number, never, never>;
  order_id: string;
  client_company: string;
  client_inn: string;
  supplier: Json<InvoiceSupplierInfo>;
  lines: Json<PaymentLineInfo[]>;
  total: Int8;
  currency: Currency;
  created_at: CreatedAt;
  paid_at: Timestamp | null;
  /** The staff member's actor label (an e-mail, or "back-office password (ip)"). */
  paid_by: string | null;
  /** The succeeded payment recorded for the transfer. */
  payment_id: string | null;
}

/** A message of an order's thread between the clinic and the lab, or a note for the lab only (ADR 104). */
export interface OrderMessagesTable {
  id: Generated<string>;
  order_id: string;
  author_side: "clinic" | "lab";
  /** The clinic's address or the staff member's label, as order history records them. */
  author: string;
  body: string;
  /** A note for the lab only: never read by anything the clinic sees. */
  lab_only: Generated<boolean>;
  /** A lab message that asks the clinic something: the order waits for the clinic's answer. */
  asks: Generated<boolean>;
  assigned_to: string | null;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
  created_at: CreatedAt;
}
/** Who an order's thread waits for and what each side has not opened, kept as messages are written (ADR 104). */
export interface OrderThreadsTable {
  order_id: string;
  waiting_on: "clinic" | "lab" | null;
  waiting_since: Timestamp | null;
  clinic_unread: Generated<number>;
  lab_unread: Generated<number>;
  last_message_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_tokens: SignInTokensTable;
  user_roles: UserRolesTable;
  role_changes: RoleChangesTable;
  orders: OrdersTable;
  order_codes: OrderCodesTable;
  order_status_history: OrderStatusHistoryTable;
  order_file_corrections: OrderFileCorrectionsTable;
  order_packings: OrderPackingsTable;
  bag_scans: BagScansTable;
  orders_patients: OrdersPatientsTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  "sandbox.payments": SandboxPaymentsTable;
  ftp_uploads_queue: FtpUploadsQueueTable;
  ftp_uploads_view: FtpUploadsView;
  client_settings: ClientSettingsTable;
  client_summaries: ClientSummariesTable;
  partner_codes: PartnerCodesTable;
  partner_affiliates: PartnerAffiliatesTable;
  partner_payouts: PartnerPayoutsTable;
  partner_balance_summary: PartnerBalanceSummaryView;
  partner_affiliate_order_stats: PartnerAffiliateOrderStatsView;
  translations: TranslationsTable;
  translations_version: TranslationsVersionTable;
  rate_limits: RateLimitsTable;
  request_replays: RequestReplaysTable;
  storage_walk: StorageWalkTable;
  housekeeping_lease: HousekeepingLeaseTable;
  staff_preferences: StaffPreferencesTable;
  storage_trash: StorageTrashTable;
  storage_trash_totals: StorageTrashTotals;
  erasure_requests: ErasureRequestsTable;
  invoices: InvoicesTable;
  order_messages: OrderMessagesTable;
  order_threads: OrderThreadsTable;
}

export type Order = Selectable<OrdersTable>;
export type Patient = Selectable<OrdersPatientsTable>;
export type QueueEntry = Selectable<FtpUploadsQueueTable>;
export type ClientSettings = Selectable<ClientSettingsTable>;
