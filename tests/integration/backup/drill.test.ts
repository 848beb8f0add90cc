import { createHash, randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "~/modules/backup/backup.server";
import { checkStorage, storageProblems } from "~/modules/backup/check-storage.server";
import { restoreBackup, RestoreError } from "~/modules/backup/restore.server";
import type { BackupManifest } from "~/modules/backup/manifest";
import type { AppConfig } from "~/modules/config/config.server";
import { type DB, openDatabase } from "~/modules/db/db.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { migrateToLatest } from "~db/migrator";
import { SECRETS } from "../../support/app";
import { startAppServer, CookieJar } from "../../support/app-server";
import { builtEntry } from "../../support/built-server";
import { buildOrderIn, buildPatient, buildPayment } from "../../support/builders";
import { databaseUrl, serverUrl } from "../../support/database";
import { freePort } from "../../support/free-port";
import { parseExposition, valueOf } from "../../support/prometheus";
import { s3AppEnv, startS3Server, type TestS3Server } from "../../support/s3-server";
import { signInToken } from "../../support/sign-in-link";

/**
 * The restore drill (ADR 077): orders are made and paid, a backup runs while files are deleted and
 * orders change, the archive is restored into an empty database and storage, and then every row
 * and every byte must match what the backup saw, `check:storage` finds nothing, and the restored app
 * serves the orders to their clinic. Once on the embedded default, once on PostgreSQL and S3.
 */

const buckets = { orders: "orders", logos: "logos" };
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

interface Side {
  database: AppConfig["database"];
  db: DB;
  storage: FileStorage;
}

interface Seeded {
  paidOrder: { id: string; code: string; email: string; patientName: string };
  draftId: string;
  /** Bytes of every file the rows named when the backup began. */
  bytes: Map<string, string>;
}

async function storeFile(side: Side, key: string, size: number) {
  const body = randomBytes(size);
  await side.storage.put("orders", key, Readable.from([body]));
  return { key, size, sha: sha256(body) };
}

/** Three orders (paid, in work, a draft), each with a patient and two aligner files, the first two paid by card, and a logo. */
async function seed(side: Side): Promise<Seeded> {
  const bytes = new Map<string, string>();
  const made: Seeded["paidOrder"][] = [];
  for (const status of ["paid", "processing", "draft"] as const) {
    const order = await buildOrderIn(side.db, status);
    const patient = await buildPatient(side.db, order.id, `Пациент ${status}`);
    if (status !== "draft") await buildPayment(side.db, order);
    const files = [];
    for (const step of [1, 2]) {
      const file = await storeFile(side, `order_${order.id}/${patient.folder_name}/aligners/upper_${step}.stl`, 40_000 + step * 1000);
      bytes.set(file.key, file.sha);
      files.push({ originalName: `upper_${step}.stl`, storagePath: file.key, url: "", type: "aligners", size: file.size, jaw: "upper", stepNumber: step, confirmed: true });
    }
    await side.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify(files) }).where("id", "=", patient.id).execute();
    made.push({ id: order.id, code: order.code, email: order.email ?? "", patientName: patient.patient_name });
  }
  // A delivered order whose models the retention job removed: its lists stay as the record and name no stored file.
  const delivered = await buildOrderIn(side.db, "completed");
  const deliveredPatient = await buildPatient(side.db, delivered.id);
  const record = [{ originalName: "upper_1.stl", storagePath: `order_${delivered.id}/${deliveredPatient.folder_name}/aligners/upper_1.stl`, url: "", type: "aligners", size: 41_000, jaw: "upper", stepNumber: 1, confirmed: true }];
  await side.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify(record) }).where("id", "=", deliveredPatient.id).execute();
  await side.db.updateTable("orders").set({ storage_removed_at: new Date() }).where("id", "=", delivered.id).execute();
  await side.storage.put("logos", "clinic-logo.png", Readable.from([Buffer.from("logo bytes")]));
  return { paidOrder: made[0]!, draftId: made[2]!.id, bytes };
}

/** A built command (`npm run restore`, `npm run check:storage`) run as an operator runs it, against the target's configuration. */
async function runBuilt(name: "restore" | "check-storage", args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [builtEntry(process.cwd(), name), ...args], {
    env: { ...process.env, APP_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stdout = "";
  child.stdout.on("data", (chunk) => ((stdout += chunk), (output += chunk)));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, output, stdout };
}

/** The rows a restore must give back, as comparable text. */
async function rowsOf(db: DB) {
  const orders = await sql<Record<string, unknown>>`select * from orders order by id`.execute(db);
  const patients = await sql<Record<string, unknown>>`select * from orders_patients order by id`.execute(db);
  const history = await sql<Record<string, unknown>>`select * from order_status_history order by id`.execute(db);
  const payments = await sql<Record<string, unknown>>`select * from payments order by id`.execute(db);
  return JSON.stringify({ orders: orders.rows, patients: patients.rows, history: history.rows, payments: payments.rows });
}

/** While the backup copies files: the draft is deleted with its files, a paid order's file is removed, a new order appears. */
async function changeMeanwhile(side: Side, seeded: Seeded) {
  const draftKeys = [...seeded.bytes.keys()].filter((key) => key.startsWith(`order_${seeded.draftId}/`));
  await side.db.deleteFrom("orders").where("id", "=", seeded.draftId).execute();
  await side.storage.delete("orders", draftKeys);
  const paidKey = [...seeded.bytes.keys()].find((key) => key.startsWith(`order_${seeded.paidOrder.id}/`))!;
  await side.storage.delete("orders", [paidKey]);
  const late = await buildOrderIn(side.db, "paid");
  await storeFile(side, `order_${late.id}/late.stl`, 1000);
}

/** A file's bytes, read whole. */
async function bytesOf(body: AsyncIterable<unknown>) {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The drill, with `npm run restore` and `npm run check:storage` run as built commands against the target's
 * configuration (`targetEnv`), and the restored app started on it.
 */
async function drill(source: Side, target: Side, archive: string, targetEnv: Record<string, string>) {
  const seeded = await seed(source);
  let before = "";
  const manifest: BackupManifest = await createBackup(source, archive, {
    afterDatabase: async () => {
      before = await rowsOf(source.db);
      await changeMeanwhile(source, seeded);
    },
  });
  // Every file the rows named is in the archive, three of them from the graveyard; nothing missing.
  expect(manifest.missing).toEqual([]);
  expect(manifest.files.filter((file) => file.bucket === "orders").map((file) => file.key).sort()).toEqual([...seeded.bytes.keys()].sort());
  expect(manifest.files.filter((file) => file.fromGraveyard)).toHaveLength(3);
  expect(manifest.files.find((file) => file.bucket === "logos")?.key).toBe("clinic-logo.png");
  for (const file of manifest.files) if (file.bucket === "orders") expect(file.sha256, file.key).toBe(seeded.bytes.get(file.key));
  expect(JSON.parse(before).payments).toHaveLength(2);

  // A storage with files is refused: a restore never mixes into live data.
  await expect(restoreBackup({ database: target.database, storage: source.storage }, archive)).rejects.toBeInstanceOf(RestoreError);

  const restored = await runBuilt("restore", [archive], targetEnv);
  expect(restored.code, restored.output).toBe(0);
  expect(restored.output).toContain(`restored ${manifest.files.length} files`);
  const checked = await runBuilt("check-storage", [archive], targetEnv);
  expect(checked.code, checked.output).toBe(0);
  expect(JSON.parse(checked.stdout.slice(checked.stdout.indexOf("{\n"))).counts).toMatchObject({ rows: 6, objects: 6, checksumMismatches: 0 });
  // A restore into what now holds data is refused by the command too, and changes nothing.
  const again = await runBuilt("restore", [archive], targetEnv);
  expect(again.code).toBe(1);

  target.db = await openDatabase(target.database);
  try {
    expect(await rowsOf(target.db)).toBe(before);
    for (const [key, sha] of seeded.bytes) {
      const object = await target.storage.get("orders", key);
      expect(object, key).not.toBeNull();
      expect(sha256(await bytesOf(object!.body)), key).toBe(sha);
    }
    const check = await checkStorage(target.db, target.storage, { manifest });
    expect(check.counts).toMatchObject({ rows: 6, objects: 6 });
    expect(storageProblems(check), JSON.stringify(check)).toBe(0);
    // The check does find trouble: a file gone from the bucket is a row without its object.
    const gone = [...seeded.bytes.keys()][0]!;
    const kept = await bytesOf((await target.storage.get("orders", gone))!.body);
    await target.storage.delete("orders", [gone]);
    expect((await checkStorage(target.db, target.storage)).rowsWithoutObjects).toEqual([gone]);
    // And bytes that differ from the archive's at the same size are a checksum mismatch.
    const changed = Buffer.from(kept);
    changed[0] = changed[0]! ^ 0xff;
    await target.storage.put("orders", gone, Readable.from([changed]));
    const tampered = await checkStorage(target.db, target.storage, { manifest });
    expect(tampered.checksumMismatches).toEqual([`orders/${gone}`]);
    expect(tampered.counts.sizeMismatches).toBe(0);
    // A file cut short is a size mismatch; a file no row names is an object without its row.
    await target.storage.delete("orders", [gone]);
    await target.storage.put("orders", gone, Readable.from([kept.subarray(1)]));
    const stray = `order_${seeded.paidOrder.id}/stray.stl`;
    await target.storage.put("orders", stray, Readable.from([Buffer.from("solid stray")]));
    const mixed = await checkStorage(target.db, target.storage);
    expect(mixed.sizeMismatches).toEqual([{ key: gone, row: kept.length, object: kept.length - 1 }]);
    expect(mixed.objectsWithoutRows).toEqual([stray]);
    expect(storageProblems(mixed)).toBe(2);
    await target.storage.delete("orders", [gone, stray]);
    await target.storage.put("orders", gone, Readable.from([kept]));

    // The restored app serves the paid order to its clinic after sign-in: the list, the order's page and its files.
    const token = await signInToken(target.db, SECRETS.SESSION_SECRET, seeded.paidOrder.email);
    if (target.database.kind === "pglite") {
      await target.db.destroy(); // the embedded database belongs to the server now
    }
    const app = await startAppServer(targetEnv);
    try {
      const jar = new CookieJar();
      const signIn = await fetch(`${app.url}/auth/verify`, { method: "POST", headers: { Origin: app.url }, body: new URLSearchParams({ token }), redirect: "manual" });
      expect(signIn.status).toBe(302);
      jar.store(signIn);
      const cabinet = await fetch(`${app.url}/cabinet`, { headers: { Cookie: jar.header() } });
      expect(cabinet.status).toBe(200);
      expect(await cabinet.text()).toContain(seeded.paidOrder.code);
      const page = await fetch(`${app.url}/cabinet/orders/${seeded.paidOrder.id}`, { headers: { Cookie: jar.header() } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(seeded.paidOrder.patientName);
      // Both of its models, the one deleted while the backup ran included (it came from the graveyard).
      for (const [key, sha] of seeded.bytes) {
        if (!key.startsWith(`order_${seeded.paidOrder.id}/`)) continue;
        const file = await fetch(`${app.url}/files/orders/${key}`, { headers: { Cookie: jar.header() } });
        expect(file.status, key).toBe(200);
        expect(sha256(Buffer.from(await file.arrayBuffer())), key).toBe(sha);
      }
    } finally {
      await app.stop();
    }
  } finally {
    if (target.database.kind === "postgres") await target.db.destroy();
  }
}

describe("backup and restore on the embedded default (PGlite and folders)", () => {
  let root: string;
  beforeAll(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "drill-embedded-"));
  });
  afterAll(async () => {
    await fsp.rm(root, { recursive: true, force: true });
  });

  it("restores every row and byte the backup saw, and the restored app serves the orders", { timeout: 300_000 }, async () => {
    const sourceDir = path.join(root, "source");
    const targetDir = path.join(root, "target");
    await fsp.mkdir(sourceDir, { recursive: true });
    await fsp.mkdir(targetDir, { recursive: true });
    const sourceDatabase = { kind: "pglite" as const, dir: path.join(sourceDir, "pglite") };
    const source: Side = { database: sourceDatabase, db: await openDatabase(sourceDatabase), storage: createStorage({ storage: { kind: "folder", dir: path.join(sourceDir, "storage") }, buckets }) };
    await migrateToLatest(source.db);
    await source.storage.ensureBuckets();
    const target: Side = {
      database: { kind: "pglite", dir: path.join(targetDir, "pglite") },
      db: undefined as unknown as DB,
      storage: createStorage({ storage: { kind: "folder", dir: path.join(targetDir, "storage") }, buckets }),
    };
    try {
      await drill(source, target, path.join(root, "backups", "embedded.tar"), { DATABASE_URL: "", DATA_DIR: targetDir, ...SECRETS });
    } finally {
      await source.db.destroy();
    }
  });

  it("takes the backup from the serving process, which keeps answering meanwhile", { timeout: 300_000 }, async () => {
    const dataDir = path.join(root, "serving");
    await fsp.mkdir(dataDir, { recursive: true });
    // Seeds the demo data into a new embedded database first: on a loaded machine that alone took over a minute.
    const metricsPort = await freePort();
    const app = await startAppServer({ DATABASE_URL: "", DATA_DIR: dataDir, METRICS_PORT: String(metricsPort), ...SECRETS }, { timeoutMs: 240_000 });
    try {
      // The embedded default is one process with the queue inside: its metrics port says so too (ADR 073).
      const metrics = parseExposition(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
      expect(valueOf(metrics, "aligner_database_up")).toBe(1);
      expect(valueOf(metrics, "aligner_order_codes_total")).toBe(65_536);
      expect(valueOf(metrics, "aligner_ftp_queue_entries", { status: "pending" })).toBeGreaterThanOrEqual(0);
      const archive = path.join(root, "backups", "serving.tar");
      const child = spawn(process.execPath, [builtEntry(process.cwd(), "backup"), archive], {
        env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, APP_ENV: "test", ...SECRETS },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      let answered = 0;
      let done = false;
      void exited.then(() => (done = true));
      while (!done) {
        const response = await fetch(`${app.url}/healthz`);
        expect(response.status).toBe(200);
        // Read to its end, so each answer frees its connection for the next request.
        await response.arrayBuffer();
        answered++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await exited, output).toBe(0);
      expect(answered).toBeGreaterThan(0);
      expect(fs.statSync(archive).size).toBeGreaterThan(0);
      expect(app.output()).toContain(`backup written to ${archive}`);
    } finally {
      await app.stop();
    }
  });
});

describe("backup and restore on PostgreSQL and S3", () => {
  let s3: TestS3Server;
  let s3Target: TestS3Server;
  let root: string;
  const names = { source: `drill_source_${process.pid}_${Date.now().toString(36)}`, target: `drill_target_${process.pid}_${Date.now().toString(36)}` };
  let admin: DB;

  beforeAll(async () => {
    [s3, s3Target] = await Promise.all([startS3Server(), startS3Server()]);
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "drill-pg-"));
    admin = await openDatabase({ kind: "postgres", url: databaseUrl(new URL(serverUrl()).pathname.slice(1) || "postgres") }, { poolSize: 1 });
    for (const name of Object.values(names)) await sql`create database ${sql.id(name)}`.execute(admin);
  });
  afterAll(async () => {
    for (const name of Object.values(names)) await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
    await Promise.all([s3?.stop(), s3Target?.stop()]);
    await fsp.rm(root, { recursive: true, force: true });
  });

  it("restores every row and byte the backup saw, and the restored app serves the orders", { timeout: 300_000 }, async () => {
    const sourceDatabase = { kind: "postgres" as const, url: databaseUrl(names.source) };
    const source: Side = { database: sourceDatabase, db: await openDatabase(sourceDatabase), storage: createStorage({ storage: s3.storage, buckets }) };
    await migrateToLatest(source.db);
    await source.storage.ensureBuckets();
    const targetDatabase = { kind: "postgres" as const, url: databaseUrl(names.target) };
    const target: Side = { database: targetDatabase, db: undefined as unknown as DB, storage: createStorage({ storage: s3Target.storage, buckets }) };
    try {
      await drill(source, target, path.join(root, "postgres.tar"), { DATABASE_URL: targetDatabase.url, ...s3AppEnv(s3Target), S3_BUCKET_ORDERS: buckets.orders, S3_BUCKET_LOGOS: buckets.logos, ...SECRETS });
    } finally {
      await source.db.destroy();
    }
  });
});
