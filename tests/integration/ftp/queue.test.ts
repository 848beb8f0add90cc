import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFileServer, type ProductionFileServer } from "~/modules/ftp/file-server.server";
import { INTERRUPTED_MESSAGE } from "~/modules/ftp/queue.server";
import { claimDueEntries } from "~/modules/orders/production-queue.server";
import { processQueue, sendEntryNow, type QueueDeps, type QueueSettings } from "~/modules/ftp/transfer.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { startTcpProxy } from "../../support/tcp-proxy";
import { expectedRemotePath, filesBelow, orderWithFiles, sha256, sleep, waitFor } from "./fixtures";

/** The queue engine against a real PostgreSQL and a real OpenSSH SFTP server (DESIGN §4.15–4.16). */
describe("the file server queue over real SFTP", () => {
  let t: TestDatabase;
  let sftp: TestSftpServer;
  let storage: FileStorage;
  let fileServer: ProductionFileServer;
  let storageDir: string;
  let lines: string[];
  let deps: QueueDeps;
  const settings: QueueSettings = { leaseSeconds: 30, maxAttempts: 3, concurrency: 3, retryBaseMs: 300 };

  beforeAll(async () => {
    sftp = await startSftpServer();
    // The wizard builds destinations from the configured root, as production does with /AlignersFactory.
    process.env.SFTP_ROOT = sftp.root;
    t = await createTestDatabase(8);
    storageDir = await fsp.mkdtemp(path.join(os.tmpdir(), "queue-storage-"));
    storage = createStorage({ storage: { kind: "folder", dir: storageDir }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
    fileServer = createFileServer({ fileServer: sftp.fileServer });
  });
  afterAll(async () => {
    await t?.drop();
    await sftp?.stop();
    if (storageDir) await fsp.rm(storageDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Each test starts with an empty queue and an empty server.
    await t.db.deleteFrom("orders").execute();
    for (const name of await fsp.readdir(sftp.root)) await fsp.rm(path.join(sftp.root, name), { recursive: true, force: true });
    lines = [];
    deps = { db: t.db, storage, fileServer, log: (line) => lines.push(line) };
  });

  const folderOf = async (patientId: string | null) =>
    (await t.db.selectFrom("orders_patients").select("folder_name").where("id", "=", patientId!).executeTakeFirstOrThrow()).folder_name;
  const entry = (id: string) => t.db.selectFrom("ftp_uploads_queue").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("delivers 50 files of paid orders byte-identical into their folders, and leaves a draft's and a pending order's files queued", async () => {
    const paidStatuses = ["paid", "processing", "shipped", "completed", "paid"] as const;
    const paid = [];
    for (const status of paidStatuses) {
      paid.push(await orderWithFiles(t.db, storage, { status, patients: 2, filesPerPatient: 5, sizes: (i) => 1000 + ((i * 7919) % 300_000) }));
    }
    const draft = await orderWithFiles(t.db, storage, { status: "draft", patients: 1, filesPerPatient: 3 });
    const pending = await orderWithFiles(t.db, storage, { status: "pending", patients: 1, filesPerPatient: 2 });

    const summary = await processQueue(deps, settings);
    expect(summary).toMatchObject({ claimed: 50, completed: 50, failed: 0, released: 0, remaining: 0 });

    for (const { order, files } of paid) {
      for (const file of files) {
        const remote = expectedRemotePath(sftp.root, order, file.entry, await folderOf(file.entry.patient_id));
        expect(remote.startsWith(path.join(sftp.root, order.code, `${order.code}_`))).toBe(true);
        expect(sha256(await fsp.readFile(remote)), remote).toBe(file.sha256);
        const row = await entry(file.entry.id);
        expect(row).toMatchObject({ status: "completed", attempts: 1, error_message: null, locked_until: null });
        expect(row.completed_at).toBeInstanceOf(Date);
      }
    }
    // Exactly the 50 files arrived: no temporary file, nothing of the unpaid orders.
    const arrived = filesBelow(sftp.root);
    expect(arrived).toHaveLength(50);
    expect(arrived.filter((name) => name.endsWith(".part"))).toEqual([]);
    expect(fs.existsSync(path.join(sftp.root, draft.order.code))).toBe(false);
    expect(fs.existsSync(path.join(sftp.root, pending.order.code))).toBe(false);
    for (const file of [...draft.files, ...pending.files]) expect(await entry(file.entry.id)).toMatchObject({ status: "pending", attempts: 0 });

    // Each transfer is logged with its job id, size, duration and outcome.
    const logged = lines.filter((line) => line.startsWith("ftp transfer "));
    expect(logged).toHaveLength(50);
    for (const line of logged) expect(line).toMatch(/^ftp transfer job=[0-9a-f-]{36} order=\w{4} attempt=1 size=\d+ bytes=\d+ ms=\d+ .*outcome=completed/);

    // Nothing is due any more: a second run claims nothing and never connects.
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0, completed: 0, remaining: 0 });
  });

  it("makes an order's files due as soon as the order is paid", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "pending", filesPerPatient: 2 });
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0, remaining: 0 });
    await changeOrderStatus(t.db, order.id, "paid", { kind: "payment", label: "sandbox" });
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 2, completed: 2, remaining: 0 });
    for (const file of files) expect((await entry(file.entry.id)).status).toBe("completed");
  });

  it("fails a file missing from storage with the spec's message, counts the attempt and retries with backoff up to the limit", async () => {
    const { files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    const [file] = files;
    await storage.delete("orders", [file!.entry.file_path]);

    const first = await processQueue(deps, settings);
    expect(first).toMatchObject({ claimed: 1, completed: 0, failed: 1, remaining: 1 });
    let row = await entry(file!.entry.id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, error_message: "Ошибка загрузки файла из storage: NoSuchKey", locked_until: null });
    expect(row.last_attempt_at).toBeInstanceOf(Date);
    // Backoff 300 ms with equal jitter: 150–300 ms after the attempt failed.
    expect(row.next_attempt_at.getTime() - row.last_attempt_at!.getTime()).toBeGreaterThanOrEqual(150);
    expect(lines.some((line) => line.includes(`job=${file!.entry.id}`) && line.includes("outcome=failed"))).toBe(true);

    // Backing off: not due yet.
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0 });
    // Second attempt within 300 ms, third within 600 ms more; then the limit (3) is reached.
    await sleep(350);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 1, failed: 1 });
    row = await entry(file!.entry.id);
    expect(row.attempts).toBe(2);
    expect(row.next_attempt_at.getTime() - row.last_attempt_at!.getTime()).toBeGreaterThanOrEqual(300);
    await sleep(650);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 1, failed: 1, remaining: 0 });
    await sleep(1300);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0, remaining: 0 });
    expect(await entry(file!.entry.id)).toMatchObject({ status: "failed", attempts: 3 });

    // Staff may still send it by hand once the file is back.
    await storage.put("orders", file!.entry.file_path, (await import("node:stream")).Readable.from([file!.content]));
    expect(await sendEntryNow(deps, settings, file!.entry.id, "manager@aligner.test")).toEqual({ ok: true, bytes: file!.content.length });
    expect(await entry(file!.entry.id)).toMatchObject({ status: "completed", attempts: 4, released_by: "manager@aligner.test" });
  });

  it("sends a draft's file by hand (paid or not) and refuses a completed or busy one", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "draft", filesPerPatient: 2 });
    const [a, b] = files;
    expect(await sendEntryNow(deps, settings, a!.entry.id, "back-office password (127.0.0.1)")).toMatchObject({ ok: true });
    const row = await entry(a!.entry.id);
    expect(row).toMatchObject({ status: "completed", released_by: "back-office password (127.0.0.1)" });
    expect(row.released_at).toBeInstanceOf(Date);
    const remote = expectedRemotePath(sftp.root, order, a!.entry, await folderOf(a!.entry.patient_id));
    expect(sha256(await fsp.readFile(remote))).toBe(a!.sha256);
    expect(await sendEntryNow(deps, settings, a!.entry.id, "x")).toEqual({ ok: false, reason: "completed" });
    expect(await sendEntryNow(deps, settings, "00000000-0000-4000-8000-000000000000", "x")).toEqual({ ok: false, reason: "not_found" });

    // Another worker holds b: "busy" until its lease expires.
    await claimDueEntries(t.db, "other-worker", 10, settings); // the draft's entries are not due: nothing claimed
    await t.db.updateTable("ftp_uploads_queue").set({ status: "uploading", locked_by: "other", locked_until: sql<Date>`now() + interval '1 minute'` }).where("id", "=", b!.entry.id).execute();
    expect(await sendEntryNow(deps, settings, b!.entry.id, "x")).toEqual({ ok: false, reason: "busy" });
    // The other entries of the draft stay untouched by the workers.
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0 });
  });

  it("records the error of an unreachable server and backs off", async () => {
    const { files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 2 });
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, cutAfterBytes: { upstream: 0 } });
    try {
      const unreachable = createFileServer({ fileServer: { ...sftp.fileServer, url: proxy.via(sftp.url) } });
      const summary = await processQueue({ ...deps, fileServer: unreachable }, settings);
      expect(summary).toMatchObject({ claimed: 2, completed: 0, failed: 2, remaining: 2 });
      for (const file of files) {
        const row = await entry(file.entry.id);
        expect(row.status).toBe("failed");
        expect(row.error_message).toMatch(/^SFTP: /);
        expect(row.attempts).toBe(1);
      }
    } finally {
      await proxy.stop();
    }
    await sleep(350);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 2, completed: 2, remaining: 0 });
  });

  it("claims an entry again once the lease of its dead worker expired, and not before", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    const [file] = files;
    const [claimed] = await claimDueEntries(t.db, "worker-that-dies", 5, { leaseSeconds: 1, maxAttempts: 3 });
    expect(claimed).toMatchObject({ id: file!.entry.id, status: "uploading", attempts: 1, locked_by: "worker-that-dies", previous_status: "pending" });
    // A temporary file the dead worker left behind.
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    await fsp.mkdir(path.dirname(remote), { recursive: true });
    const leftover = path.join(path.dirname(remote), `.${path.basename(remote)}.dead01.part`);
    await fsp.writeFile(leftover, file!.content.subarray(0, 100));

    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0, remaining: 1 });
    await sleep(1100);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 1, completed: 1, remaining: 0 });
    expect(await entry(file!.entry.id)).toMatchObject({ status: "completed", attempts: 2 });
    expect(sha256(await fsp.readFile(remote))).toBe(file!.sha256);
    expect(fs.existsSync(leftover)).toBe(false);
  });

  it("does not send again a file its dead worker had already renamed into place", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    const [file] = files;
    await claimDueEntries(t.db, "worker-died-after-rename", 5, { leaseSeconds: 1, maxAttempts: 3 });
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    await fsp.mkdir(path.dirname(remote), { recursive: true });
    await fsp.writeFile(remote, file!.content);
    const before = (await fsp.stat(remote)).mtimeMs;
    await sleep(1100);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 1, completed: 1 });
    expect((await fsp.stat(remote)).mtimeMs).toBe(before);
    expect(await entry(file!.entry.id)).toMatchObject({ status: "completed" });
  });

  it("fails an entry whose worker died on its last attempt instead of leaving it uploading", async () => {
    const { files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    await t.db
      .updateTable("ftp_uploads_queue")
      .set({ status: "uploading", attempts: 3, locked_by: "dead", locked_until: sql<Date>`now() - interval '1 second'` })
      .where("id", "=", files[0]!.entry.id)
      .execute();
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0, remaining: 0 });
    expect(await entry(files[0]!.entry.id)).toMatchObject({ status: "failed", error_message: INTERRUPTED_MESSAGE, attempts: 3 });
  });

  it("stops a transfer whose lease went to another worker and leaves the entry to it", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1, sizes: () => 8 * 1024 * 1024 });
    const [file] = files;
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, bytesPerSecond: 1024 * 1024 });
    try {
      const slow = createFileServer({ fileServer: { ...sftp.fileServer, url: proxy.via(sftp.url) } });
      const run = processQueue({ ...deps, fileServer: slow }, { ...settings, leaseSeconds: 1 });
      await waitFor(async () => proxy.stats().upstreamBytes > 1024 * 1024, 20_000, "the transfer to start");
      // As if the lease had run out while the database was unreachable and another worker took over.
      await t.db.updateTable("ftp_uploads_queue").set({ locked_by: "usurper", locked_until: sql<Date>`now() + interval '1 minute'` }).where("id", "=", file!.entry.id).execute();
      expect(await run).toMatchObject({ claimed: 1, completed: 0, failed: 0, released: 0 });
    } finally {
      await proxy.stop();
    }
    expect(lines.some((line) => line.includes(`job=${file!.entry.id}`) && line.includes("outcome=lease_lost"))).toBe(true);
    expect(await entry(file!.entry.id)).toMatchObject({ status: "uploading", locked_by: "usurper", attempts: 1 });
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    expect(fs.existsSync(remote)).toBe(false);
  });

  it("releases the files in flight when stopped: no final file, the attempt not counted, due again at once", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 2, sizes: () => 8 * 1024 * 1024 });
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, bytesPerSecond: 1024 * 1024 });
    try {
      const slow = createFileServer({ fileServer: { ...sftp.fileServer, url: proxy.via(sftp.url) } });
      const stop = new AbortController();
      const run = processQueue({ ...deps, fileServer: slow }, settings, { signal: stop.signal, graceMs: 0 });
      await waitFor(async () => proxy.stats().upstreamBytes > 1024 * 1024, 20_000, "the transfers to start");
      stop.abort();
      expect(await run).toMatchObject({ claimed: 2, completed: 0, released: 2, remaining: 2 });
    } finally {
      await proxy.stop();
    }
    for (const file of files) {
      expect(await entry(file.entry.id)).toMatchObject({ status: "pending", attempts: 0, locked_until: null });
      const remote = expectedRemotePath(sftp.root, order, file.entry, await folderOf(file.entry.patient_id));
      expect(fs.existsSync(remote)).toBe(false);
    }
    expect(lines.filter((line) => line.includes("outcome=released"))).toHaveLength(2);
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 2, completed: 2 });
  });
});
