import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { judgeObjects } from "./storage-files.server";
import { folderOf } from "./storage-trash";

/**
 * The background walk of the `orders` bucket (ADR 063): each scheduled run lists at most `calls`
 * pages of `pageSize` keys after the cursor kept in `storage_walk`, judges them against the
 * database and keeps what is trash in `storage_trash`; no call after the first starts once `budgetMs`
 * has passed (ADR 092: a folder storage's page of 1,000 keys in 1,000 folders takes ~300 ms on a busy
 * machine). The storage page never lists the bucket; a pass over 3.6 M objects is 720 runs of five
 * calls where they are fast, up to 3,600 runs of one where they are slow.
 */
export interface WalkLimits {
  calls: number;
  pageSize: number;
  /** No further list call starts once this long has passed since the walk's start; the first always goes (ADR 092). */
  budgetMs?: number;
}
export const WALK_LIMITS: WalkLimits = { calls: 5, pageSize: 1000, budgetMs: 300 };

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
  while (summary.listCalls < limits.calls && !summary.passFinished && (summary.listCalls === 0 || performance.now() < deadline)) {
    const cursor = state.cursor;
    const page = await storage.listAfter("orders", cursor, limits.pageSize);
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
    summary.objects += page.objects.length;
    summary.trashFound += trash.length;
    summary.passFinished = ended;
  }
  return summary;
}
