import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { keysetCasts, type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { intervalOf, type RetentionPeriods } from "~/modules/config/retention";
import type { FileStorage } from "~/modules/storage/storage.server";
import type { OrderStatus } from "~db/schema";
import { anonymiseOrderRows, deleteOrdersIn, ordersLeftOf, ordersOfAddress } from "~/modules/orders/retention.server";
import { inFolderGroups, type PassLimits } from "./retention.server";

/**
 * A clinic's erasure request (ADR 079). The clinic asks in its cabinet; an admin approves; the
 * erasure then runs in bounded passes — the approval's own, then one per scheduled run — until
 * nothing of the address is left but what accounting must keep:
 *
 * - drafts and unpaid orders are deleted with their files;
 * - shipped, completed and cancelled orders are anonymised as after the retention period (ADR 074),
 *   their address replaced by the request's pseudonym (a partner's referral keeps counting them);
 * - paid orders still being made wait: the lab needs the address to ship them; they go in the
 *   first pass after they are shipped and the "shipped" mail (with its tracking) has gone;
 * - once no order of the address is left, its account goes: settings and conditions, sign-in links,
 *   sessions and the user, and a partner's referral names the pseudonym.
 *
 * What stays, and until when: the paid orders' accounting record (number, sums, products, dates,
 * payments with their lines and the payer's business name and tax number) until the accounting
 * records' period after the end of the year of the last paid order's last change (`kept_until`), when
 * the scheduled job's own rule deletes it.
 */

export type ErasureRequest = Awaited<ReturnType<typeof findErasure>> & {};

const DELETED: OrderStatus[] = ["draft", "pending"];
const ANONYMISED: OrderStatus[] = ["shipped", "completed", "cancelled"];
const WAITING: OrderStatus[] = ["paid", "processing"];

const COLUMNS = [
  "id",
  "email",
  "pseudonym",
  "requested_at",
  "approved_at",
  "approved_by",
  "completed_at",
  "orders_deleted",
  "orders_anonymised",
  "files_deleted",
  "orders_waiting",
  "kept_until",
] as const;

export function findErasure(db: DB, id: string) {
  return db
    .selectFrom("erasure_requests")
    .select(COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The address's open request, if it has one (a completed request no longer names the address). */
export function openErasureOf(db: DB, email: string) {
  return db
    .selectFrom("erasure_requests")
    .select(COLUMNS)
    .where("email", "=", email)
    .where("completed_at", "is", null)
    .executeTakeFirst();
}

/** Records the address's request; asking twice keeps the first. */
export async function requestErasure(db: DB, email: string) {
  await db
    .insertInto("erasure_requests")
    .values({
      email,
      pseudonym: `erased-${randomBytes(8).toString("hex")}@erased.invalid`,
    })
    .onConflict((conflict) =>
      conflict.column("email").where("completed_at", "is", null).doNothing()
    )
    .execute();
  return openErasureOf(db, email);
}

/** The clinic changed its mind before an admin approved: the request goes. Returns whether one went. */
export async function withdrawErasure(db: DB, email: string): Promise<boolean> {
  const result = await db
    .deleteFrom("erasure_requests")
    .where("email", "=", email)
    .where("approved_at", "is", null)
    .where("completed_at", "is", null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Newest first, ties by id (both one way: one row comparison). */
const ERASURE_KEYS: KeysetKey[] = [
  { expr: sql`erasure_requests.requested_at`, cast: "timestamptz", descending: true },
  { expr: sql`erasure_requests.id`, cast: "uuid", descending: true },
];

/** How the list's cursor holds its values (an address without one of them is an old `?page=N` one, ADR 091). */
export const ERASURE_CURSOR_CASTS = keysetCasts(ERASURE_KEYS);

/**
 * Requests newest first, one page after (before) the cursor, with whether more follow and the page's
 * cursors (ADR 091; a lab gets a few a year, and the page stays one range of the requests).
 */
export async function listErasures(db: DB, query: { after: Cursor | null; before: Cursor | null; perPage: number }) {
  const plan = keysetPlan(ERASURE_KEYS, query.after, query.before);
  let page = db.selectFrom("erasure_requests").select(COLUMNS).select(plan.select);
  if (plan.past) page = page.where(plan.past);
  for (const [key, direction] of plan.order) page = page.orderBy(key, direction);
  return plan.page(await page.limit(query.perPage + 1).execute(), query.perPage);
}

/**
 * Why an address's erasure must wait for an admin's other work: it holds a back-office role or a
 * partner code (staff and partners are not clinic data; their access is taken away first).
 */
export async function erasureBlocker(
  db: DB,
  email: string
): Promise<"role" | "partner" | null> {
  const [role, partner] = await Promise.all([
    db
      .selectFrom("user_roles as r")
      .innerJoin("users as u", "u.id", "r.user_id")
      .select("r.role")
      .where("u.email", "=", email)
      .executeTakeFirst(),
    db
      .selectFrom("partner_codes")
      .select("id")
      .where("user_email", "=", email)
      .executeTakeFirst(),
  ]);
  return role ? "role" : partner ? "partner" : null;
}

export interface ErasurePass {
  ordersDeleted: number;
  ordersAnonymised: number;
  filesDeleted: number;
  ordersWaiting: number;
  completed: boolean;
}

/** Marks the request approved by `actor` (once) and runs its first pass. */
export async function approveErasure(
  db: DB,
  storage: FileStorage,
  periods: RetentionPeriods,
  id: string,
  actor: string,
  limits: PassLimits
) {
  await db
    .updateTable("erasure_requests")
    .set({ approved_at: sql<Date>`now()`, approved_by: actor })
    .where("id", "=", id)
    .where("approved_at", "is", null)
    .execute();
  const request = await findErasure(db, id);
  if (!request || request.completed_at) return null;
  return continueErasure(db, storage, periods, request, limits);
}

/**
 * One bounded pass of an approved request: at most `limits.batch` orders deleted and as many
 * anonymised (files in groups of ten while the deadline allows), the counts added to the request,
 * and the account removed once no order of the address is left.
 */
export async function continueErasure(
  db: DB,
  storage: FileStorage,
  periods: RetentionPeriods,
  request: NonNullable<ErasureRequest>,
  limits: PassLimits
): Promise<ErasurePass> {
  const { email, pseudonym } = request;
  const ofAddress = (statuses: OrderStatus[], afterMails: boolean) => ordersOfAddress(db, email, statuses, afterMails, limits.batch);

  const unpaid = await ofAddress(DELETED, false);
  const deleted = await inFolderGroups(
    storage,
    unpaid.map((order) => order.id),
    limits.deadline,
    (ids) => deleteOrdersIn(db, ids, DELETED)
  );

  const finished = await ofAddress(ANONYMISED, true);
  // The accounting record of a paid order stays until the scheduled job's own rule deletes it (ADR 074):
  // the period after the end of the year of the order's last change.
  const lastChange = finished.reduce<Date | null>(
    (last, order) =>
      order.paid_at && (!last || order.updated_at > last) ? order.updated_at : last,
    null
  );
  const anonymise = (ids: string[]) => anonymiseOrderRows(db, ids, pseudonym);
  const bare = finished
    .filter((order) => order.storage_removed_at !== null)
    .map((order) => order.id);
  let anonymised = bare.length ? await anonymise(bare) : 0;
  const withFiles = await inFolderGroups(
    storage,
    finished
      .filter((order) => order.storage_removed_at === null)
      .map((order) => order.id),
    limits.deadline,
    anonymise
  );
  anonymised += withFiles.settled;

  const left = await ordersLeftOf(db, email, WAITING);
  const waiting = left.waiting;
  const completed = left.all === 0;
  const { years } = intervalOf("accountingRecords", periods);

  await db.transaction().execute(async (trx) => {
    if (completed) await removeAccount(trx, email, pseudonym);
    await trx
      .updateTable("erasure_requests")
      .set((eb) => ({
        orders_deleted: eb("orders_deleted", "+", deleted.settled),
        orders_anonymised: eb("orders_anonymised", "+", anonymised),
        files_deleted: eb(
          "files_deleted",
          "+",
          deleted.files + withFiles.files
        ),
        orders_waiting: waiting,
        kept_until: lastChange
          ? sql<Date>`greatest(kept_until, date_trunc('year', ${lastChange}::timestamptz) + make_interval(years => ${
              (years ?? 0) + 1
            }))`
          : sql<Date>`kept_until`,
        ...(completed
          ? { completed_at: sql<Date>`now()`, email: pseudonym }
          : {}),
      }))
      .where("id", "=", request.id)
      .execute();
  });
  return {
    ordersDeleted: deleted.settled,
    ordersAnonymised: anonymised,
    filesDeleted: deleted.files + withFiles.files,
    ordersWaiting: waiting,
    completed,
  };
}

/** The address's account: conditions and settings, sign-in links, sessions and user; a partner's referral keeps the pseudonym. */
async function removeAccount(db: DB, email: string, pseudonym: string) {
  await db.deleteFrom("client_settings").where("email", "=", email).execute();
  await db.deleteFrom("sign_in_tokens").where("email", "=", email).execute();
  await db
    .updateTable("partner_affiliates")
    .set({ affiliate_email: pseudonym })
    .where("affiliate_email", "=", email)
    .execute();
  const users = db.selectFrom("users").select("id").where("email", "=", email);
  await db.deleteFrom("sessions").where("user_id", "in", users).execute();
  // A user with a role is refused before approval (erasureBlocker); its rows cascade otherwise.
  await db
    .deleteFrom("users")
    .where("email", "=", email)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("user_roles")
            .select("user_id")
            .whereRef("user_roles.user_id", "=", "users.id")
        )
      )
    )
    .execute();
}

/** The scheduled job's share: a few approved, unfinished requests a run, each one bounded pass. */
export async function continueErasures(
  db: DB,
  storage: FileStorage,
  periods: RetentionPeriods,
  limits: PassLimits
) {
  const due = await db
    .selectFrom("erasure_requests")
    .select(COLUMNS)
    .where("approved_at", "is not", null)
    .where("completed_at", "is", null)
    .orderBy("approved_at")
    .limit(3)
    .execute();
  let orders = 0;
  let files = 0;
  for (const request of due) {
    if (Date.now() >= limits.deadline && orders > 0) break;
    const pass = await continueErasure(db, storage, periods, request, limits);
    orders += pass.ordersDeleted + pass.ordersAnonymised;
    files += pass.filesDeleted;
  }
  return { orders, files };
}
