import { type Kysely, sql } from "kysely";

// Frozen in time: this migration never imports application code.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const STATUS = `'draft','pending','paid','processing','shipped','completed','cancelled'`;
const LANG = `'ru','en','de','es','fr','it'`;

const up: string[] = [

  `create table users (
    id uuid primary key default gen_random_uuid(),
    email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
    created_at timestamptz not null default now(),
    last_sign_in_at timestamptz
  )`,

  `create table sessions (
    id text primary key,
    user_id uuid not null references users(id) on delete cascade,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    last_seen_at timestamptz not null default now(),
    ip text,
    user_agent text
  )`,
  `create index sessions_user_id_idx on sessions(user_id)`,

  `create table sign_in_tokens (
    id uuid primary key default gen_random_uuid(),
    email text not null check (email = lower(btrim(email))),
    token_hash text not null unique,
    code_hash text not null,
    redirect_to text,
    attempts integer not null default 0 check (attempts >= 0),
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index sign_in_tokens_email_idx on sign_in_tokens(email, created_at desc)`,

  `create table user_roles (
    user_id uuid not null references users(id) on delete cascade,
    role text not null check (role in ('admin','manager','user')),
    created_at timestamptz not null default now(),
    primary key (user_id, role)
  )`,

  `create table orders (
    id uuid primary key,
    code text not null check (code ~ '^[0-9a-f]{4}$' and code = substr(id::text, 1, 4)),
    status text not null default 'draft' check (status in (${STATUS})),
    market text not null check (market in ('domestic','international')),
    currency text not null check (currency in ('rub','eur')),
    email text check (email is null or email = lower(btrim(email))),
    full_name text,
    phone text,
    address text,
    delivery_comment text,
    additional_comments text,
    material_type text check (material_type in ('single_layer','three_layer')),
    cut_type text check (cut_type in ('wavy','straight')),
    matrix_type text check (matrix_type in ('soft','hard')),
    retainer_type text check (retainer_type in ('standard','premium')),
    current_patient_id uuid,
    wizard_step integer not null default 1 check (wizard_step between 1 and 11),
    total_cost bigint check (total_cost >= 0),
    discount_percentage numeric(5,2) check (discount_percentage between 0 and 100),
    payment_id text,
    tracking_number text,
    partner_code_id uuid,
    paid_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check (status not in ('paid','processing','shipped','completed') or paid_at is not null),
    check (status <> 'shipped' or tracking_number is not null)
  )`,
  `create index orders_email_idx on orders(email, created_at desc)`,
  `create index orders_status_idx on orders(status, created_at desc)`,
  `create index orders_created_at_idx on orders(created_at desc)`,

  `create table order_codes (
    code text primary key check (code ~ '^[0-9a-f]{4}$'),
    order_id uuid unique references orders(id) on delete cascade,
    reserved_at timestamptz not null default now(),
    release_after timestamptz not null default (now() + interval '365 days')
  )`,

  `create table order_status_history (
    id bigint generated always as identity primary key,
    order_id uuid not null references orders(id) on delete cascade,
    from_status text check (from_status in (${STATUS})),
    to_status text not null check (to_status in (${STATUS})),
    actor text not null check (btrim(actor) <> ''),
    note text,
    tracking_number text,
    created_at timestamptz not null default now(),
    check (to_status <> 'shipped' or tracking_number is not null)
  )`,
  `create index order_status_history_order_idx on order_status_history(order_id, created_at)`,

  `create table orders_patients (
    id uuid primary key default gen_random_uuid(),
    order_id uuid not null references orders(id) on delete cascade,
    patient_name text not null check (btrim(patient_name) <> ''),
    folder_name text not null check (folder_name ~ '^[0-9A-Za-z_-]+$'),
    material_type text check (material_type in ('single_layer','three_layer')),
    cut_type text check (cut_type in ('wavy','straight')),
    matrix_type text check (matrix_type in ('soft','hard')),
    additional_comments text,
    matrix_files_info jsonb not null default '[]' check (jsonb_typeof(matrix_files_info) = 'array'),
    aligner_files_info jsonb not null default '[]' check (jsonb_typeof(aligner_files_info) = 'array'),
    retainer_files_info jsonb not null default '[]' check (jsonb_typeof(retainer_files_info) = 'array'),
    skip_matrix boolean not null default false,
    skip_aligners boolean not null default false,
    skip_retainers boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (order_id, folder_name),
    unique (order_id, id)
  )`,
  `create index orders_patients_order_idx on orders_patients(order_id, created_at)`,
  // The current patient must belong to the same order.
  `alter table orders add constraint orders_current_patient_fk
     foreign key (id, current_patient_id) references orders_patients(order_id, id) on delete set null (current_patient_id)`,

  `create table payments (
    id uuid primary key default gen_random_uuid(),
    order_id uuid references orders(id) on delete set null,
    order_code text not null,
    provider text not null check (provider in ('sandbox','yookassa','stripe')),
    provider_payment_id text,
    amount bigint not null check (amount > 0),
    currency text not null check (currency in ('rub','eur')),
    status text not null default 'created' check (status in ('created','pending','succeeded','canceled','failed')),
    idempotence_key text not null unique,
    confirmation_url text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (provider, provider_payment_id)
  )`,
  `create index payments_order_idx on payments(order_id)`,

  `create table payment_events (
    id bigint generated always as identity primary key,
    provider text not null check (provider in ('sandbox','yookassa','stripe')),
    event_id text not null,
    payment_id uuid references payments(id) on delete set null,
    type text not null,
    payload jsonb not null default '{}',
    received_at timestamptz not null default now(),
    unique (provider, event_id)
  )`,

  `create table ftp_uploads_queue (
    id uuid primary key default gen_random_uuid(),
    order_id uuid not null references orders(id) on delete cascade,
    patient_id uuid references orders_patients(id) on delete set null,
    file_path text not null unique,
    original_name text not null,
    destination_path text not null,
    order_prefix text not null,
    patient_name text,
    file_type text not null check (file_type in ('matrix','aligners','retainer')),
    file_size bigint check (file_size >= 0),
    status text not null default 'pending' check (status in ('pending','uploading','completed','failed')),
    error_message text,
    attempts integer not null default 0 check (attempts >= 0),
    last_attempt_at timestamptz,
    next_attempt_at timestamptz not null default now(),
    locked_until timestamptz,
    locked_by text,
    released_at timestamptz,
    released_by text,
    removed_at timestamptz,
    created_at timestamptz not null default now(),
    completed_at timestamptz,
    check (status <> 'completed' or completed_at is not null),
    check (status <> 'failed' or error_message is not null)
  )`,
  `create index ftp_uploads_queue_due_idx on ftp_uploads_queue(status, next_attempt_at)`,
  `create index ftp_uploads_queue_order_idx on ftp_uploads_queue(order_id)`,

  `create view ftp_uploads_view as
    select q.id, q.order_id, q.patient_id, q.file_path, q.original_name, q.destination_path,
           q.order_prefix, coalesce(p.patient_name, q.patient_name) as patient_name, q.file_type,
           q.file_size, q.status, q.error_message, q.attempts, q.last_attempt_at, q.next_attempt_at,
           q.released_at, q.removed_at, q.created_at, q.completed_at,
           o.status as order_status, o.email as order_email, o.full_name as order_full_name
      from ftp_uploads_queue q
      join orders o on o.id = q.order_id
      left join orders_patients p on p.id = q.patient_id`,

  `create table client_settings (
    email text primary key check (email = lower(btrim(email)) and email like '%_@_%'),
    currency text not null default 'rub' check (currency in ('rub','eur')),
    aligner_price bigint check (aligner_price >= 0),
    aligner_single_layer_price bigint check (aligner_single_layer_price >= 0),
    aligner_three_layer_price bigint check (aligner_three_layer_price >= 0),
    matrix_price bigint check (matrix_price >= 0),
    retainer_standard_price bigint check (retainer_standard_price >= 0),
    retainer_premium_price bigint check (retainer_premium_price >= 0),
    discount_percentage numeric(5,2) check (discount_percentage between 0 and 100),
    personal_comment text,
    notification_channel text not null default 'email' check (notification_channel in ('email','whatsapp','none')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,

  `create table partner_codes (
    id uuid primary key default gen_random_uuid(),
    code text not null unique check (code ~ '^[A-Z]{6}$'),
    user_email text not null unique check (user_email = lower(btrim(user_email))),
    user_name text,
    contact_email text,
    contact_phone text,
    offer_accepted_at timestamptz,
    reward_percentage numeric(5,2) not null default 10 check (reward_percentage > 0 and reward_percentage <= 100),
    created_at timestamptz not null default now()
  )`,
  `alter table orders add constraint orders_partner_code_fk
     foreign key (partner_code_id) references partner_codes(id) on delete set null`,

  `create table partner_affiliates (
    id uuid primary key default gen_random_uuid(),
    partner_code_id uuid not null references partner_codes(id) on delete cascade,
    affiliate_email text not null unique check (affiliate_email = lower(btrim(affiliate_email))),
    first_order_id uuid references orders(id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  `create index partner_affiliates_partner_idx on partner_affiliates(partner_code_id)`,

  `create table partner_payouts (
    id uuid primary key default gen_random_uuid(),
    partner_code_id uuid not null references partner_codes(id) on delete restrict,
    amount bigint not null check (amount > 0),
    currency text not null default 'rub' check (currency in ('rub','eur')),
    period_year integer not null check (period_year between 2000 and 2100),
    period_quarter integer not null check (period_quarter between 1 and 4),
    note text,
    created_by text,
    paid_at timestamptz not null default now()
  )`,
  `create index partner_payouts_partner_idx on partner_payouts(partner_code_id, paid_at desc)`,

  // Orders count toward a partner while the referral is active: one year from the first paid-set order.
  `create view partner_affiliate_order_stats as
    with paid as (
      select a.partner_code_id, a.affiliate_email, o.id, o.total_cost, coalesce(o.paid_at, o.created_at) as paid_at
        from partner_affiliates a
        join orders o on o.email = a.affiliate_email
       where o.status in ('paid','processing','shipped','completed')
    ), firsts as (
      select partner_code_id, affiliate_email, min(paid_at) as first_paid_at from paid group by 1, 2
    )
    select a.partner_code_id, a.affiliate_email, f.first_paid_at,
           f.first_paid_at + interval '1 year' as expires_at,
           count(p.id)::int as orders_count,
           coalesce(sum(p.total_cost), 0)::bigint as orders_sum,
           coalesce(sum(p.total_cost) filter (where p.paid_at < f.first_paid_at + interval '1 year'), 0)::bigint as eligible_orders_sum,
           coalesce(now() < f.first_paid_at + interval '1 year', false) as is_active
      from partner_affiliates a
      left join firsts f on f.partner_code_id = a.partner_code_id and f.affiliate_email = a.affiliate_email
      left join paid p on p.partner_code_id = a.partner_code_id and p.affiliate_email = a.affiliate_email
     group by a.partner_code_id, a.affiliate_email, f.first_paid_at`,

  `create view partner_balance_summary as
    select c.id as partner_code_id,
           coalesce(round(s.eligible * c.reward_percentage / 100), 0)::bigint as accrued_total,
           coalesce(pp.paid, 0)::bigint as paid_total,
           (coalesce(round(s.eligible * c.reward_percentage / 100), 0) - coalesce(pp.paid, 0))::bigint as due_total
      from partner_codes c
      left join (select partner_code_id, sum(eligible_orders_sum) as eligible
                   from partner_affiliate_order_stats group by 1) s on s.partner_code_id = c.id
      left join (select partner_code_id, sum(amount) as paid from partner_payouts group by 1) pp on pp.partner_code_id = c.id`,

  `create table translations (
    id uuid primary key default gen_random_uuid(),
    original_text text not null check (original_text <> ''),
    translated_text text not null check (translated_text <> ''),
    source_language text not null default 'ru' check (source_language in (${LANG})),
    target_language text not null default 'en' check (target_language in (${LANG})),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (original_text, source_language, target_language),
    check (source_language <> target_language)
  )`,

  `create table rate_limits (
    key text primary key,
    count integer not null check (count >= 0),
    window_started_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`,
  `create index rate_limits_expires_idx on rate_limits(expires_at)`,
];

const down: string[] = [
  `drop table if exists rate_limits`,
  `drop table if exists translations`,
  `drop view if exists partner_balance_summary`,
  `drop view if exists partner_affiliate_order_stats`,
  `drop table if exists partner_payouts`,
  `drop table if exists partner_affiliates`,
  `alter table orders drop constraint if exists orders_partner_code_fk`,
  `drop table if exists partner_codes`,
  `drop table if exists client_settings`,
  `drop view if exists ftp_uploads_view`,
  `drop table if exists ftp_uploads_queue`,
  `drop table if exists payment_events`,
  `drop table if exists payments`,
  `alter table orders drop constraint if exists orders_current_patient_fk`,
  `drop table if exists orders_patients`,
  `drop table if exists order_status_history`,
  `drop table if exists order_codes`,
  `drop table if exists orders`,
  `drop table if exists user_roles`,
  `drop table if exists sign_in_tokens`,
  `drop table if exists sessions`,
  `drop table if exists users`,
];

export async function upMigration(db: Kysely<any>): Promise<void> {
  for (const statement of up) await sql.raw(statement).execute(db);
}

export async function downMigration(db: Kysely<any>): Promise<void> {
  for (const statement of down) await sql.raw(statement).execute(db);
}

export { upMigration as up, downMigration as down };
