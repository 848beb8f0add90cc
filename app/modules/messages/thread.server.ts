import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { takeWithinLimit } from "~/modules/security/rate-limit.server";
import { MESSAGES_PER_HOUR, THREAD_PAGE } from "./thread";

/**
 * An order's thread (ADR 104): its messages between the clinic and the lab, the lab's own notes,
 * and the order's one `order_threads` row — who the thread waits for since when, and what each side
 * has not opened — rewritten in the same transaction as every message, assignment and resolution,
 * so the lists count waiting orders by that row's index and never read the messages.
 */

export type Side = "clinic" | "lab";

export interface ThreadMessage {
  id: string;
  side: Side;
  author: string;
  body: string;
  labOnly: boolean;
  asks: boolean;
  assignedTo: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  at: string;
}

export interface ThreadState {
  waitingOn: Side | null;
  waitingSince: string | null;
  clinicUnread: number;
  labUnread: number;
}

const NO_THREAD: ThreadState = { waitingOn: null, waitingSince: null, clinicUnread: 0, labUnread: 0 };

/**
 * The newest messages of the order as `side` may read them, oldest first: the clinic never gets a
 * lab-only note — the query itself leaves them out, so no page can hand one on by mistake.
 */
export async function readThread(db: DB, orderId: string, side: Side): Promise<{ messages: ThreadMessage[]; state: ThreadState }> {
  const [rows, state] = await Promise.all([
    db
      .selectFrom("order_messages")
      .select(["id", "author_side", "author", "body", "lab_only", "asks", "assigned_to", "resolved_at", "resolved_by", "created_at"])
      .where("order_id", "=", orderId)
      .$if(side === "clinic", (query) => query.where("lab_only", "=", false))
      .orderBy("id", "desc")
      .limit(THREAD_PAGE)
      .execute(),
    threadState(db, orderId),
  ]);
  const messages = rows.reverse().map((row) => ({
    id: String(row.id),
    side: row.author_side,
    author: row.author,
    body: row.body,
    labOnly: row.lab_only,
    asks: row.asks,
    assignedTo: side === "lab" ? row.assigned_to : null,
    resolvedAt: side === "lab" ? (row.resolved_at?.toISOString() ?? null) : null,
    resolvedBy: side === "lab" ? row.resolved_by : null,
    at: row.created_at.toISOString(),
  }));
  return { messages, state };
}

export async function threadState(db: DB, orderId: string): Promise<ThreadState> {
  const row = await db.selectFrom("order_threads").select(["waiting_on", "waiting_since", "clinic_unread", "lab_unread"]).where("order_id", "=", orderId).executeTakeFirst();
  if (!row) return NO_THREAD;
  return { waitingOn: row.waiting_on, waitingSince: row.waiting_since?.toISOString() ?? null, clinicUnread: row.clinic_unread, labUnread: row.lab_unread };
}

/** The side has opened the thread: nothing of the other side is unread for it any more. */
export async function markThreadRead(db: DB, orderId: string, side: Side): Promise<void> {
  const column = side === "clinic" ? "clinic_unread" : "lab_unread";
  await db.updateTable("order_threads").set({ [column]: 0 }).where("order_id", "=", orderId).where(column, ">", 0).execute();
}

export interface NewMessage {
  orderId: string;
  side: Side;
  author: string;
  body: string;
  /** Staff: a note for the lab only. */
  labOnly?: boolean;
  /** Staff: the message asks the clinic something, and the order waits for the answer. */
  asks?: boolean;
}

export type PostResult = { ok: true; id: string } | { ok: false; reason: "too_many"; retryAfterSeconds: number };

/**
 * Writes one message (or note) and the thread's state with it. At most MESSAGES_PER_HOUR per sender
 * in an hour: a refused message is not counted and nothing is stored.
 */
export async function postMessage(db: DB, message: NewMessage): Promise<PostResult> {
  const refused = await takeWithinLimit(db, `thread:${message.author}`, MESSAGES_PER_HOUR, 3600, 1);
  if (refused) return { ok: false, reason: "too_many", retryAfterSeconds: refused.retryAfterSeconds };
  const labOnly = message.side === "lab" && Boolean(message.labOnly);
  const asks = message.side === "lab" && !labOnly && Boolean(message.asks);
  const id = await db.transaction().execute(async (trx) => {
    await lockThread(trx, message.orderId);
    const row = await trx
      .insertInto("order_messages")
      .values({ order_id: message.orderId, author_side: message.side, author: message.author, body: message.body, lab_only: labOnly, asks })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!labOnly) {
      const unread = message.side === "clinic" ? "lab_unread" : "clinic_unread";
      await trx
        .updateTable("order_threads")
        .set({ [unread]: sql`${sql.ref(unread)} + 1`, last_message_at: sql`now()` })
        .where("order_id", "=", message.orderId)
        .execute();
    }
    await settleWaiting(trx, message.orderId);
    return String(row.id);
  });
  return { ok: true, id };
}

/** Gives a message or note to a staff member (null: to nobody). False when the order has no such message. */
export async function assignMessage(db: DB, orderId: string, messageId: string, assignee: string | null): Promise<boolean> {
  const changed = await db.updateTable("order_messages").set({ assigned_to: assignee }).where("order_id", "=", orderId).where("id", "=", messageId).executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/** Marks a message or note resolved; the wait it caused ends with it. False when the order has no such open message. */
export async function resolveMessage(db: DB, orderId: string, messageId: string, by: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("order_messages")
      .set({ resolved_at: sql`now()`, resolved_by: by })
      .where("order_id", "=", orderId)
      .where("id", "=", messageId)
      .where("resolved_at", "is", null)
      .executeTakeFirst();
    // A message that is not there changes nothing, not even the thread's row.
    if (Number(changed.numUpdatedRows) === 0) return false;
    await lockThread(trx, orderId);
    await settleWaiting(trx, orderId);
    return true;
  });
}

/** The order's thread row, made if missing and held until the transaction ends (two posts at once settle one after the other). */
async function lockThread(trx: DB, orderId: string): Promise<void> {
  await trx.insertInto("order_threads").values({ order_id: orderId }).onConflict((oc) => oc.column("order_id").doNothing()).execute();
  await trx.selectFrom("order_threads").select("order_id").where("order_id", "=", orderId).forUpdate().execute();
}

/**
 * Who the thread waits for, from the messages since the other side last wrote (notes never count):
 * the lab, since the first open clinic message after the lab's last word; the clinic, since the first
 * open question of the lab after the clinic's last word; else nobody. Reads one order's newest
 * messages by its index, never the whole table.
 */
async function settleWaiting(trx: DB, orderId: string): Promise<void> {
  const recent = await trx
    .selectFrom("order_messages")
    .select(["author_side", "asks", "resolved_at", "created_at"])
    .where("order_id", "=", orderId)
    .where("lab_only", "=", false)
    .orderBy("id", "desc")
    .limit(THREAD_PAGE)
    .execute();
  const lastSide = recent[0]?.author_side;
  const otherSide = recent.findIndex((row) => row.author_side !== lastSide);
  const sinceOtherSide = otherSide === -1 ? recent : recent.slice(0, otherSide);
  const open = sinceOtherSide.filter((row) => row.resolved_at === null && (row.author_side === "clinic" || row.asks));
  const first = open.at(-1);
  await trx
    .updateTable("order_threads")
    .set(first ? { waiting_on: first.author_side === "clinic" ? "lab" : "clinic", waiting_since: first.created_at } : { waiting_on: null, waiting_since: null })
    .where("order_id", "=", orderId)
    .execute();
}
