import { type Kysely, sql } from "kysely";

// Frozen in time. A confirmed skip sets its step's files aside (ADR 087): kept in storage and on the
// patient's list, marked, out of the order; their queue entries are not sent while set aside. The
// skip's time tells an upload started before it (set aside when it lands) from one started after
// (which brings the step back); the time a skipped step came back is said on the summary.
const PARTS = [
  { list: "matrix_files_info", flag: "skip_matrix", type: "matrix" },
  { list: "aligner_files_info", flag: "skip_aligners", type: "aligners" },
  { list: "retainer_files_info", flag: "skip_retainers", type: "retainer" },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const { flag } of PARTS) {
    await sql`alter table orders_patients
      add column ${sql.raw(`${flag}_at`)} timestamptz check (${sql.raw(`${flag}_at`)} is null or ${sql.raw(flag)}),
      add column ${sql.raw(`un${flag}_at`)} timestamptz check (${sql.raw(`un${flag}_at`)} is null or not ${sql.raw(flag)})`.execute(db);
  }
  await sql`alter table ftp_uploads_queue add column set_aside_at timestamptz`.execute(db);
  await sql`create or replace view ftp_uploads_view as
    select q.id, q.order_id, q.patient_id, q.file_path, q.original_name, q.destination_path,
           q.order_prefix, coalesce(p.patient_name, q.patient_name) as patient_name, q.file_type,
           q.file_size, q.status, q.error_message, q.attempts, q.last_attempt_at, q.next_attempt_at,
           q.released_at, q.removed_at, q.created_at, q.completed_at,
           o.status as order_status, o.email as order_email, o.full_name as order_full_name,
           q.set_aside_at
      from ftp_uploads_queue q
      join orders o on o.id = q.order_id
      left join orders_patients p on p.id = q.patient_id`.execute(db);

  // Drafts skipped with files before this version: their files go aside, as a confirmed skip now does.
  for (const { list, flag, type } of PARTS) {
    const drafted = sql`exists (select 1 from orders o where o.id = p.order_id and o.status = 'draft')`;
    await sql`update ftp_uploads_queue q set set_aside_at = now()
      from orders_patients p
      where q.patient_id = p.id and q.file_type = ${type} and p.${sql.raw(flag)} and ${drafted}
        and p.${sql.raw(list)} @> jsonb_build_array(jsonb_build_object('storagePath', q.file_path))`.execute(db);
    await sql`update orders_patients p set
        ${sql.raw(list)} = (select coalesce(jsonb_agg(case when jsonb_typeof(e.f) = 'object' then e.f || '{"setAside": true}'::jsonb else e.f end order by e.i), '[]'::jsonb)
                             from jsonb_array_elements(p.${sql.raw(list)}) with ordinality as e(f, i)),
        ${sql.raw(`${flag}_at`)} = now()
      where p.${sql.raw(flag)} and ${drafted}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { list } of PARTS) {
    await sql`update orders_patients set ${sql.raw(list)} = (select coalesce(jsonb_agg(case when jsonb_typeof(e.f) = 'object' then e.f - 'setAside' else e.f end order by e.i), '[]'::jsonb)
      from jsonb_array_elements(${sql.raw(list)}) with ordinality as e(f, i))`.execute(db);
  }
  await sql`drop view ftp_uploads_view`.execute(db);
  await sql`create view ftp_uploads_view as
    select q.id, q.order_id, q.patient_id, q.file_path, q.original_name, q.destination_path,
           q.order_prefix, coalesce(p.patient_name, q.patient_name) as patient_name, q.file_type,
           q.file_size, q.status, q.error_message, q.attempts, q.last_attempt_at, q.next_attempt_at,
           q.released_at, q.removed_at, q.created_at, q.completed_at,
           o.status as order_status, o.email as order_email, o.full_name as order_full_name
      from ftp_uploads_queue q
      join orders o on o.id = q.order_id
      left join orders_patients p on p.id = q.patient_id`.execute(db);
  await sql`alter table ftp_uploads_queue drop column set_aside_at`.execute(db);
  for (const { flag } of PARTS) {
    await sql`alter table orders_patients drop column ${sql.raw(`${flag}_at`)}, drop column ${sql.raw(`un${flag}_at`)}`.execute(db);
  }
}
