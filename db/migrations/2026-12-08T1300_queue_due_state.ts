import { type Kysely, sql } from "kysely";

// Frozen in time. Whether a file server queue entry is due — its order is in the paid set or staff
// released it (DESIGN §4.15–4.16) — kept on the entry by the database (ADR 092): set as an entry is
// written or released, and for all of an order's entries when the order enters or leaves the paid
// set. A partial index holds only the due entries not yet delivered, so the claims, the count of
// what remains and the models' retention pass never read the entries of drafts, unpaid and
// cancelled orders, however many there are. The paid set is spelled here as it was when this ran
// (orders/status.ts PAID_SET); a change of it is a new migration that replaces both functions.
const PAID = sql.raw(`'paid', 'processing', 'shipped', 'completed'`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ftp_uploads_queue add column due boolean not null default false`.execute(db);
  await sql`
    create function ftp_uploads_queue_set_due() returns trigger language plpgsql as $$
    begin
      new.due := new.released_at is not null
        or exists (select 1 from orders o where o.id = new.order_id and o.status in (${PAID}));
      return new;
    end $$`.execute(db);
  await sql`
    create trigger ftp_uploads_queue_set_due before insert or update of released_at, order_id on ftp_uploads_queue
      for each row execute function ftp_uploads_queue_set_due()`.execute(db);
  await sql`
    create function orders_queue_follow_paid_set() returns trigger language plpgsql as $$
    begin
      update ftp_uploads_queue q
         set due = q.released_at is not null or new.status in (${PAID})
       where q.order_id = new.id
         and q.due is distinct from (q.released_at is not null or new.status in (${PAID}));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger orders_queue_follow_paid_set after update of status on orders
      for each row when ((old.status in (${PAID})) is distinct from (new.status in (${PAID})))
      execute function orders_queue_follow_paid_set()`.execute(db);
  await sql`
    update ftp_uploads_queue q set due = true
     where q.released_at is not null
        or exists (select 1 from orders o where o.id = q.order_id and o.status in (${PAID}))`.execute(db);
  // The due entries still to deliver, in the order the workers claim them.
  await sql`
    create index ftp_uploads_queue_due_open_idx on ftp_uploads_queue (next_attempt_at, created_at, id)
      include (order_id, status, attempts)
      where due and status in ('pending', 'uploading', 'failed')`.execute(db);
  // The walk judges a page's key range afresh (`key collate "C" > cursor and … <= last`): the
  // primary key's collation cannot serve that range, this index does.
  await sql`create index storage_trash_key_c_idx on storage_trash (key collate "C")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists storage_trash_key_c_idx`.execute(db);
  await sql`drop index if exists ftp_uploads_queue_due_open_idx`.execute(db);
  await sql`drop trigger if exists orders_queue_follow_paid_set on orders`.execute(db);
  await sql`drop function if exists orders_queue_follow_paid_set()`.execute(db);
  await sql`drop trigger if exists ftp_uploads_queue_set_due on ftp_uploads_queue`.execute(db);
  await sql`drop function if exists ftp_uploads_queue_set_due()`.execute(db);
  await sql`alter table ftp_uploads_queue drop column due`.execute(db);
}
