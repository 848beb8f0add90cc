import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ABANDONED_DRAFT_DAYS, purgeAbandonedDrafts } from "~/modules/jobs/scheduled.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { storageKey } from "~/modules/uploads/file-names";
import { appendFiles } from "~/modules/orders/files.server";
import { buildOrder, buildOrderIn, buildPatient } from "../../support/builders";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/** The scheduled job's removal of abandoned drafts (DESIGN §4.7): a backlog drains in bounded runs. */

const DAY = 86_400_000;

describe("abandoned drafts", () => {
  let t: TestDatabase;
  let storage: FileStorage;
  let storageDir: string;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "housekeeping-"));
    storage = createStorage({ storage: { kind: "folder", dir: storageDir }, buckets: { orders: "orders", logos: "logos" } });
  });
  afterAll(async () => {
    await t.drop();
    fs.rmSync(storageDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db.deleteFrom("orders").execute();
  });

  /** `count` drafts last touched more than the abandonment period ago, the first one the oldest. */
  async function abandonedDrafts(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(Date.now() - (ABANDONED_DRAFT_DAYS + 10) * DAY - (count - i) * 60_000);
      ids.push((await buildOrder(t.db, { createdAt })).id);
    }
    return ids;
  }

  const draftsLeft = async () => (await t.db.selectFrom("orders").select("id").where("status", "=", "draft").orderBy("updated_at").execute()).map((row) => row.id);

  it("removes one batch a run, oldest first, and leaves the rest for the next run", async () => {
    const backlog = await abandonedDrafts(25);
    const recent = await buildOrder(t.db, { createdAt: new Date(Date.now() - 5 * DAY) });
    const oldPending = await buildOrderIn(t.db, "pending", { createdAt: new Date(Date.now() - 90 * DAY) });
    const limits = { batch: 10, budgetMs: 60_000 };

    expect(await purgeAbandonedDrafts(t.db, storage, limits)).toEqual({ deleted: 10, files: 0 });
    expect(await draftsLeft()).toEqual([...backlog.slice(10), recent.id]);
    expect((await purgeAbandonedDrafts(t.db, storage, limits)).deleted).toBe(10);
    expect((await purgeAbandonedDrafts(t.db, storage, limits)).deleted).toBe(5);
    expect((await purgeAbandonedDrafts(t.db, storage, limits)).deleted).toBe(0);
    expect(await draftsLeft()).toEqual([recent.id]);
    expect(await t.db.selectFrom("orders").select("id").where("id", "=", oldPending.id).executeTakeFirst()).toBeDefined();
  });

  it("removes its first ten and starts nothing more once the run's time budget is spent", async () => {
    const backlog = await abandonedDrafts(25);
    expect(await purgeAbandonedDrafts(t.db, storage, { batch: 25, budgetMs: 0 })).toEqual({ deleted: 10, files: 0 });
    expect(await draftsLeft()).toEqual(backlog.slice(10));
  });

  it("removes a draft with its patients, files, queue entries, history and order code", async () => {
    const [id] = await abandonedDrafts(1);
    const order = await t.db.selectFrom("orders").select(["id", "code"]).where("id", "=", id!).executeTakeFirstOrThrow();
    const patient = await buildPatient(t.db, order.id, "Смирнова Е.");
    const key = storageKey(order.id, patient.folder_name, "matrix", "upper.stl");
    await storage.put("orders", key, Readable.from([Buffer.from("solid upper")]), { contentLength: 11 });
    await appendFiles(t.db, order, patient, "matrix", [{ originalName: "Верхняя челюсть.stl", key, size: 11, triangles: 0 }]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", order.id).execute()).toHaveLength(1);

    expect(await purgeAbandonedDrafts(t.db, storage)).toEqual({ deleted: 1, files: 1 });
    expect(await storage.list("orders", `order_${order.id}/`)).toEqual([]);
    for (const table of ["orders_patients", "ftp_uploads_queue", "order_status_history", "order_codes"] as const) {
      expect(await t.db.selectFrom(table).select("order_id").where("order_id", "=", order.id).execute(), table).toEqual([]);
    }
  });
});
