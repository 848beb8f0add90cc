import { type Kysely, sql } from "kysely";

// Frozen in time. Whether a file server queue entry belongs to a draft, kept on the entry by the
// database as `due` is (ADR 092, 106): set as an entry is written or moved, and for all of an
// order's entries when the order leaves the drafts (or, never today, comes back). The back-office
// queue lists and counts only the entries of placed orders: one partial index holds exactly those,
// by state and order, so its counts stop at their caps without reading the drafts' uploads or
// joining the orders.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ftp_uploads_queue add column of_draft boolean not null default false`.execute(db);
  await sql`
    create function ftp_uploads_queue_set_of_draft() returns trigger language plpgsql as $$
    begin
      new.of_draft := exists (select 1 from orders o where o.id = new.order_id and o.status = 'draft');
      return new;
    end $$`.execute(db);
  await sql`
    create trigger ftp_uploads_queue_set_of_draft before insert or update of order_id on ftp_uploads_queue
      for each row execute function ftp_uploads_queue_set_of_draft()`.execute(db);
  await sql`
    create function orders_queue_follow_draft() returns trigger language plpgsql as $$
    begin
      update ftp_uploads_queue q set of_draft = (new.status = 'draft')
       where q.order_id = new.id and q.of_draft is distinct from (new.status = 'draft');
      return null;
    end $$`.execute(db);
  await sql`
    create trigger orders_queue_follow_draft after update of status on orders
      for each row when ((old.status = 'draft') is distinct from (new.status = 'draft'))
      execute function orders_queue_follow_draft()`.execute(db);
  await sql`update ftp_uploads_queue q set of_draft = true from orders o where o.id = q.order_id and o.status = 'draft'`.execute(db);
  // The placed orders' entries by state and order: the queue page's counts (capped) and its orders by state.
  await sql`
    create index ftp_uploads_queue_placed_idx on ftp_uploads_queue (status, order_id) include (file_type)
      where set_aside_at is null and not of_draft`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists ftp_uploads_queue_placed_idx`.execute(db);
  await sql`drop trigger if exists orders_queue_follow_draft on orders`.execute(db);
  await sql`drop function if exists orders_queue_follow_draft()`.execute(db);
  await sql`drop trigger if exists ftp_uploads_queue_set_of_draft on ftp_uploads_queue`.execute(db);
  await sql`drop function if exists ftp_uploads_queue_set_of_draft()`.execute(db);
  await sql`alter table ftp_uploads_queue drop column of_draft`.execute(db);
}
