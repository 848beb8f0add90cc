import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { browserFetch } from "../../support/app-server";
import { startApp, type TestApp } from "../../support/app";
import { freePort } from "../../support/free-port";
import { metricsOfExpression, parseExposition, sumOf, valueOf, type Sample } from "../../support/prometheus";
import { type QueueWorker, startQueueWorker } from "../../support/queue-worker";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { archStl, binaryStl, scanLikeStl } from "../../support/stl-models";
import { tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { waitFor } from "../ftp/fixtures";

/**
 * The metrics port (ADR 073) while a clinic orders: two web workers answer on one METRICS_PORT
 * (the primary gathers them), `npm run queue:work` on its own. A walk of the order flow — plain,
 * gzip and packed uploads, a refused file, the sandbox payment, the queue's transfer and the status
 * mail — shows in the numbers; the alert rules name only metrics that are exported; the public
 * port has no /metrics.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const RULES = path.join(ROOT, "ops/alerts.yml");

type Samples = Map<string, Sample[]>;

async function scrape(port: number): Promise<Samples> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  return parseExposition(await response.text());
}

describe("metrics on METRICS_PORT during an order", () => {
  let app: TestApp;
  let sftp: TestSftpServer;
  let worker: QueueWorker | undefined;
  let webPort: number;
  let workerPort: number;
  let workerEnv: Record<string, string>;
  const scraped: Samples[] = [];

  beforeAll(async () => {
    sftp = await startSftpServer();
    webPort = await freePort();
    workerPort = await freePort();
    const fileServer = { SFTP_URL: sftp.url, SFTP_PRIVATE_KEY_PATH: sftp.privateKeyPath, SFTP_ROOT: sftp.root };
    // Two workers start slowly on a busy machine: a generous bound, not a wait.
    app = await startApp({ env: { ...fileServer, WEB_CONCURRENCY: "2", METRICS_PORT: String(webPort) }, timeoutMs: 240_000 });
    // The worker starts once the order is paid, so the queue's gauges are seen before and after.
    workerEnv = { ...fileServer, DATA_DIR: app.dataDir, DATABASE_URL: app.database.url, METRICS_PORT: String(workerPort) };
  }, 300_000);
  afterAll(async () => {
    worker?.child.kill("SIGTERM");
    if (worker) await worker.exited;
    await app?.close();
    await sftp?.stop();
  });

  it("counts every web worker's requests in one scrape, by route id, never by URL", async () => {
    const before = await scrape(webPort);
    const healthz = { route: "routes/healthz", kind: "resource", status: "2xx" };
    const counted = (samples: Samples) => valueOf(samples, "aligner_http_request_duration_seconds_count", healthz) || 0;
    // Round-robin over two workers: one worker's numbers alone would show about half.
    for (let i = 0; i < 10; i++) expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    // A request is counted when its answer has gone out, a moment after the client has it: waited
    // for (a busy machine once scraped 9 of 10), and never more than the 10.
    let after = before;
    await expect.poll(async () => counted((after = await scrape(webPort))) - counted(before), { timeout: 10_000 }).toBe(10);
    // A URL nobody routes is counted under its route (the root's not-found page), not under its path.
    expect((await fetch(`${app.url}/no-such-page-${Date.now()}?q=1`)).status).toBe(404);
    const routes = new Set((await scrape(webPort)).get("aligner_http_request_duration_seconds_count")!.map((sample) => sample.labels.route!));
    expect([...routes].filter((route) => !/^(routes\/|root$|none$)/.test(route))).toEqual([]);
    expect(valueOf(after, "aligner_http_requests_in_flight")).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    // Two workers' pools of the configured size (10 each by default).
    expect(valueOf(after, "aligner_db_pool_max")).toBe(20);
    expect(valueOf(after, "aligner_db_pool_in_use")).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, "aligner_db_pool_waiting")).toBe(0);
    expect(valueOf(after, "aligner_database_up")).toBe(1);
  });

  it("shows an order made, its uploads, its payment, its transfer and its mail", async () => {
    const t = app.database;
    const browser = browserFetch(app);
    const start = await scrape(webPort);
    const { order, patient } = await toMatrixStep(t, browser);

    // A plain upload through the form, with a text file named .stl that is refused by its content.
    const model = binaryStl(40);
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(model)]), "upper.stl");
    form.append("files", new Blob([new TextEncoder().encode("not a model\n")]), "notes.stl");
    form.append("intent", "upload");
    const posted = await fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
    expect(posted.status).toBe(302);
    // Resumable uploads compressed in the browser: gzip members, and packed where packing wins.
    const tus = { base: app.url, cookie: browser.jar.header(), origin: app.url, metadata: { orderId: order.id, patientId: patient.id, type: "matrix" } };
    const gzip = await tusUpload({ ...tus, file: archStl(), compressed: true, metadata: { ...tus.metadata, filename: "lower.stl" } });
    const packed = await tusUpload({ ...tus, file: scanLikeStl(120, 90), packed: true, metadata: { ...tus.metadata, filename: "upper-scan.stl" } });
    expect([gzip.ok, packed.ok]).toEqual([true, true]);

    expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "skip_aligners" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "skip_retainers" } })).status).toBe(302);
    const pay = await browser.request("/order", { form: { intent: "pay" } });
    const checkout = pay.headers.get("Location")!;
    expect(checkout).toMatch(/^\/payment\/sandbox\/sbx_/);
    expect((await browser.request(checkout, { form: { outcome: "pay" } })).status).toBe(302);
    expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("paid");

    const paid = await scrape(webPort);
    scraped.push(paid);
    const grew = (name: string, labels: Record<string, string> = {}) => sumOf(paid, name, labels) - sumOf(start, name, labels);
    expect(grew("aligner_orders_created_total", { market: "domestic" })).toBe(1);
    expect(grew("aligner_orders_paid_total", { market: "domestic" })).toBe(1);
    expect(grew("aligner_payments_total", { provider: "sandbox", outcome: "paid" })).toBe(1);
    expect(grew("aligner_upload_received_bytes_total", { kind: "plain" })).toBe(model.length + "not a model\n".length);
    expect(grew("aligner_upload_received_bytes_total", { kind: "gzip" })).toBeGreaterThan(0);
    expect(grew("aligner_upload_received_bytes_total", { kind: "gzip" })).toBeLessThan(archStl().length);
    expect(grew("aligner_upload_received_bytes_total", { kind: "packed" })).toBeGreaterThan(0);
    expect(grew("aligner_upload_refusals_total", { reason: "not_stl" })).toBe(1);
    expect(grew("aligner_http_request_duration_seconds_count", { route: "routes/order", kind: "page" })).toBeGreaterThanOrEqual(6);
    expect(grew("aligner_http_request_duration_seconds_count", { route: "routes/uploads.tus.$", kind: "resource" })).toBeGreaterThanOrEqual(4);
    // The three files wait for the file server, since the order was paid a moment ago.
    expect(valueOf(paid, "aligner_ftp_queue_entries", { status: "pending" })).toBe(3);
    expect(valueOf(paid, "aligner_ftp_queue_oldest_due_seconds")).toBeGreaterThan(0);
    expect(valueOf(paid, "aligner_ftp_queue_oldest_due_seconds")).toBeLessThan(120);
    expect(valueOf(paid, "aligner_order_codes_held")).toBe(1);
    expect(valueOf(paid, "aligner_order_codes_total")).toBe(65_536);
    expect(valueOf(paid, "aligner_payments_stuck_pending")).toBe(0);

    // The queue worker sends the files and the status mail, and counts them on its own port.
    worker = await startQueueWorker(workerEnv, ["--housekeeping-ms", "500"]);
    const done = await waitFor(
      async () => {
        const samples = await scrape(workerPort);
        return valueOf(samples, "aligner_ftp_transfers_total", { outcome: "completed" }) >= 3 && valueOf(samples, "aligner_mails_total", { result: "sent" }) >= 1 ? samples : null;
      },
      30_000,
      "the worker to send the files and the status mail",
    );
    scraped.push(done);
    expect(valueOf(done, "aligner_ftp_transfers_total", { outcome: "completed" })).toBe(3);
    expect(valueOf(done, "aligner_ftp_transfers_total", { outcome: "failed" })).toBe(0);
    expect(valueOf(done, "aligner_ftp_transferred_bytes_total")).toBe(model.length + archStl().length + scanLikeStl(120, 90).length);
    expect(valueOf(done, "aligner_mails_total", { result: "sent" })).toBe(1);
    expect(valueOf(done, "aligner_mails_total", { result: "failed" })).toBe(0);
    expect(valueOf(done, "aligner_database_up")).toBe(1);
    // The mail went out in a housekeeping pass of the worker: counted on its port once the pass ended.
    await waitFor(async () => valueOf(await scrape(workerPort), "aligner_housekeeping_passes_total", { outcome: "completed" }) >= 1, 30_000, "the worker's housekeeping pass");

    const delivered = await scrape(webPort);
    scraped.push(delivered);
    expect(valueOf(delivered, "aligner_ftp_queue_entries", { status: "pending" })).toBe(0);
    expect(valueOf(delivered, "aligner_ftp_queue_oldest_due_seconds")).toBe(0);
    // Read from the database on the web's port: the deployment's last pass, whichever process ran it.
    expect(valueOf(delivered, "aligner_housekeeping_last_pass_age_seconds")).toBeLessThan(30);
    expect(valueOf(delivered, "aligner_housekeeping_passes_total", { outcome: "completed" })).toBe(0);
  });

  it("has alert rules that name only metrics the app exports", async () => {
    expect(scraped.length).toBeGreaterThan(0);
    const exported = new Set(scraped.flatMap((samples) => [...samples.keys()]));
    const rules = (parse(fs.readFileSync(RULES, "utf8")) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> }).groups.flatMap((group) => group.rules);
    const alerts = rules.map((rule) => rule.alert);
    expect(alerts).toEqual(
      expect.arrayContaining(["FileQueueStalled", "FileTransfersFailing", "ServerErrors", "SlowPages", "MailsFailing", "OrderCodeSpaceFilling", "PaymentsStuckPending", "HousekeepingStopped", "DatabaseUnreachable"]),
    );
    const unknown = rules.flatMap((rule) => metricsOfExpression(rule.expr).filter((name) => !exported.has(name)).map((name) => `${rule.alert}: ${name}`));
    expect(unknown).toEqual([]);
    // The check itself sees a name the app does not export.
    expect(metricsOfExpression('sum(rate(aligner_no_such_total{a="b"}[5m])) by (le) > 1e-3').filter((name) => !exported.has(name))).toEqual(["aligner_no_such_total"]);
    // Every alert is explained in the README.
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(alerts.filter((alert) => !readme.includes(`\`${alert}\``))).toEqual([]);
  });

  it("has rules Prometheus's own checker accepts", () => {
    expect(execFileSync(promtool(), ["check", "rules", RULES], { encoding: "utf8" })).toContain("SUCCESS");
  });

  it("serves no metrics on the public port, and nothing but /metrics on the metrics port", async () => {
    const publicPage = await fetch(`${app.url}/metrics`);
    expect(publicPage.status).toBe(404);
    expect(await publicPage.text()).not.toContain("aligner_");
    expect((await fetch(`http://127.0.0.1:${webPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${webPort}/metrics`, { method: "POST" })).status).toBe(405);
  });
});

/** promtool as scripts/machine-packages.sh provides it: on PATH, or unpacked from Debian's package into .cache. */
function promtool(): string {
  const unpacked = path.resolve(".cache/prometheus/usr/bin/promtool");
  return fs.existsSync(unpacked) ? unpacked : "promtool";
}
