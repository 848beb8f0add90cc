import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import { waitForPortClosed } from "../../support/free-port";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { checkIntegrity, formatFigures, loadFigures, runLoad, tessellatedBoxStl } from "../../support/load";
import { latestOutboxMail } from "../../support/mail-text";
import { startPgBouncer, type TestPgBouncer } from "../../support/pgbouncer";
import { type QueueWorker, startQueueWorker } from "../../support/queue-worker";
import { type RoundRobinProxy, startRoundRobinProxy } from "../../support/round-robin-proxy";
import { s3AppEnv } from "../../support/s3-server";
import { startS3WithMultipart, type TestS3WithMultipart } from "../../support/s3-multipart-front";
import { tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { SECRETS } from "../../support/app";
import { startApp, type TestApp } from "../../support/app";

/**
 * Many machines, one truth (DESIGN §2): two app processes behind a round-robin proxy and two queue
 * workers, on one PostgreSQL, one S3 server and one SFTP server. Every piece of shared state — the
 * orders a clinic walks, resumable uploads, sessions, gate failure counts, translations, order codes,
 * the file server queue — must hold when consecutive requests land on different processes. Each test
 * here would fail if that state lived in one process's memory.
 */

const CLINICS = Number(process.env.SCALE_CLINICS ?? 6);
const DURATION_MS = Number(process.env.SCALE_SECONDS ?? 12) * 1000;
async function eventually<T>(probe: () => Promise<T | null | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("scale-out: two app processes and two workers on one database, S3 and SFTP server", () => {
  let t: TestDatabase;
  let s3: TestS3WithMultipart;
  let sftp: TestSftpServer;
  let proxy: RoundRobinProxy;
  let apps: TestApp[] = [];
  let workers: QueueWorker[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    [t, s3, sftp, proxy] = await Promise.all([createTestDatabase(4), startS3WithMultipart(), startSftpServer({ logRequests: true }), startRoundRobinProxy()]);
    env = {
      DATABASE_URL: t.url,
      ...s3AppEnv(s3),
      SFTP_URL: sftp.url,
      SFTP_PRIVATE_KEY_PATH: sftp.privateKeyPath,
      SFTP_ROOT: sftp.root,
      ...SECRETS,
      // Links and the Origin check use the address the clinics see: the proxy's.
      PUBLIC_URL_DOMESTIC: proxy.url,
      QUEUE_LEASE_SECONDS: "5",
    };
    apps = await Promise.all([startApp({ database: t, env }), startApp({ database: t, env })]);
    proxy.backends = apps.map((app) => app.port);
    workers = await Promise.all([0, 1].map(() => startQueueWorker({ ...env, DATA_DIR: apps[0]!.dataDir })));
  }, 120_000);
  afterAll(async () => {
    for (const worker of workers) worker.child.kill("SIGKILL");
    await Promise.all(apps.map((app) => app.close()));
    await proxy?.stop();
    await s3?.stop();
    await sftp?.stop();
    await t?.drop();
  });

  it(`keeps every order exactly as submitted while each clinic's requests alternate between processes: ${CLINICS} clinics for ${DURATION_MS / 1000} s`, { timeout: DURATION_MS + 120_000 }, async () => {
    const run = await runLoad({ appUrl: proxy.url, clinics: CLINICS, durationMs: DURATION_MS, requestTimeoutMs: 30_000 });
    const mismatches = await checkIntegrity(run, { db: t.db, s3 });
    const figures = loadFigures(run);
    console.log(`scale-out load: ${CLINICS} clinics, ${DURATION_MS / 1000} s over 2 processes (${[...proxy.served.values()].join(" + ")} requests)\n${formatFigures(figures, mismatches)}`);
    if (figures.serverErrors) for (const app of apps) console.log(app.output().slice(-3000));
    expect(figures.paidOrders).toBeGreaterThan(0);
    expect(figures.serverErrors).toBe(0);
    expect(run.requests.filter((request) => request.status === 0)).toEqual([]); // each with its error, should one fail
    expect(mismatches).toEqual([]);
    // Every clinic's consecutive requests went to different processes.
    for (const [client, ports] of proxy.trail) {
      if (client === "shared") continue;
      expect(ports.length, client).toBeGreaterThan(2);
      for (let i = 1; i < ports.length; i++) expect(ports[i], `${client} request ${i}`).not.toBe(ports[i - 1]);
    }

    // The two workers deliver every file of the paid orders to the file server, each exactly once.
    const paidIds = run.orders.filter((order) => order.paid && order.orderId).map((order) => order.orderId!);
    const queue = await eventually(async () => {
      const entries = await t.db.selectFrom("ftp_uploads_queue").selectAll().where("order_id", "in", paidIds).execute();
      return entries.length > 0 && entries.every((entry) => entry.status === "completed") ? entries : null;
    }, 90_000, "the workers to deliver every file of the paid orders");
    const finalNames = sftp.renames().map(([, to]) => to);
    const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, forcePathStyle: true });
    for (const entry of queue) {
      const remote = finalNames.filter((name) => name.endsWith(`/${path.basename(entry.file_path)}`));
      expect(remote, entry.file_path).toHaveLength(1);
      const local = path.join(sftp.root, path.relative(sftp.root, remote[0]!));
      const stored = Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: "orders", Key: entry.file_path }))).Body!.transformToByteArray());
      expect(sha256(fs.readFileSync(local)), entry.file_path).toBe(sha256(stored));
    }
    const byWorker = workers.map((worker) => worker.completed().length);
    console.log(`scale-out queue: ${queue.length} files delivered once each, by worker ${byWorker.join(" and ")}`);
    expect(byWorker.reduce((a, b) => a + b, 0)).toBe(queue.length);
  });

  it("finishes a resumable upload whose chunks alternate between the processes", { timeout: 120_000 }, async () => {
    const browser = browserFetch({ url: proxy.url });
    const { order, patient } = await toMatrixStep(t, browser);

    const file = tessellatedBoxStl(140, [60, 40, 25]);
    const before = proxy.trail.get("shared")?.length ?? 0;
    const result = await tusUpload({
      base: proxy.url,
      cookie: browser.jar.header(),
      origin: proxy.url,
      file,
      chunkSize: 5 * 1024 * 1024,
      metadata: { filename: "arch.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
    });
    expect(result.ok, JSON.stringify(result.body)).toBe(true);
    const ports = (proxy.trail.get("shared") ?? []).slice(before);
    expect(new Set(ports).size).toBe(2);
    for (let i = 1; i < ports.length; i++) expect(ports[i]).not.toBe(ports[i - 1]);
    const files = (await t.db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patient.id).executeTakeFirstOrThrow()).matrix_files_info as unknown as Array<{ storagePath: string; size: number; triangles: number }>;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ size: file.length, triangles: 12 * 140 * 140 });
    const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, forcePathStyle: true });
    const stored = Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: "orders", Key: files[0]!.storagePath }))).Body!.transformToByteArray());
    expect(sha256(stored)).toBe(sha256(file));
  });

  it("a sign-in on one process is valid on the other, and a sign-out on one ends it on the other", async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const onA = browserFetch(a);
    expect((await onA.request("/auth", { form: { email: "two-machines@clinic.ru" } })).status).toBe(302);
    const mail = latestOutboxMail(path.join(a.dataDir, "outbox"), "two-machines@clinic.ru");
    const token = new URL(mail!.link).searchParams.get("token")!;
    // Confirmed on B, with the cookie then carried to A.
    const onB = browserFetch(b, onA.jar);
    expect((await onB.request("/auth/verify", { form: { token } })).headers.get("Location")).toBe("/cabinet");
    expect((await onA.request("/cabinet")).status).toBe(200);
    expect((await onB.request("/cabinet")).status).toBe(200);
    const cookie = onA.jar.get("__session")!;
    expect((await onA.request("/auth/sign-out", { form: {} })).status).toBe(302);
    const replayOnB = browserFetch(b);
    replayOnB.jar.set("__session", cookie);
    expect((await replayOnB.request("/cabinet")).status).toBe(302);
  });

  it("counts failed back-office passwords spread over both processes as one count", async () => {
    const ip = { "X-Forwarded-For": "198.51.100.23" };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const app = apps[i % 2]!;
      statuses.push((await browserFetch(app).request("/backoffice/login", { form: { password: `wrong-${i}` }, headers: ip })).status);
    }
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    // Five failures each would be under the limit of ten on either process alone.
    for (const app of apps) {
      const right = await browserFetch(app).request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD }, headers: ip });
      expect(right.status, `right password on port ${app.port}`).toBe(429);
    }
  });

  it("serves a translation edited through one process from the other within the stated delay", async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const staff = browserFetch(a);
    expect((await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } })).status).toBe(302);
    // A returning German visitor (the language cookie set by the first visit): the page each process keeps in memory.
    const visitor = browserFetch(b);
    const german = async () => (await (await visitor.request("/de")).text()).includes("Auftrag erteilen (Skalierung)");
    expect(await german()).toBe(false);
    expect(await german()).toBe(false);
    const added = await staff.request("/backoffice/translate", {
      form: { intent: "add", originalText: "Оформить заказ", translatedText: "Auftrag erteilen (Skalierung)", targetLanguage: "de" },
    });
    expect(added.status).toBe(302);
    const started = Date.now();
    await eventually(german, 5_000, "the other process to serve the edited text");
    const delay = Date.now() - started;
    console.log(`scale-out translation: served by the other process after ${delay} ms`);
    // overrides.server.ts CACHE_MS is 2 s; a request's own time on top.
    expect(delay).toBeLessThan(3_000);
  });

  it("never hands out an order code that the other process reserved", async () => {
    // Half of all codes (0xxx–7xxx) are taken already: a process that kept its reservations in memory
    // would hand them out again. Every new order must get a free code, each a different one.
    await sql`insert into order_codes (code) select lpad(to_hex(n), 4, '0') from generate_series(0, 32767) as n on conflict do nothing`.execute(t.db);
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const created = await browserFetch(apps[i % 2]!).request("/order", { form: { intent: "next" } });
        expect(created.status).toBe(302);
      }),
    );
    const rows = await t.db.selectFrom("orders").select("code").where("created_at", ">", sql<Date>`now() - interval '1 minute'`).where("email", "is", null).execute();
    const fresh = rows.map((row) => row.code);
    expect(fresh).toHaveLength(24);
    for (const code of fresh) expect(Number.parseInt(code, 16), code).toBeGreaterThanOrEqual(0x8000);
    expect(new Set(fresh).size).toBe(fresh.length);
  });

  it("keeps serving when one process is killed during load, and leaves nothing half-written", { timeout: 90_000 }, async () => {
    const running = runLoad({ appUrl: proxy.url, clinics: 4, durationMs: 8_000, requestTimeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const victim = apps[1]!;
    process.kill(victim.pid, "SIGKILL");
    // The moment the process is gone: its port refuses connections. On a loaded machine that is not
    // the moment of the signal, nor a fixed time after the load began.
    const goneAt = await waitForPortClosed("127.0.0.1", victim.port, 30_000);
    const run = await running;
    expect(proxy.down.has(victim.port)).toBe(true);
    const figures = loadFigures(run);
    // Requests in flight on the killed process are lost (the proxy answers 502); every later one is served.
    const afterDeath = run.requests.filter((request) => request.at > goneAt);
    expect(afterDeath.length).toBeGreaterThan(0);
    expect(afterDeath.filter((request) => request.status >= 500 || request.status === 0)).toEqual([]);
    expect(figures.paidOrders).toBeGreaterThan(0);
    // What the database holds is whole. A process killed between storing an upload's objects and
    // recording them leaves those objects unreferenced in the order's folder (never shown, never sent;
    // the folder is offered for deletion on the back-office storage screen once the order is done,
    // DESIGN §4.18; ADR 028): only stopped walks may have them.
    const stopped = new Set(run.orders.filter((order) => order.aborted && order.orderId).map((order) => order.orderId!));
    const problems = await checkIntegrity(run, { db: t.db, s3 }, { allowStopped: true, onlyThisRun: true });
    const unreferenced = problems.filter((problem) => /^object order_([^/]+)\/.* belongs to no recorded file$/.exec(problem)?.[1] && stopped.has(/^object order_([^/]+)\//.exec(problem)![1]!));
    if (unreferenced.length) console.log(`scale-out kill: ${unreferenced.length} unreferenced object(s) of stopped walks:\n${unreferenced.join("\n")}`);
    expect(problems.filter((problem) => !unreferenced.includes(problem))).toEqual([]);
  });
});

describe("scale-out behind PgBouncer in transaction pooling mode", () => {
  let t: TestDatabase;
  let s3: TestS3WithMultipart;
  let bouncer: TestPgBouncer;
  let proxy: RoundRobinProxy;
  const apps: TestApp[] = [];
  const SERVER_POOL = 6;

  beforeAll(async () => {
    [t, s3, proxy] = await Promise.all([createTestDatabase(1), startS3WithMultipart(), startRoundRobinProxy()]);
    bouncer = await startPgBouncer(t.url, { poolSize: SERVER_POOL });
    // Each process asks for more connections than the pooler gives the server in all. Debian's
    // PgBouncer (1.18) cannot keep prepared statements in transaction mode: the README's setting for it (ADR 086).
    const env = { DATABASE_URL: bouncer.via(t.url), DATABASE_POOL_SIZE: "20", DATABASE_PREPARED_STATEMENTS: "false", ...s3AppEnv(s3), ...SECRETS, PUBLIC_URL_DOMESTIC: proxy.url };
    // One after the other: each migrates (a no-op here) through the pooler at start.
    try {
      for (let i = 0; i < 2; i++) apps.push(await startApp({ database: t, env, timeoutMs: 90_000 }));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nPgBouncer:\n${bouncer.output().slice(-3000)}`);
    }
    proxy.backends = apps.map((app) => app.port);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await proxy?.stop();
    await bouncer?.stop();
    await s3?.stop();
    await t?.drop();
  });

  it("keeps every order exactly as submitted while PostgreSQL sees only the pooler's connections", { timeout: 90_000 }, async () => {
    const connections: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const row = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(t.db);
        connections.push(row.rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const run = await runLoad({ appUrl: proxy.url, clinics: 6, durationMs: 8_000, requestTimeoutMs: 30_000 });
    sampling = false;
    await sampler;
    const figures = loadFigures(run);
    const mismatches = await checkIntegrity(run, { db: t.db, s3 });
    console.log(`pgbouncer: ${figures.paidOrders} paid orders, ${run.requests.length} requests over 2 processes; PostgreSQL connections at most ${Math.max(...connections)} (pooler ${SERVER_POOL}, processes 2 × 20)`);
    if (figures.serverErrors) console.log(apps.map((app) => app.output().slice(-2000)).join("\n") + bouncer.output().slice(-2000));
    expect(figures.paidOrders).toBeGreaterThan(0);
    expect(figures.serverErrors).toBe(0);
    expect(run.requests.filter((request) => request.status === 0)).toEqual([]); // each with its error, should one fail
    expect(mismatches).toEqual([]);
    expect(Math.max(...connections)).toBeLessThanOrEqual(SERVER_POOL);
  });
});

