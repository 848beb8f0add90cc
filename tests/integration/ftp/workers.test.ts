import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type QueueWorker, startQueueWorker } from "../../support/queue-worker";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { expectedRemotePath, filesBelow, orderWithFiles, sha256, waitFor, type OrderFixture } from "./fixtures";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";

/**
 * `npm run queue:work` as separate processes against one PostgreSQL queue and a real OpenSSH server
 * that logs every request (DESIGN §4.16): a worker killed mid-transfer, two workers racing, SIGTERM.
 */


describe("queue workers as separate processes", () => {
  let t: TestDatabase;
  let sftp: TestSftpServer;
  let dataDir: string;
  let storage: FileStorage;
  const running = new Set<ChildProcess>();
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    sftp = await startSftpServer({ logRequests: true });
    process.env.SFTP_ROOT = sftp.root; // destinations as the wizard builds them with this root
    t = await createTestDatabase(6);
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "queue-workers-"));
    // The workers' storage is the folder under their DATA_DIR.
    storage = createStorage({ storage: { kind: "folder", dir: path.join(dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
  });
  afterEach(async () => {
    for (const child of running) child.kill("SIGKILL");
    running.clear();
    for (const proxy of proxies.splice(0)) await proxy.stop();
  });
  afterAll(async () => {
    await t?.drop();
    await sftp?.stop();
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await t.db.deleteFrom("orders").execute();
  });

  async function startWorker(env: Record<string, string>, args: string[] = []): Promise<QueueWorker> {
    const worker = await startQueueWorker(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: t.url,
        SFTP_URL: sftp.url,
        SFTP_PRIVATE_KEY_PATH: sftp.privateKeyPath,
        SFTP_ROOT: sftp.root,
        S3_ACCESS_KEY_ID: "",
        S3_SECRET_ACCESS_KEY: "",
        QUEUE_LEASE_SECONDS: "2",
        QUEUE_MAX_ATTEMPTS: "5",
        QUEUE_CONCURRENCY: "3",
        ...env,
      },
      args,
      (child) => running.delete(child),
    );
    running.add(worker.child);
    return worker;
  }

  const folderOf = async (patientId: string | null) =>
    (await t.db.selectFrom("orders_patients").select("folder_name").where("id", "=", patientId!).executeTakeFirstOrThrow()).folder_name;
  const entry = (id: string) => t.db.selectFrom("ftp_uploads_queue").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("a worker killed with SIGKILL mid-transfer leaves no file under its final name; a second worker completes the job once the lease expired", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "pending", sizes: () => 6 * 1024 * 1024 });
    const [file] = files;
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, bytesPerSecond: 512 * 1024 });
    proxies.push(proxy);

    const first = await startWorker({ SFTP_URL: proxy.via(sftp.url) });
    await changeOrderStatus(t.db, order.id, "paid", { kind: "payment", label: "sandbox" });
    await waitFor(async () => proxy.stats().upstreamBytes > 1024 * 1024 && filesBelow(path.dirname(remote)).some((name) => name.endsWith(".part")), 30_000, "the transfer to be under way");
    const claimed = await entry(file!.entry.id);
    expect(claimed).toMatchObject({ status: "uploading", attempts: 1 });
    expect(claimed.locked_by).toContain(`:${first.child.pid}:`);

    first.child.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    const orphaned = await entry(file!.entry.id);
    expect(orphaned.status).toBe("uploading");
    expect(fs.existsSync(remote)).toBe(false);
    expect(filesBelow(path.dirname(remote)).every((name) => name.startsWith(`.${path.basename(remote)}.`) && name.endsWith(".part"))).toBe(true);

    // The second worker (a direct connection) waits for the lease to expire, then sends the file again.
    const second = await startWorker({});
    const done = await waitFor(async () => {
      const row = await entry(file!.entry.id);
      return row.status === "completed" ? row : null;
    }, 30_000, "the second worker to complete the job");
    expect(done.completed_at!.getTime()).toBeGreaterThanOrEqual(orphaned.locked_until!.getTime());
    expect(done.attempts).toBe(2);
    expect(done.locked_by).toContain(`:${second.child.pid}:`);
    expect(sha256(await fsp.readFile(remote))).toBe(file!.sha256);
    // The dead worker's temporary file was cleared away; one rename ever reached the final name.
    expect(filesBelow(path.dirname(remote))).toEqual([path.basename(remote)]);
    expect(sftp.renames().filter(([, to]) => to === remote)).toHaveLength(1);
    expect(sftp.writes().filter((written) => written.startsWith(path.join(path.dirname(remote), `.${path.basename(remote)}.`)))).toHaveLength(2);
    // The worker's log line is written after the row: read once it has arrived (a loaded machine delays the pipe).
    await waitFor(async () => (second.completed().length > 0 ? true : null), 15_000, "the second worker's log of the job");
    expect(second.completed()).toEqual([file!.entry.id]);
    expect(second.output()).toMatch(new RegExp(`ftp transfer job=${file!.entry.id} order=${order.code} attempt=2 size=${6 * 1024 * 1024} bytes=${6 * 1024 * 1024} ms=\\d+`));

    second.child.kill("SIGTERM");
    expect(await second.exited).toMatchObject({ code: 0 });
  });

  it("two workers on the same queue never send a file twice", async () => {
    const orders: OrderFixture[] = [];
    for (let index = 0; index < 4; index++) {
      orders.push(await orderWithFiles(t.db, storage, { status: "pending", patients: 3, filesPerPatient: 5, sizes: (i) => 64 * 1024 + ((i * 104_729) % (448 * 1024)) }));
    }
    const all = orders.flatMap((fixture) => fixture.files.map((file) => ({ ...file, order: fixture.order })));
    expect(all).toHaveLength(60);
    const writesBefore = sftp.writes().length;

    const [one, two] = await Promise.all([startWorker({}), startWorker({})]);
    // Both are polling; the orders become paid at once and both race for the same entries.
    await Promise.all(orders.map(({ order }) => changeOrderStatus(t.db, order.id, "paid", { kind: "payment", label: "sandbox" })));
    await waitFor(
      async () => {
        const rows = await t.db.selectFrom("ftp_uploads_queue").select("status").execute();
        return rows.every((row) => row.status === "completed");
      },
      60_000,
      "every entry to be delivered",
    );

    for (const file of all) {
      const remote = expectedRemotePath(sftp.root, file.order, file.entry, await folderOf(file.entry.patient_id));
      expect(sha256(await fsp.readFile(remote))).toBe(file.sha256);
      expect(sftp.renames().filter(([, to]) => to === remote), remote).toHaveLength(1);
    }
    // Exactly one write per file reached the server.
    expect(sftp.writes().length - writesBefore).toBe(60);
    // Each worker logs a job after recording it: wait for every line before reading them.
    await waitFor(async () => (one.completed().length + two.completed().length >= all.length ? true : null), 15_000, "both workers' logs of every job");
    const byOne = one.completed();
    const byTwo = two.completed();
    expect(byOne.length).toBeGreaterThan(0);
    expect(byTwo.length).toBeGreaterThan(0);
    expect(byOne.filter((id) => byTwo.includes(id))).toEqual([]);
    expect([...byOne, ...byTwo].sort()).toEqual(all.map((file) => file.entry.id).sort());

    one.child.kill("SIGTERM");
    two.child.kill("SIGTERM");
    expect(await one.exited).toMatchObject({ code: 0 });
    expect(await two.exited).toMatchObject({ code: 0 });
  });

  it("on SIGTERM a worker releases the file it cannot finish in time and exits cleanly", async () => {
    const { order, files } = await orderWithFiles(t.db, storage, { status: "paid", sizes: () => 8 * 1024 * 1024 });
    const [file] = files;
    const remote = expectedRemotePath(sftp.root, order, file!.entry, await folderOf(file!.entry.patient_id));
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, bytesPerSecond: 1024 * 1024 });
    proxies.push(proxy);
    const worker = await startWorker({ SFTP_URL: proxy.via(sftp.url) }, ["--grace-ms", "300"]);
    await waitFor(async () => proxy.stats().upstreamBytes > 1024 * 1024, 30_000, "the transfer to be under way");

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toMatchObject({ code: 0 });
    expect(worker.output()).toContain("outcome=released");
    expect(await entry(file!.entry.id)).toMatchObject({ status: "pending", attempts: 0, locked_until: null });
    expect(fs.existsSync(remote)).toBe(false);
  });
});
