import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "~/modules/config/config.server";
import { createStorage } from "~/modules/storage/storage.server";
import { startApp, type TestApp } from "../../support/app";
import { createTestDatabase, databaseUrl, type TestDatabase } from "../../support/database";
import { freePort } from "../../support/free-port";
import { parseExposition, valueOf } from "../../support/prometheus";
import { type QueueWorker, startQueueWorker } from "../../support/queue-worker";
import { startSftpServer } from "../../support/sftp-server";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { orderWithFiles, waitFor } from "../ftp/fixtures";

/**
 * The metrics an operator's alerts fire on (ADR 073, ops/alerts.yml), driven to the values that fire
 * them: `aligner_database_up` goes to 0 while PostgreSQL is away and back to 1 after (DatabaseUnreachable),
 * and a transfer to a file server that refuses counts as failed (FileTransfersFailing). The metrics port
 * keeps answering throughout.
 */

async function scrape(port: number) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

describe("metrics when the database or the file server fails", () => {
  let t: TestDatabase;
  let pgProxy: TcpProxy;
  let app: TestApp;
  let worker: QueueWorker | undefined;
  let metricsPort: number;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    const pgUrl = new URL(databaseUrl(t.name));
    pgProxy = await startTcpProxy({ target: { host: pgUrl.hostname, port: Number(pgUrl.port || 5432) } });
    metricsPort = await freePort();
    app = await startApp({ database: t, env: { DATABASE_URL: pgProxy.via(t.url), METRICS_PORT: String(metricsPort), WEB_CONCURRENCY: "1" } });
  });
  afterAll(async () => {
    worker?.child.kill("SIGTERM");
    if (worker) await worker.exited;
    await app?.close();
    await pgProxy?.stop();
    await t?.drop();
  });

  it("says the database is down while it refuses, and up again once it answers", { timeout: 60_000 }, async () => {
    expect(valueOf(await scrape(metricsPort), "aligner_database_up")).toBe(1);
    pgProxy.setDown("refuse");
    pgProxy.cutAll();
    expect(valueOf(await scrape(metricsPort), "aligner_database_up")).toBe(0);
    pgProxy.setDown(false);
    // The pool opens new connections on the next scrape's queries.
    await expect.poll(async () => valueOf(await scrape(metricsPort), "aligner_database_up"), { timeout: 30_000 }).toBe(1);
  });

  it("counts a transfer to a file server that refuses as failed, and none as completed", { timeout: 90_000 }, async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: app.dataDir }));
    const { files } = await orderWithFiles(t.db, storage, { status: "paid", filesPerPatient: 1 });
    expect(files).toHaveLength(1);
    // A file server that was there and is gone: its address refuses every connection.
    const sftp = await startSftpServer();
    await sftp.stop();
    const workerPort = await freePort();
    worker = await startQueueWorker({ DATA_DIR: app.dataDir, DATABASE_URL: t.url, METRICS_PORT: String(workerPort), SFTP_URL: sftp.url, SFTP_PRIVATE_KEY_PATH: sftp.privateKeyPath, SFTP_ROOT: sftp.root });
    const failed = await waitFor(
      async () => {
        const samples = await scrape(workerPort);
        return valueOf(samples, "aligner_ftp_transfers_total", { outcome: "failed" }) >= 1 ? samples : null;
      },
      60_000,
      "the worker to count the refused transfer",
    );
    expect(valueOf(failed, "aligner_ftp_transfers_total", { outcome: "completed" })).toBe(0);
    const entry = await t.db.selectFrom("ftp_uploads_queue").select(["status", "attempts"]).where("id", "=", files[0]!.entry.id).executeTakeFirstOrThrow();
    expect(entry.attempts).toBeGreaterThanOrEqual(1);
    expect(entry.status).not.toBe("completed");
  });
});
