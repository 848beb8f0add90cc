import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileType, OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { deleteFolder, deleteTrash, listStorageFolders } from "~/modules/backoffice/storage-files.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { startS3Server, type TestS3Server } from "../../support/s3-server";
import { follow, gatePassed, rendered, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

const buckets = { orders: "orders", logos: "logos" };

/** Puts files into an order's folder and, when asked, queue entries in the given state. */
async function storeFiles(db: DB, storage: FileStorage, orderId: string, count: number, queue: "none" | "pending" | "completed" = "none", type: FileType = "aligners") {
  const patient = await buildPatient(db, orderId);
  const keys: string[] = [];
  for (let index = 0; index < count; index++) {
    const key = `order_${orderId}/${patient.folder_name}/${type}/step${index}_1.stl`;
    await storage.put("orders", key, Readable.from([Buffer.alloc(84 + 50 * (index + 1))]));
    keys.push(key);
  }
  if (queue !== "none") {
    await db
      .insertInto("ftp_uploads_queue")
      .values(
        keys.map((key) => ({
          order_id: orderId,
          patient_id: patient.id,
          file_path: key,
          original_name: path.basename(key),
          destination_path: `/AlignersFactory/${orderId.slice(0, 4)}/${patient.folder_name}/${type}`,
          order_prefix: orderId.slice(0, 4),
          file_type: type,
          status: queue,
          ...(queue === "completed" ? { completed_at: new Date() } : {}),
        })),
      )
      .execute();
  }
  return keys;
}

const remaining = async (storage: FileStorage, orderId: string) => (await storage.list("orders", `order_${orderId}/`)).length;

function trashContract(name: string, start: () => Promise<{ storage: FileStorage; stop(): Promise<void> }>) {
  describe(`storage trash on ${name}`, () => {
    let t: TestDatabase;
    let subject: { storage: FileStorage; stop(): Promise<void> };
    let storage: FileStorage;
    const orders = {} as Record<string, string>;

    beforeAll(async () => {
      t = await createTestDatabase(4);
      subject = await start();
      storage = subject.storage;
      await storage.ensureBuckets();
      const make = async (label: string, status: OrderStatus, files: number, queue: "none" | "pending" | "completed") => {
        const order = await buildOrderIn(t.db, status);
        orders[label] = order.id;
        await storeFiles(t.db, storage, order.id, files, queue);
      };
      await make("paid", "paid", 2, "completed");
      await make("processing", "processing", 1, "pending");
      await make("pending", "pending", 1, "pending");
      await make("recentDraft", "draft", 1, "pending");
      await make("oldDraft", "draft", 2, "pending");
      await t.db.updateTable("orders").set({ updated_at: sql`now() - interval '31 days'` }).where("id", "=", orders.oldDraft!).execute();
      await make("shippedDelivered", "shipped", 2, "completed");
      await make("completedUndelivered", "completed", 2, "pending");
      await make("cancelled", "cancelled", 2, "none");
      // A deleted order: 230 files, so deletion takes three batches of at most 100.
      const gone = await buildOrderIn(t.db, "draft");
      orders.gone = gone.id;
      await storeFiles(t.db, storage, gone.id, 230, "pending");
      await t.db.deleteFrom("orders").where("id", "=", gone.id).execute();
      await storage.put("orders", "not-an-order/readme.txt", Readable.from([Buffer.from("keep")]));
    });
    afterAll(async () => {
      await subject?.stop();
      await t?.drop();
    });

    it("classifies every order folder by DESIGN §4.18", async () => {
      const folders = await listStorageFolders(t.db, storage);
      const verdict = (label: string) => folders.find((folder) => folder.orderId === orders[label])?.verdict;
      expect(verdict("paid")).toBe("in_progress");
      expect(verdict("processing")).toBe("in_progress");
      expect(verdict("pending")).toBe("in_progress");
      expect(verdict("recentDraft")).toBe("recent_draft");
      expect(verdict("shippedDelivered")).toBe("delivered");
      expect(verdict("completedUndelivered")).toBe("not_delivered");
      expect(verdict("cancelled")).toBe("cancelled");
      expect(verdict("gone")).toBe("order_missing");
      // The abandoned draft's files still wait for the file server: never garbage.
      expect(verdict("oldDraft")).toBe("queued_files");
      expect(folders.find((folder) => folder.name === "not-an-order")?.verdict).toBe("not_an_order_folder");
      expect(folders.find((folder) => folder.orderId === orders.gone)?.files).toHaveLength(230);
    });

    it("refuses to delete a paid order's folder and deletes a garbage folder", async () => {
      const refused = await deleteFolder(t.db, storage, `order_${orders.paid}`);
      expect(refused).toMatchObject({ ok: false, reason: "not_allowed" });
      expect(await remaining(storage, orders.paid!)).toBe(2);
      const deleted = await deleteFolder(t.db, storage, `order_${orders.cancelled}`);
      expect(deleted).toMatchObject({ ok: true, report: { deletedFiles: 2, deletedFolders: 1, errors: [] } });
      expect(await remaining(storage, orders.cancelled!)).toBe(0);
    });

    it("deletes the trash in batches of 100 and keeps everything else", async () => {
      const calls: number[] = [];
      const counting: FileStorage = { ...storage, delete: async (bucket, keys) => (calls.push(keys.length), storage.delete(bucket, keys)) };
      const report = await deleteTrash(t.db, counting);
      expect(report).toEqual({ deletedFiles: 232, deletedFolders: 2, failedFolders: 0, errors: [] });
      expect(calls).toEqual([100, 100, 32]);
      expect(await remaining(storage, orders.gone!)).toBe(0);
      expect(await remaining(storage, orders.shippedDelivered!)).toBe(0);
      for (const label of ["paid", "processing", "pending", "recentDraft", "oldDraft", "completedUndelivered"]) {
        expect(await remaining(storage, orders[label]!), label).toBeGreaterThan(0);
      }
      expect(await storage.head("orders", "not-an-order/readme.txt")).not.toBeNull();
    });

    it("gathers the errors of failing batches and goes on with the others", async () => {
      const order = await buildOrderIn(t.db, "cancelled");
      await storeFiles(t.db, storage, order.id, 3);
      let call = 0;
      const flaky: FileStorage = {
        ...storage,
        delete: async (bucket, keys) => {
          if (call++ === 0) throw new Error("AccessDenied: not allowed to delete");
          return storage.delete(bucket, keys);
        },
      };
      const other = await buildOrderIn(t.db, "cancelled");
      await storeFiles(t.db, storage, other.id, 200);
      const report = await deleteTrash(t.db, flaky);
      expect(report.errors).toEqual(["AccessDenied: not allowed to delete"]);
      expect(report.deletedFiles).toBe(103);
      expect(report.failedFolders).toBeGreaterThanOrEqual(1);
    });
  });
}

trashContract("the folder storage", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bo-files-"));
  return { storage: createStorage({ storage: { kind: "folder", dir }, buckets }), stop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});

trashContract("S3 (s3rver)", async () => {
  const server: TestS3Server = await startS3Server();
  return { storage: createStorage({ storage: server.storage, buckets }), stop: () => server.stop() };
});

describe("the storage files screen over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let staff: Browser;
  let storage: FileStorage;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    staff = await gatePassed(app);
    storage = createStorage({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("lists folders with size, type, 6-character order number, status, customer and the warning icon", async () => {
    const pending = await buildOrderIn(t.db, "pending", { fullName: "Соколова Ирина" });
    await storeFiles(t.db, storage, pending.id, 2, "pending");
    const html = rendered(await (await staff.request("/backoffice/files")).text());
    expect(html).toContain(`order_${pending.id}`);
    expect(html).toContain(`<code>${pending.id.slice(0, 6).toUpperCase()}</code>`);
    // 134 + 184 bytes.
    expect(html).toContain("318 Байт");
    expect(html).toContain("Папка, файлов: 2");
    expect(html).toContain("Соколова Ирина");
    expect(html).toContain('aria-label="Внимание: заказ ожидает оплаты или завершён"');
    expect(html).toContain("Заказ в работе — файлы нужны");
  });

  it("never deletes a paid order's files, explains why, and deletes the trash after the redirect", async () => {
    const paid = await buildOrderIn(t.db, "paid");
    await storeFiles(t.db, storage, paid.id, 2, "completed");
    const cancelled = await buildOrderIn(t.db, "cancelled");
    await storeFiles(t.db, storage, cancelled.id, 2);

    const refused = await staff.request("/backoffice/files", { form: { intent: "delete_folder", folder: `order_${paid.id}` } });
    expect(refused.status).toBe(302);
    expect(toastOf(await follow(staff, refused))).toEqual(["Папку нельзя удалить", "Заказ в работе — файлы нужны"]);
    expect(await remaining(storage, paid.id)).toBe(2);

    const trash = await staff.request("/backoffice/files", { form: { intent: "delete_trash" } });
    expect(toastOf(await follow(staff, trash))).toEqual(["Удалено", "Удалено файлов: 2, папок целиком: 1"]);
    expect(await remaining(storage, cancelled.id)).toBe(0);
    expect(await remaining(storage, paid.id)).toBe(2);

    const other = await buildOrderIn(t.db, "cancelled");
    await storeFiles(t.db, storage, other.id, 1);
    const folder = await staff.request("/backoffice/files", { form: { intent: "delete_folder", folder: `order_${other.id}` } });
    expect(toastOf(await follow(staff, folder))).toEqual(["Папка успешно удалена", "Папка и все файлы в ней были удалены"]);
  });
});
