import fsp from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQueueWorker } from "~/modules/ftp/queue-worker.server";
import type { QueueSettings } from "~/modules/ftp/transfer.server";
import { createFileServer } from "~/modules/ftp/file-server.server";
import { createStorage } from "~/modules/storage/storage.server";
import { createTestDatabase, databaseUrl, type TestDatabase } from "../../support/database";
import { checkIntegrity, Clinic, newOrderRecord, newPatient, type RequestRecord, runLoad, uploadForm } from "../../support/load";
import { binaryStl } from "../../support/stl-models";
import { startS3Server, type TestS3Server, s3AppEnv } from "../../support/s3-server";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { startYooKassaDouble, type YooKassaDouble, yooKassaAppEnv } from "../../support/yookassa-double";
import { filesBelow, orderWithFiles, sha256, sleep, waitFor } from "../ftp/fixtures";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { startApp, type TestApp } from "../../support/app";

/**
 * Faults under load (issue "Proof under pressure", item 6), CI size: the database, the S3 server,
 * the SFTP server and a payment provider fail while clinics work; the app answers every request
 * with a page (never a hang), records nothing half-way, and recovers by itself.
 */

describe("faults under load", () => {
  let t: TestDatabase;
  let s3: TestS3Server;
  let pgProxy: TcpProxy;
  let s3Proxy: TcpProxy;
  let app: TestApp;

  /**
   * Starts a 24 MiB model upload through a 4 MiB/s link to S3 and waits until 3 MiB have reached S3;
   * the request still running is returned wrapped, so awaiting this does not wait for it.
   */
  async function uploadUntilS3HasBytes(clinic: Clinic) {
    s3Proxy.setLimits({ bytesPerSecond: 4 * 1024 * 1024 });
    const before = s3Proxy.stats().upstreamBytes;
    const form = new FormData();
    form.append("intent", "next");
    const triangles = Math.floor((24 * 1024 * 1024) / 50);
    uploadForm(form, "matrix", [{ content: binaryStl(triangles), triangles }]);
    const sending = clinic.send("upload_matrix", "/order", { body: form });
    // A condition's wait; its limit is the backstop for a machine so busy that the upload crawls.
    await waitFor(async () => s3Proxy.stats().upstreamBytes - before > 3 * 1024 * 1024, 90_000, "the upload to reach S3");
    return { sending };
  }

  beforeAll(async () => {
    [t, s3] = await Promise.all([createTestDatabase(4), startS3Server()]);
    const pgUrl = new URL(databaseUrl(t.name));
    [pgProxy, s3Proxy] = await Promise.all([
      startTcpProxy({ target: { host: pgUrl.hostname, port: Number(pgUrl.port || 5432) } }),
      startTcpProxy({ target: { host: "127.0.0.1", port: s3.port } }),
    ]);
    app = await startApp({
      database: t,
      env: {
        DATABASE_URL: pgProxy.via(t.url),
        ...s3AppEnv(s3, `http://127.0.0.1:${s3Proxy.port}`),
        // A lost network to S3 fails an upload after 2 s without a byte moving (15 s by default).
        S3_TIMEOUT_MS: "2000",
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await pgProxy?.stop();
    await s3Proxy?.stop();
    await s3?.stop();
    await t?.drop();
  });

  const pageText = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ");

  it("(a) PostgreSQL away during load: every request answered with a page, no half-written order, recovery without a restart", { timeout: 90_000 }, async () => {
    const load = runLoad({ appUrl: app.url, clinics: 4, durationMs: 14_000, requestTimeoutMs: 30_000 });
    await sleep(3_000);
    // A lost network: open connections reset, new ones never answered.
    pgProxy.setDown("blackhole");
    pgProxy.cutAll();
    const outageFrom = performance.now();
    // A doctor starting an order during the outage gets the error page quickly, not a hang.
    const probe = new Clinic(900, { appUrl: app.url, clinics: 1, durationMs: 0, requestTimeoutMs: 30_000 }, []);
    const during = await probe.send("probe", "/order", { body: new URLSearchParams({ intent: "next" }) });
    const probeMs = performance.now() - outageFrom;
    await sleep(Math.max(0, 4_000 - probeMs));
    pgProxy.setDown(false);
    const outageTo = performance.now();
    const run = await load;

    expect(probeMs).toBeLessThan(15_000);
    expect(during.status).toBe(503);
    expect(pageText(during.text)).toContain("Сервис временно недоступен");

    // Every request got an answer; every failure is the app's 503 page, for a request made during the outage.
    expect(run.requests.filter((request) => request.status === 0)).toEqual([]);
    const failed = run.requests.filter((request) => request.status >= 500);
    expect(failed.length).toBeGreaterThan(0);
    for (const request of failed) {
      expect(request).toMatchObject({ status: 503, html: true });
      expect(request.at + request.ms).toBeGreaterThan(outageFrom); // in flight when it began
      expect(request.at).toBeLessThan(outageTo + 1_000);
    }
    // Recovery without a restart: a whole order goes through afterwards.
    const fresh = new Clinic(901, { appUrl: app.url, clinics: 1, durationMs: 0 }, []);
    const record = newOrderRecord(901, 0);
    await fresh.order(record);
    expect(record.paid).toBe(true);
    run.orders.push(record);

    // Files that reached S3 while their recording met the outage are settled once the database
    // answers again, every 2 s (uploads/unrecorded.server.ts): kept when recorded, deleted when not.
    const orphans = async () => (await checkIntegrity(run, { db: t.db, s3 }, { allowStopped: true })).filter((problem) => problem.includes("belongs to no recorded file"));
    await expect.poll(orphans, { timeout: 30_000, interval: 1_000 }).toEqual([]);
    // Nothing half-written: what is stored is a consistent prefix of what was submitted.
    expect(await checkIntegrity(run, { db: t.db, s3 }, { allowStopped: true })).toEqual([]);
  });

  it("(a) PostgreSQL stopped (connections refused): the 503 page at once, and the next request works once it is back", { timeout: 30_000 }, async () => {
    const clinic = new Clinic(902, { appUrl: app.url, clinics: 1, durationMs: 0, requestTimeoutMs: 20_000 }, []);
    pgProxy.setDown("refuse");
    pgProxy.cutAll();
    const started = performance.now();
    const during = await clinic.send("probe", "/order", { body: new URLSearchParams({ intent: "next" }) });
    const ms = performance.now() - started;
    pgProxy.setDown(false);
    expect(during.status).toBe(503);
    expect(pageText(during.text)).toContain("Сервис временно недоступен");
    // The id a clinic quotes to support, the same as in the request's log line.
    expect(pageText(during.text)).toMatch(/Номер запроса для службы поддержки: [0-9a-f-]{36}/);
    expect(ms).toBeLessThan(5_000);
    expect(clinic.currentOrderId()).toBeNull();
    const record = newOrderRecord(902, 0);
    await clinic.startOrder(record);
    expect(record.orderId).toBeTruthy();
  });

  it("(b) the S3 server stopped mid-upload: a clear error, no file row, no queue entry, no object; uploads work again after", { timeout: 180_000 }, async () => {
    const requests: RequestRecord[] = [];
    const clinic = new Clinic(950, { appUrl: app.url, clinics: 1, durationMs: 0 }, requests);
    const record = newOrderRecord(950, 0);
    await clinic.startOrder(record);
    const patient = newPatient("950-1");
    await clinic.addPatient(record, patient);

    // A 24 MiB model through a slow link to S3, which stops once 3 MiB arrived.
    const { sending } = await uploadUntilS3HasBytes(clinic);
    s3Proxy.setDown("refuse");
    s3Proxy.cutAll();
    const startedCut = performance.now();
    const answer = await sending;
    const answeredMs = performance.now() - startedCut;
    s3Proxy.setLimits({});

    // A clear message, on the same step.
    expect(answeredMs).toBeLessThan(20_000);
    expect(answer.status).toBe(302);
    const page = pageText((await clinic.send("upload_matrix:page", answer.location!)).text);
    expect(page).toContain("Шаг 5 из 11");
    expect(page).toContain("Не удалось загрузить файл: Матрица 1 верх.stl. Ошибка: не удалось сохранить файл, попробуйте ещё раз");

    // Nothing half-recorded.
    const row = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", record.orderId!).executeTakeFirstOrThrow();
    expect(row.matrix_files_info).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", record.orderId!).execute()).toEqual([]);
    s3Proxy.setDown(false);
    const storage = createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } });
    expect(await storage.list("orders", `order_${record.orderId}/`)).toEqual([]);

    // The same upload works once S3 is back.
    await clinic.upload("upload_matrix", "matrix", 6, patient);
    expect(requests.filter((request) => request.status >= 500 || request.status === 0)).toEqual([]);
    const files = (await t.db.selectFrom("orders_patients").select("matrix_files_info").where("order_id", "=", record.orderId!).executeTakeFirstOrThrow()).matrix_files_info as unknown as unknown[];
    expect(files).toHaveLength(patient.files.length);
  });

  it("(b) the network to S3 lost mid-upload: the upload fails with the same clear error instead of hanging", { timeout: 180_000 }, async () => {
    const clinic = new Clinic(951, { appUrl: app.url, clinics: 1, durationMs: 0 }, []);
    const record = newOrderRecord(951, 0);
    await clinic.startOrder(record);
    await clinic.addPatient(record, newPatient("951-1"));

    const { sending } = await uploadUntilS3HasBytes(clinic);
    // Nothing gets through any more, and nothing is refused either: packets are simply lost.
    s3Proxy.setLimits({ latencyMs: 10 * 60_000 });
    s3Proxy.setDown("blackhole");
    const cut = performance.now();
    const answer = await sending;
    const answeredMs = performance.now() - cut;
    s3Proxy.cutAll();
    s3Proxy.setLimits({});
    s3Proxy.setDown(false);

    expect(answeredMs).toBeLessThan(30_000);
    expect(answer.status).toBe(302);
    const page = pageText((await clinic.send("upload_matrix:page", answer.location!)).text);
    expect(page).toContain("Не удалось загрузить файл: Матрица 1 верх.stl. Ошибка: не удалось сохранить файл, попробуйте ещё раз");
    const row = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", record.orderId!).executeTakeFirstOrThrow();
    expect(row.matrix_files_info).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", record.orderId!).execute()).toEqual([]);
    const storage = createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } });
    expect(await storage.list("orders", `order_${record.orderId}/`)).toEqual([]);
    console.log(`upload answered ${Math.round(answeredMs)} ms after the network to S3 was lost`);
  });

  it("(c) the SFTP server stopped during queue processing: jobs fail, retry and complete after it returns, nothing twice on the server", { timeout: 90_000 }, async () => {
    const sftp: TestSftpServer = await startSftpServer({ logRequests: true });
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port }, bytesPerSecond: 3 * 1024 * 1024 });
    const previousRoot = process.env.SFTP_ROOT;
    process.env.SFTP_ROOT = sftp.root; // destinations as the wizard builds them
    const storage = createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } });
    const lines: string[] = [];
    let worker: ReturnType<typeof startQueueWorker> | undefined;
    // Its own database: only these jobs in the queue.
    const q = await createTestDatabase(4);
    try {
      const fixtures = [];
      for (let i = 0; i < 3; i++) fixtures.push(await orderWithFiles(q.db, storage, { status: "paid", patients: 2, filesPerPatient: 2, sizes: () => 1536 * 1024 }));
      const entries = fixtures.flatMap((fixture) => fixture.files);
      const ids = entries.map((file) => file.entry.id);
      const rows = () => q.db.selectFrom("ftp_uploads_queue").selectAll().where("id", "in", ids).execute();
      const settings: QueueSettings = { leaseSeconds: 5, maxAttempts: 10, concurrency: 3, retryBaseMs: 300, retryMaxMs: 1_000 };
      const fileServer = createFileServer({ fileServer: { ...sftp.fileServer, url: proxy.via(sftp.url) } });
      worker = startQueueWorker({ db: q.db, storage, fileServer, log: (line) => lines.push(line) }, settings, { pollMs: 100 });

      // Stopped while files are in flight.
      await waitFor(async () => (await rows()).some((row) => row.status === "completed") && proxy.stats().active > 0, 30_000, "the first file to arrive");
      proxy.setDown("refuse");
      proxy.cutAll();
      await waitFor(async () => (await rows()).filter((row) => row.status === "failed" && row.error_message).length >= 2, 20_000, "jobs to fail");
      await sleep(1_500);
      const duringOutage = await rows();
      expect(duringOutage.some((row) => row.status !== "completed")).toBe(true);
      proxy.setDown(false);

      // Back: everything completes.
      await waitFor(async () => (await rows()).every((row) => row.status === "completed"), 45_000, "every job to complete");
      const done = await rows();
      expect(done.some((row) => row.attempts >= 2)).toBe(true);

      // On the server: each file exactly once, whole, no temporary leftovers, each renamed into place once.
      const expected = new Map<string, string>();
      for (const file of entries) {
        const row = done.find((candidate) => candidate.id === file.entry.id)!;
        expected.set(path.join(row.destination_path, path.basename(row.file_path)), file.sha256);
      }
      const present = filesBelow(sftp.root).map((name) => path.join(sftp.root, name));
      expect(present.filter((remote) => !expected.has(remote))).toEqual([]);
      expect(present.sort()).toEqual([...expected.keys()].sort());
      for (const [remote, hash] of expected) expect(sha256(await fsp.readFile(remote))).toBe(hash);
      const renamedInto = sftp.renames().map(([, to]) => to);
      for (const remote of expected.keys()) expect(renamedInto.filter((to) => to === remote)).toHaveLength(1);
    } finally {
      await worker?.stop();
      await q.drop();
      await proxy.stop();
      await sftp.stop();
      if (previousRoot === undefined) delete process.env.SFTP_ROOT;
      else process.env.SFTP_ROOT = previousRoot;
    }
  });

  describe("(d) a payment provider that does not answer", () => {
    let yookassa: YooKassaDouble;
    let shop: TestApp;

    beforeAll(async () => {
      yookassa = await startYooKassaDouble();
      shop = await startApp({
        database: t,
        env: {
          ...s3AppEnv(s3),
          ...yooKassaAppEnv(yookassa),
          PAYMENT_TIMEOUT_MS: "1500",
        },
      });
    });
    afterAll(async () => {
      await shop?.close();
      await yookassa?.close();
    });

    it("shows a clear message, keeps the order consistent, and the retry pays it once", { timeout: 60_000 }, async () => {
      const requests: RequestRecord[] = [];
      const clinic = new Clinic(970, { appUrl: shop.url, clinics: 1, durationMs: 0 }, requests);
      const record = newOrderRecord(970, 0);
      await clinic.order(record, "summary");
      const orderId = record.orderId!;

      // The provider creates the payment but its answer never comes.
      yookassa.failNextCreates("hang_after_create", 1);
      const started = performance.now();
      const pay = await clinic.send("pay", "/order", { body: new URLSearchParams({ intent: "pay" }) });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(pay.status).toBe(302);
      expect(pay.location).toBe(`/order?id=${orderId}`);
      const page = pageText((await clinic.send("pay:page", pay.location!)).text);
      expect(page).toContain("Платёжная система не ответила. Заказ сохранён и ждёт оплаты — попробуйте ещё раз через минуту.");

      const order = await t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
      expect(order.status).toBe("pending");
      expect(Number(order.total_cost)).toBeGreaterThan(0);
      const attempts = await t.db.selectFrom("payments").selectAll().where("order_id", "=", orderId).execute();
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ status: "created", provider: "yookassa", amount: order.total_cost, provider_payment_id: null });
      expect(attempts[0]!.last_error).toBeTruthy();

      // The retry reaches the same provider payment (same idempotence key): one payment, not two.
      const retry = await clinic.send("pay_again", pay.location!, { body: new URLSearchParams({ intent: "pay" }) });
      expect(retry.status).toBe(302);
      expect(retry.location).toMatch(/^http/);
      expect(yookassa.payments.size).toBe(1);
      const creates = yookassa.requests.filter((request) => request.method === "POST" && request.path.endsWith("/payments"));
      expect(creates).toHaveLength(2);
      expect(creates[0]!.idempotenceKey).toBe(creates[1]!.idempotenceKey);
      const [providerPayment] = [...yookassa.payments.values()];
      yookassa.succeed(providerPayment!.id);
      const back = await clinic.send("payment_return", `/payment/success?orderId=${orderId}`);
      expect(back.status).toBe(200);

      const paid = await t.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
      expect(paid.status).toBe("paid");
      const final = await t.db.selectFrom("payments").selectAll().where("order_id", "=", orderId).execute();
      expect(final.map((payment) => [payment.status, payment.amount, payment.provider_payment_id])).toEqual([["succeeded", paid.total_cost, providerPayment!.id]]);
      const history = await t.db.selectFrom("order_status_history").select(["from_status", "to_status"]).where("order_id", "=", orderId).orderBy("created_at").execute();
      expect(history.filter((row) => row.from_status !== null).map((row) => `${row.from_status}>${row.to_status}`)).toEqual(["draft>pending", "pending>paid"]);
      expect(requests.filter((request) => request.status >= 500 || request.status === 0)).toEqual([]);
    });
  });
});
