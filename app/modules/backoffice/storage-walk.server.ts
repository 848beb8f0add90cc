import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { judgeObjects } from "./storage-files.server";
import { folderOf } from "./storage-trash";

/**
 * The background walk of the `orders` bucket (ADR 063): each scheduled run lists at most `calls`
 * pages of at most `pageSize` keys after the cursor kept in `storage_walk`, judges them against the
 * database and keeps what is trash in `storage_trash`. With `budgetMs` the walk is bounded by time, not
 * by pages (ADR 092): each page is sized to the time left at the pace the last page went (listing and
 * judging a key costs 0.1–0.5 ms, the storage's listing about half of it), and no call after the first
 * starts once too little is left for the smallest page. The storage page never lists the bucket; a
 * pass over 3.6 M objects is about 720 runs of five full pages where they are fast, several thousand
 * where they are slow.
 */
export interface WalkLimits {
  calls: number;
  pageSize: number;
  /** The walk's time: pages sized to fit it, no call after the first once it is spent (ADR 092). Without it every page is `pageSize`. */
  budgetMs?: number;
}
export const WALK_LIMITS: WalkLimits = { calls: 5, pageSize: 1000, budgetMs: 150 };
/** A timed walk's first page before the storage's pace is known (the process's first run). */
const FIRST_TIMED_PAGE = 100;
/** The smallest page a timed walk lists: below it a call's fixed costs (its transaction) outweigh its keys. */
const SMALLEST_TIMED_PAGE = 50;
/** Each storage's last pace, milliseconds per key of a whole page (listed, judged, written), for the next page's size. */
const paceOf = new WeakMap<FileStorage, number>();

/** How many keys the next page may have: all `pageSize` without a budget, else as many as fit in the time left at the last pace. */
function nextPageSize(storage: FileStorage, limits: WalkLimits, leftMs: number): number {
  if (limits.budgetMs === undefined) return limits.pageSize;
  const pace = paceOf.get(storage);
  const fitting = pace === undefined ? FIRST_TIMED_PAGE : Math.floor(leftMs / pace);
  return Math.min(limits.pageSize, Math.max(SMALLEST_TIMED_PAGE, fitting));
}

export interface WalkSummary {
  listCalls: number;
  objects: number;
  trashFound: number;
  /** A pass ended in this run. */
  passFinished: boolean;
}

/** Another run moved the cursor first: this one stops without writing. */
class CursorMoved extends Error {}

async function walkState(db: DB) {
  await db.insertInto("storage_walk").values({ id: 1 }).onConflict((oc) => oc.column("id").doNothing()).execute();
  return db.selectFrom("storage_walk").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
}

export async function walkStorage(db: DB, storage: FileStorage, limits: WalkLimits = WALK_LIMITS, now = new Date()): Promise<WalkSummary> {
  const summary: WalkSummary = { listCalls: 0, objects: 0, trashFound: 0, passFinished: false };
  let state = await walkState(db);
  const deadline = performance.now() + (limits.budgetMs ?? Number.POSITIVE_INFINITY);
  // A further call starts only while the smallest page still fits at the last pace.
  const timeLeft = () => deadline - performance.now();
  const roomForAPage = () => timeLeft() > (paceOf.get(storage) ?? 0) * SMALLEST_TIMED_PAGE;
  while (summary.listCalls < limits.calls && !summary.passFinished && (summary.listCalls === 0 || roomForAPage())) {
    const cursor = state.cursor;
    const callStarted = performance.now();
    const page = await storage.listAfter("orders", cursor, nextPageSize(storage, limits, timeLeft()));
    summary.listCalls++;
    const trash = await judgeObjects(db, page.objects, now);
    const starting = cursor === null;
    // Folders counted once across pages: keys come sorted, so a folder's keys are consecutive.
    let lastFolder = starting ? null : state.pass_last_folder;
    let newFolders = 0;
    for (const object of page.objects) {
      const folder = folderOf(object.key);
      if (folder !== lastFolder) newFolders++;
      lastFolder = folder;
    }
    const objects = (starting ? 0 : Number(state.pass_objects)) + page.objects.length;
    const bytes = (starting ? 0 : Number(state.pass_bytes)) + page.objects.reduce((sum, object) => sum + object.size, 0);
    const folders = (starting ? 0 : state.pass_folders) + newFolders;
    const ended = page.last === null;
    try {
      state = await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("storage_walk")
          .set(
            ended
              ? { cursor: null, pass_started_at: null, pass_objects: 0, pass_bytes: 0, pass_folders: 0, pass_last_folder: null, finished_at: now, objects, bytes, folders }
              : {
                  cursor: page.last,
                  pass_started_at: starting ? now : state.pass_started_at,
                  pass_objects: objects,
                  pass_bytes: bytes,
                  pass_folders: folders,
                  pass_last_folder: lastFolder,
                },
          )
          .where("id", "=", 1)
          .where(sql<boolean>`cursor is not distinct from ${cursor}`)
          .returningAll()
          .executeTakeFirst();
        if (!moved) throw new CursorMoved();
        // This page's key range is judged afresh: keys gone from the bucket or no longer trash leave.
        await trx
          .deleteFrom("storage_trash")
          .$if(cursor !== null, (query) => query.where(sql<boolean>`key collate "C" > ${cursor}`))
          .$if(!ended, (query) => query.where(sql<boolean>`key collate "C" <= ${page.last}`))
          .execute();
        if (trash.length)
          await trx
            .insertInto("storage_trash")
            .values(trash.map((object) => ({ key: object.key, folder: folderOf(object.key), size: object.size, modified_at: object.modifiedAt, reason: object.reason })))
            .onConflict((oc) =>
              oc.column("key").doUpdateSet((eb) => ({ size: eb.ref("excluded.size"), modified_at: eb.ref("excluded.modified_at"), reason: eb.ref("excluded.reason") })),
            )
            .execute();
        return moved;
      });
    } catch (error) {
      if (error instanceof CursorMoved) break;
      throw error;
    }
    if (page.objects.length) paceOf.set(storage, (performance.now() - callStarted) / page.objects.length);
    summary.objects += page.objects.length;
    summary.trashFound += trash.length;
    summary.passFinished = ended;
  }
  return summary;
}
