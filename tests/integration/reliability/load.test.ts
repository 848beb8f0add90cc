import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage } from "~/modules/storage/storage.server";
import { type TestDatabase } from "../../support/database";
import { checkIntegrity, formatFigures, loadFigures, runLoad } from "../../support/load";
import { startS3Server, type TestS3Server, s3AppEnv } from "../../support/s3-server";
import { startApp, type TestApp } from "../../support/app";

/**
 * Load with integrity, CI size (issue "Proof under pressure", item 5; full size: bench/load.mts):
 * clinics walk the whole order flow at once over HTTP against PostgreSQL and the S3 server; then
 * every order, patient, file, object, queue entry, payment and price must be exactly as submitted.
 */

const CLINICS = Number(process.env.LOAD_CLINICS ?? 10);
const DURATION_MS = Number(process.env.LOAD_SECONDS ?? 15) * 1000;
describe("many clinics ordering at once", () => {
  let t: TestDatabase;
  let s3: TestS3Server;
  let app: TestApp;

  beforeAll(async () => {
    s3 = await startS3Server();
    app = await startApp({ env: { ...s3AppEnv(s3) } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
    await s3?.stop();
  });

  it(`keeps every order exactly as submitted: ${CLINICS} clinics for ${DURATION_MS / 1000} s, no 5xx`, { timeout: DURATION_MS + 90_000 }, async () => {
    const run = await runLoad({ appUrl: app.url, clinics: CLINICS, durationMs: DURATION_MS, requestTimeoutMs: 30_000, log: (line) => console.log(line) });
    const mismatches = await checkIntegrity(run, { db: t.db, s3 });
    const figures = loadFigures(run);
    console.log(`load: ${CLINICS} clinics, ${DURATION_MS / 1000} s, load average ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}\n${formatFigures(figures, mismatches)}`);
    if (figures.serverErrors) console.log(app.output().slice(-4000));
    expect(figures.paidOrders).toBeGreaterThan(0);
    expect(figures.serverErrors).toBe(0);
    expect(figures.failedRequests).toBe(0);
    expect(mismatches).toEqual([]);

    // The check is not blind: a lost queue entry, a changed total and a lost object are all reported.
    const paid = run.orders.find((order) => order.paid && order.orderId)!;
    const entry = await t.db.selectFrom("ftp_uploads_queue").selectAll().where("order_id", "=", paid.orderId!).limit(1).executeTakeFirstOrThrow();
    await t.db.deleteFrom("ftp_uploads_queue").where("id", "=", entry.id).execute();
    await t.db.updateTable("orders").set({ total_cost: sql`total_cost + 1` }).where("id", "=", paid.orderId!).execute();
    const other = run.orders.find((order) => order.paid && order.orderId && order.orderId !== paid.orderId)!;
    const patient = await t.db.selectFrom("orders_patients").select("matrix_files_info").where("order_id", "=", other.orderId!).limit(1).executeTakeFirstOrThrow();
    const key = (patient.matrix_files_info as unknown as Array<{ storagePath: string }>)[0]!.storagePath;
    await createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } }).delete("orders", [key]);
    const tampered = await checkIntegrity(run, { db: t.db, s3 });
    expect(tampered).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`0 queue entries for ${entry.file_path}`),
        expect.stringMatching(new RegExp(`order ${paid.orderId}.*total_cost`)),
        expect.stringContaining(`object ${key} is missing`),
      ]),
    );
  });
});
