import { type Kysely, sql } from "kysely";

// Frozen in time. Five years of a large lab's data (docs/decisions/041-five-years-of-data.md):
// - every foreign key that cascades or sets null gets an index on its referencing column, so deleting
//   an order, a patient, a payment or a partner looks up its dependants instead of scanning them
//   (a draft's patients were one scan of the 1 M-row queue each, through `patient_id`);
// - the file server queue page reads one page of its sort in index order, the type from the index;
// - housekeeping finds its batch by index: abandoned drafts, expired order codes, sessions and tokens.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const upStatements: string[] = [
  `create index ftp_uploads_queue_patient_idx on ftp_uploads_queue(patient_id) where patient_id is not null`,
  `create index ftp_uploads_queue_list_idx on ftp_uploads_queue(status, created_at desc, id desc) include (file_type)`,
  `create index payment_events_payment_idx on payment_events(payment_id) where payment_id is not null`,
  `create index orders_partner_code_fk_idx on orders(partner_code_id) where partner_code_id is not null`,
  `create index partner_affiliates_first_order_idx on partner_affiliates(first_order_id) where first_order_id is not null`,
  `create index orders_draft_updated_idx on orders(updated_at) where status = 'draft'`,
  `create index order_codes_release_after_idx on order_codes(release_after)`,
  `create index sessions_expires_idx on sessions(expires_at)`,
  `create index sign_in_tokens_expires_idx on sign_in_tokens(expires_at)`,
];

const downStatements: string[] = [
  `drop index if exists sign_in_tokens_expires_idx`,
  `drop index if exists sessions_expires_idx`,
  `drop index if exists order_codes_release_after_idx`,
  `drop index if exists orders_draft_updated_idx`,
  `drop index if exists partner_affiliates_first_order_idx`,
  `drop index if exists orders_partner_code_fk_idx`,
  `drop index if exists payment_events_payment_idx`,
  `drop index if exists ftp_uploads_queue_list_idx`,
  `drop index if exists ftp_uploads_queue_patient_idx`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
