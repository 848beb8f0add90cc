import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileType, OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { deleteFolder, deleteTrash, listOrderFolders, listStorageFolders } from "~/modules/backoffice/storage-files.server";
import { walkStorage } from "~/modules/backoffice/storage-walk.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { randomUUID } from "node:crypto";
import { buildOrder, buildOrderIn, buildPatient } from "../../support/builders";
import { startS3Server, type TestS3Server } from "../../support/s3-server";
import { follow, gatePassed, rendered, toastOf, type Browser } from "./support";
import { SECRETS, startApp, type TestApp } from "../../support/app";

const buckets = { orders: "orders", logos: "logos" };

const COLUMN = { matrix: "matrix_files_info", aligners: "aligner_files_info", retainer: "retainer_files_info" } as const;

/** Puts files into an order's folder and its patient's file list and, when asked, queue entries in the given state. */
async function storeFiles(db: DB, storage: FileStorage, orderId: string, count: number, queue: "none" | "pending" | "completed" = "none", type: FileType = "aligners") {
  const patient = await buildPatient(db, orderId);
  const keys: string[] = [];
  const list: Array<{ originalName: string; storagePath: string; url: string; type: string; size: number }> = [];
  for (let index = 0; index < count; index++) {
    const key = `order_${orderId}/${patient.folder_name}/${type}/step${index}_1.stl`;
    const size = 84 + 50 * (index + 1);
    await storage.put("orders", key, Readable.from([Buffer.alloc(size)]));
    keys.push(key);
    list.push({ originalName: `step${index}_1.stl`, storagePath: key, url: `/files/${key}`, type: "model/stl", size });
  }
  await db
    .updateTable("orders_patients")
    .set({ [COLUMN[type]]: JSON.stringify(list) })
    .where("id", "=", patient.id)
    .execute();
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
      await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
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
      await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
      const report = await deleteTrash(t.db, flaky);
      expect(report.errors).toEqual(["AccessDenied: not allowed to delete"]);
      expect(report.deletedFiles).toBe(103);
      expect(report.failedFolders).toBeGreaterThanOrEqual(1);
    });
  });
}

describe("the storage page from the database and the background walk (ADR 063)", () => {
  let t: TestDatabase;
  let dir: string;
  let storage: FileStorage;
  let paid: { id: string };
  let stray: string;
  let ghost: string;
  const HOURS_AGO = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  /** Writes an object and dates it `hours` back, as a leftover of long ago would be. */
  const leftover = async (key: string, hours = 2) => {
    await storage.put("orders", key, Readable.from([Buffer.alloc(100)]));
    fs.utimesSync(path.join(dir, "orders", ...key.split("/")), HOURS_AGO(hours), HOURS_AGO(hours));
  };
  const trashRows = () => t.db.selectFrom("storage_trash").select(["key", "reason"]).orderBy(sql`key collate "C"`).execute();

  beforeAll(async () => {
    t = await createTestDatabase(4);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bo-walk-"));
    storage = createStorage({ storage: { kind: "folder", dir }, buckets });
    await storage.ensureBuckets();
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.drop();
  });

  it("lists the folders the orders know; an object no order knows is no folder but trash once the walk passed", async () => {
    paid = await buildOrderIn(t.db, "paid");
    const listed = await storeFiles(t.db, storage, paid.id, 2, "completed");
    stray = `${listed[0]!.slice(0, listed[0]!.lastIndexOf("/"))}/stray.stl`;
    await leftover(stray);
    ghost = `order_${randomUUID()}/x_1/aligners/old.stl`;
    await leftover(ghost);
    // An order without files has no folder.
    await buildPatient(t.db, (await buildOrderIn(t.db, "paid")).id);

    const { folders } = await listOrderFolders(t.db);
    expect(folders.map((folder) => folder.name)).toEqual([`order_${paid.id}`]);
    expect(folders[0]!.files.map((file) => file.key)).toEqual(listed);
    expect(await trashRows()).toEqual([]);

    const summary = await walkStorage(t.db, storage);
    expect(summary).toMatchObject({ listCalls: 1, objects: 4, trashFound: 2, passFinished: true });
    expect(await trashRows()).toEqual(
      [
        { key: ghost, reason: "order_missing" },
        { key: stray, reason: "unlisted" },
      ].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key))),
    );
    const state = await t.db.selectFrom("storage_walk").selectAll().executeTakeFirstOrThrow();
    expect(state).toMatchObject({ cursor: null, folders: 2 });
    expect(Number(state.objects)).toBe(4);
    expect(state.finished_at).toBeInstanceOf(Date);
  });

  it("walks in bounded batches: at most N list calls a run, the cursor kept in the database between runs", async () => {
    for (let index = 0; index < 25; index++) await leftover(`order_${randomUUID()}/x_1/matrix/m${index}.stl`);
    const all = (await storage.list("orders", "")).map((object) => object.key);
    expect(all).toHaveLength(29);
    let listCalls = 0;
    const counting: FileStorage = {
      ...storage,
      listAfter: (...args) => (listCalls++, storage.listAfter(...args)),
      list: () => Promise.reject(new Error("the walk lists page by page")),
    };
    const limits = { calls: 2, pageSize: 5 };
    const runs = [];
    for (let run = 0; run < 3; run++) {
      const before = listCalls;
      runs.push(await walkStorage(t.db, counting, limits));
      expect(listCalls - before).toBeLessThanOrEqual(2);
      const { cursor } = await t.db.selectFrom("storage_walk").select("cursor").executeTakeFirstOrThrow();
      // Pages of 5: after a run of two calls the walk stands at the 10th, then the 20th key; the third run ends the pass.
      expect(cursor).toBe(run < 2 ? all[(run + 1) * 10 - 1] : null);
    }
    expect(runs.map((run) => [run.listCalls, run.objects, run.passFinished])).toEqual([
      [2, 10, false],
      [2, 10, false],
      [2, 9, true],
    ]);
    expect((await trashRows()).length).toBe(27);
    const state = await t.db.selectFrom("storage_walk").selectAll().executeTakeFirstOrThrow();
    expect(state.folders).toBe(27);
  });

  it("delete trash judges every found key again: a key an order has come to know stays", async () => {
    // The paid order's list names the stray file now (say, an upload recorded late).
    const patient = await t.db.selectFrom("orders_patients").select(["id", "aligner_files_info"]).where("order_id", "=", paid.id).executeTakeFirstOrThrow();
    const list = [...(patient.aligner_files_info as unknown as Array<Record<string, unknown>>), { originalName: "stray.stl", storagePath: stray, url: `/files/${stray}`, type: "model/stl", size: 100 }];
    await t.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify(list) }).where("id", "=", patient.id).execute();

    const report = await deleteTrash(t.db, storage);
    expect(report).toEqual({ deletedFiles: 26, deletedFolders: 26, failedFolders: 0, errors: [] });
    expect(await storage.head("orders", stray)).not.toBeNull();
    expect(await storage.head("orders", ghost)).toBeNull();
    expect(await trashRows()).toEqual([]);
    expect(await storage.list("orders", "")).toHaveLength(3);
  });

  it("pages order folders by keyset, newest first, 100 a page, without gaps or repeats", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 150; index++) {
      const order = await buildOrder(t.db);
      const patient = await buildPatient(t.db, order.id);
      const key = `order_${order.id}/${patient.folder_name}/matrix/m.stl`;
      await t.db
        .updateTable("orders_patients")
        .set({ matrix_files_info: JSON.stringify([{ originalName: "m.stl", storagePath: key, url: `/files/${key}`, type: "model/stl", size: 10 }]) })
        .where("id", "=", patient.id)
        .execute();
      ids.push(order.id);
    }
    // Ten orders share one moment: the id breaks the tie.
    await sql`update orders set created_at = '2026-01-01T00:00:00Z' where id = any(${ids.slice(0, 10)}::uuid[])`.execute(t.db);
    // A folder already deleted is no folder.
    await t.db.updateTable("orders").set({ storage_removed_at: new Date() }).where("id", "=", ids[20]!).execute();
    const expected = (
      await t.db
        .selectFrom("orders")
        .select("id")
        .where("storage_removed_at", "is", null)
        .where(sql<boolean>`exists (select 1 from orders_patients p where p.order_id = orders.id and (p.matrix_files_info <> '[]'::jsonb or p.aligner_files_info <> '[]'::jsonb))`)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute()
    ).map((row) => `order_${row.id}`);
    expect(expected).toHaveLength(150); // 149 new, and the paid order of the first test
    const seen: string[] = [];
    let after: string | null = null;
    const sizes: number[] = [];
    do {
      const page: Awaited<ReturnType<typeof listOrderFolders>> = await listOrderFolders(t.db, { after });
      sizes.push(page.folders.length);
      seen.push(...page.folders.map((folder) => folder.name));
      after = page.next;
    } while (after);
    expect(sizes).toEqual([100, 50]);
    expect(seen).toEqual(expected);
    expect(seen).not.toContain(`order_${ids[20]}`);
  });
});

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

  it("shows the folders the orders know and, apart, the trash the walk found, with when its last pass ended", async () => {
    const ghost = `order_${randomUUID()}`;
    const key = `${ghost}/x_1/aligners/old.stl`;
    await storage.put("orders", key, Readable.from([Buffer.alloc(2048)]));
    const before = rendered(await (await staff.request("/backoffice/files")).text());
    expect(before).not.toContain(ghost);
    expect(before).toContain("Полная проверка хранилища ещё не завершена");

    await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
    const all = rendered(await (await staff.request("/backoffice/files")).text());
    expect(all).not.toContain(ghost);
    expect(all).toContain("Последняя полная проверка хранилища");
    const trash = rendered(await (await staff.request("/backoffice/files?show=trash")).text());
    expect(trash).toContain(ghost);
    expect(trash).toContain("Заказа больше нет — можно удалить");
    expect(trash).toMatch(/2,00\sКБ/);
    expect(trash).toContain(`name="folder" value="${ghost}"`);
    // A forged cursor is a first page, never an error.
    expect((await staff.request("/backoffice/files?after=%27%3B--")).status).toBe(200);
    expect((await staff.request("/backoffice/files?show=trash&after=..%2F..")).status).toBe(200);
    // Gone from the bucket: the next pass forgets it.
    await storage.delete("orders", [key]);
    await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
    expect(rendered(await (await staff.request("/backoffice/files?show=trash")).text())).not.toContain(ghost);
  });

  it("walks the bucket as a step of the scheduled job (POST /api/cron)", async () => {
    const ghost = `order_${randomUUID()}`;
    await storage.put("orders", `${ghost}/x_1/aligners/old.stl`, Readable.from([Buffer.alloc(10)]));
    const ran = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: `Bearer ${SECRETS.CRON_SECRET}` } });
    expect(ran.status).toBe(200);
    const summary = (await ran.json()) as { storageObjectsWalked: number; storageTrashFound: number };
    expect(summary.storageObjectsWalked).toBeGreaterThan(0);
    expect(summary.storageTrashFound).toBe(1);
    expect(await t.db.selectFrom("storage_trash").select("reason").where("folder", "=", ghost).execute()).toEqual([{ reason: "order_missing" }]);
    await storage.delete("orders", [`${ghost}/x_1/aligners/old.stl`]);
    await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
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

    // The trash is what the background walk found (ADR 063).
    await walkStorage(t.db, storage, { calls: 100, pageSize: 1000 });
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
