import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claimEntryForStaff } from "~/modules/ftp/queue.server";
import { claimDueEntries, countRemaining } from "~/modules/orders/production-queue.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { DATABASE_KINDS, databaseOfKind } from "../../support/database";
import { orderWithFiles } from "./fixtures";

/**
 * Which queue entries are due, as the database keeps it on the entry (ADR 092): the files of drafts,
 * unpaid and cancelled orders are never claimed nor counted as remaining, and an order's files become
 * due the moment it is paid, and stop being due when it is cancelled.
 */
describe.each(DATABASE_KINDS)("the due state of the file server queue on %s", (_name, kind) => {
  let t: Awaited<ReturnType<typeof databaseOfKind>>;
  let storage: FileStorage;
  let storageDir: string;
  const limits = { leaseSeconds: 30, maxAttempts: 3 };
  const staff = { kind: "staff", label: "manager@aligner.test" } as const;
  const payment = { kind: "payment", label: "sandbox" } as const;

  beforeAll(async () => {
    t = await databaseOfKind(kind);
    storageDir = await fsp.mkdtemp(path.join(os.tmpdir(), "due-state-"));
    storage = createStorage({ storage: { kind: "folder", dir: storageDir }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
  });
  afterAll(async () => {
    await t?.drop();
    if (storageDir) await fsp.rm(storageDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db.deleteFrom("orders").execute();
  });

  const claimedIds = async (worker: string) => (await claimDueEntries(t.db, worker, 50, limits)).map((entry) => entry.id).sort();
  const idsOf = (fixture: { files: { entry: { id: string } }[] }) => fixture.files.map((file) => file.entry.id).sort();

  it("claims none of a draft's, an unpaid or a cancelled order's files, and an order's files once it is paid", async () => {
    const draft = await orderWithFiles(t.db, storage, { status: "draft", patients: 1, filesPerPatient: 2 });
    const unpaid = await orderWithFiles(t.db, storage, { status: "pending", patients: 1, filesPerPatient: 3 });
    const cancelled = await orderWithFiles(t.db, storage, { status: "cancelled", patients: 1, filesPerPatient: 2 });
    expect(await claimedIds("worker-a")).toEqual([]);
    expect(await countRemaining(t.db, limits.maxAttempts)).toBe(0);
    const stored = await t.db.selectFrom("ftp_uploads_queue").select(["due", "status"]).execute();
    expect(stored).toHaveLength(7);
    expect(stored.every((entry) => !entry.due && entry.status === "pending")).toBe(true);

    await changeOrderStatus(t.db, unpaid.order.id, "paid", payment);
    expect(await countRemaining(t.db, limits.maxAttempts)).toBe(3);
    expect(await claimedIds("worker-a")).toEqual(idsOf(unpaid));
    // Still none of the draft's nor the cancelled order's.
    expect(await claimedIds("worker-b")).toEqual([]);
    expect(draft.files).toHaveLength(2);
    expect(cancelled.files).toHaveLength(2);
  });

  it("does not claim an unpaid order's files once it is cancelled, nor a paid order's once cancelled before they went", async () => {
    const unpaid = await orderWithFiles(t.db, storage, { status: "pending", patients: 1, filesPerPatient: 2 });
    await changeOrderStatus(t.db, unpaid.order.id, "cancelled", staff);
    const paid = await orderWithFiles(t.db, storage, { status: "paid", patients: 1, filesPerPatient: 2 });
    expect(await countRemaining(t.db, limits.maxAttempts)).toBe(2);
    await changeOrderStatus(t.db, paid.order.id, "cancelled", staff, { note: "Клиент передумал" });
    expect(await countRemaining(t.db, limits.maxAttempts)).toBe(0);
    expect(await claimedIds("worker-a")).toEqual([]);

    // Staff's "send now" releases one entry of the cancelled order: that one is due again, the other is not.
    const [first, second] = idsOf(paid);
    const sent = await claimEntryForStaff(t.db, first!, "staff-worker", "manager@aligner.test", limits);
    expect(sent.ok).toBe(true);
    await t.db.updateTable("ftp_uploads_queue").set({ status: "failed", error_message: "boom", locked_until: null, next_attempt_at: new Date(0) }).where("id", "=", first!).execute();
    expect(await claimedIds("worker-b")).toEqual([first]);
    const other = await t.db.selectFrom("ftp_uploads_queue").select(["due", "status"]).where("id", "=", second!).executeTakeFirstOrThrow();
    expect(other).toEqual({ due: false, status: "pending" });
  });

  it("makes an entry written for a paid order due at once, and one written for an unpaid order not", async () => {
    const paid = await orderWithFiles(t.db, storage, { status: "processing", patients: 1, filesPerPatient: 1 });
    const unpaid = await orderWithFiles(t.db, storage, { status: "pending", patients: 1, filesPerPatient: 1 });
    const write = (orderId: string, name: string) =>
      t.db
        .insertInto("ftp_uploads_queue")
        .values({ order_id: orderId, file_path: `order_${orderId}/${name}`, original_name: name, destination_path: `/x/${name}`, order_prefix: "X", file_type: "matrix" })
        .returning("id")
        .executeTakeFirstOrThrow();
    const added = await write(paid.order.id, "extra.stl");
    await write(unpaid.order.id, "extra.stl");
    expect(await countRemaining(t.db, limits.maxAttempts)).toBe(2);
    expect(await claimedIds("worker-a")).toEqual([...idsOf(paid), added.id].sort());
  });
});
