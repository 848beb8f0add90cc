import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/modules/db/db.server";
import { PAID_SET } from "~/modules/orders/status";
import { ORDER_STATUSES, QUEUE_STATUSES, type FileInfo } from "~db/schema";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createStorage } from "~/modules/storage/storage.server";
import { createStlScanner } from "~/modules/uploads/scan";
import { DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL, DEMO_MODEL, seedDemoData, storeDemoFiles, type SeedSummary } from "~/modules/demo/seed.server";
import { createTestDatabase, DATABASE_KINDS, databaseOfKind, type TestDatabase } from "../../support/database";

const DAY = 86_400_000;

describe.each(DATABASE_KINDS)("demo seed on %s", (_name, kind) => {
  let database: Awaited<ReturnType<typeof databaseOfKind>>;
  let db: DB;
  let first: SeedSummary;
  const now = new Date();

  beforeAll(async () => {
    database = await databaseOfKind(kind);
    db = database.db;
    first = await seedDemoData(db, { now });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("loads orders in every status and queue entries in every state", async () => {
    expect(first.seeded).toBe(true);
    const orders = await db.selectFrom("orders").select("status").execute();
    expect(orders.length).toBeGreaterThanOrEqual(25);
    expect(new Set(orders.map((row) => row.status))).toEqual(new Set(ORDER_STATUSES));
    const queue = await db.selectFrom("ftp_uploads_queue").select("status").execute();
    expect(new Set(queue.map((row) => row.status))).toEqual(new Set(QUEUE_STATUSES));
    for (const table of Object.keys(first.counts) as Array<keyof SeedSummary["counts"]>) {
      expect(first.counts[table], table).toBeGreaterThan(0);
    }
  });

  it("reserves every order's code and records its creation and each change in history", async () => {
    const orders = await db.selectFrom("orders").selectAll().execute();
    const codes = await db.selectFrom("order_codes").selectAll().execute();
    const history = await db.selectFrom("order_status_history").selectAll().orderBy("created_at").orderBy("id").execute();
    for (const order of orders) {
      expect(codes.find((code) => code.order_id === order.id)?.code, order.code).toBe(order.code);
      const rows = history.filter((row) => row.order_id === order.id);
      expect(rows[0]).toMatchObject({ from_status: null, to_status: "draft" });
      expect(rows.filter((row) => row.from_status === null)).toHaveLength(1);
      expect(rows.at(-1)?.to_status).toBe(order.status);
      // Spread over the last 90 days, nothing in the future.
      expect(order.created_at.getTime()).toBeGreaterThan(now.getTime() - 91 * DAY);
      expect(order.updated_at.getTime()).toBeLessThanOrEqual(now.getTime());
      for (const row of rows) expect(row.created_at.getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it("keeps order fields consistent with their status", async () => {
    const orders = await db.selectFrom("orders").selectAll().execute();
    const patients = await db.selectFrom("orders_patients").select(["order_id"]).execute();
    const payments = await db.selectFrom("payments").selectAll().execute();
    const drafts = orders.filter((order) => order.status === "draft");
    for (const draft of drafts) expect(draft.wizard_step).toBeLessThanOrEqual(10);
    expect(drafts.filter((draft) => !patients.some((patient) => patient.order_id === draft.id)).length).toBeGreaterThanOrEqual(2);
    for (const order of orders.filter((order) => order.status !== "draft")) {
      expect(order.wizard_step).toBe(11);
      expect(order.total_cost ?? 0).toBeGreaterThan(0);
    }
    for (const order of orders.filter((order) => PAID_SET.includes(order.status))) {
      expect(order.paid_at, order.code).toBeInstanceOf(Date);
      const succeeded = payments.filter((payment) => payment.order_id === order.id && payment.status === "succeeded");
      expect(succeeded).toHaveLength(1);
      expect(succeeded[0]).toMatchObject({ amount: order.total_cost, currency: order.currency, order_code: order.code, provider: "sandbox" });
    }
    for (const order of orders.filter((order) => order.status === "shipped")) expect(order.tracking_number).toBeTruthy();
    expect(payments.some((payment) => payment.status === "pending")).toBe(true);
    expect(payments.some((payment) => payment.status === "canceled")).toBe(true);
    const international = orders.filter((order) => order.market === "international");
    expect(international.length).toBeGreaterThan(0);
    for (const order of international) expect(order.currency).toBe("eur");
  });

  it("stores every file under its own order and queues it for its folder on the file server", async () => {
    const orders = await db.selectFrom("orders").select(["id", "code"]).execute();
    const codeOf = new Map(orders.map((order) => [order.id, order.code]));
    const patients = await db.selectFrom("orders_patients").selectAll().execute();
    const queue = await db.selectFrom("ftp_uploads_queue").selectAll().execute();
    const handOffs = await db.selectFrom("order_status_history").select(["order_id", "created_at"]).where("to_status", "=", "pending").execute();
    const paths = new Set<string>();
    for (const patient of patients) {
      const code = codeOf.get(patient.order_id)!;
      expect(patient.folder_name).toMatch(new RegExp(`^${code}_\\d+$`));
      const lists: Array<[string, FileInfo[]]> = [
        ["matrix", patient.matrix_files_info],
        ["aligners", patient.aligner_files_info],
        ["retainer", patient.retainer_files_info],
      ];
      for (const [type, files] of lists) {
        for (const file of files) {
          expect(file.storagePath.startsWith(`order_${patient.order_id}/${patient.folder_name}/${type}/`), file.storagePath).toBe(true);
          expect(file.storagePath).toMatch(/^[A-Za-z0-9._/-]+$/);
          expect(file.url).toBe(`/files/orders/${file.storagePath}`);
          expect(file.type).toBe("model/stl");
          expect(file.size).toBe(84 + 50 * file.triangles!);
          // Composition is frozen at hand-off: every file was uploaded before the order first went to payment.
          for (const handOff of handOffs.filter((row) => row.order_id === patient.order_id)) {
            expect(Date.parse(file.uploadedAt!)).toBeLessThan(handOff.created_at.getTime());
          }
          paths.add(file.storagePath);
        }
      }
    }
    expect(paths.size).toBeGreaterThan(50);
    expect(queue).toHaveLength(paths.size);
    for (const entry of queue) {
      expect(paths.has(entry.file_path)).toBe(true);
      const patient = patients.find((row) => row.id === entry.patient_id)!;
      expect(entry.order_prefix).toBe(codeOf.get(entry.order_id));
      expect(entry.destination_path).toBe(`/AlignersFactory/${entry.order_prefix}/${patient.folder_name}/${entry.file_type}`);
      if (entry.status === "completed") expect(entry.completed_at).toBeInstanceOf(Date);
      if (entry.status === "failed") expect(entry.error_message && entry.attempts > 0 && entry.last_attempt_at).toBeTruthy();
      if (entry.status === "uploading") expect(entry.locked_until).toBeInstanceOf(Date);
    }
  });

  it("gives partners referrals, payouts and non-negative balances", async () => {
    const partners = await db.selectFrom("partner_codes").selectAll().execute();
    expect(partners).toHaveLength(3);
    for (const partner of partners) expect(partner.code).toMatch(/^[A-Z]{6}$/);
    const balances = await db.selectFrom("partner_balance_summary").selectAll().execute();
    expect(balances).toHaveLength(3);
    for (const balance of balances) {
      for (const value of [balance.accrued_total, balance.paid_total, balance.due_total]) {
        expect(typeof value).toBe("number");
        expect(value).toBeGreaterThanOrEqual(0);
      }
      expect(balance.due_total).toBe(balance.accrued_total - balance.paid_total);
    }
    expect(balances.filter((balance) => balance.accrued_total > 0).length).toBeGreaterThanOrEqual(2);
    expect(balances.filter((balance) => balance.paid_total > 0).length).toBeGreaterThanOrEqual(1);
    const stats = await db.selectFrom("partner_affiliate_order_stats").selectAll().execute();
    expect(stats.length).toBeGreaterThanOrEqual(5);
    for (const row of stats) {
      expect(row.orders_count).toBeGreaterThanOrEqual(0);
      expect(row.orders_sum).toBeGreaterThanOrEqual(row.eligible_orders_sum);
      expect(row.eligible_orders_sum).toBeGreaterThanOrEqual(0);
      if (row.orders_count > 0) expect(row.is_active).toBe(true);
    }
    const affiliates = await db.selectFrom("partner_affiliates").selectAll().execute();
    const withOrders = affiliates.filter((affiliate) => affiliate.first_order_id);
    expect(withOrders.length).toBeGreaterThanOrEqual(4);
    const clientEmails = new Set((await db.selectFrom("client_settings").select("email").execute()).map((row) => row.email));
    for (const affiliate of withOrders) expect(clientEmails.has(affiliate.affiliate_email)).toBe(true);
  });

  it("creates the staff users with their roles", async () => {
    const roles = await db
      .selectFrom("user_roles")
      .innerJoin("users", "users.id", "user_roles.user_id")
      .select(["users.email", "user_roles.role"])
      .execute();
    expect(roles).toEqual(
      expect.arrayContaining([
        { email: DEMO_ADMIN_EMAIL, role: "admin" },
        { email: DEMO_MANAGER_EMAIL, role: "manager" },
      ]),
    );
    const sessions = await db.selectFrom("sessions").select("id").execute();
    expect(sessions).toHaveLength(0);
  });

  it("stores a real STL under every recorded file, once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-files-"));
    try {
      const storage = createStorage({ storage: { kind: "folder", dir }, buckets: { orders: "orders", logos: "logos" } });
      await storage.ensureBuckets();
      const queue = await db.selectFrom("ftp_uploads_queue").select("file_path").execute();
      expect(await storeDemoFiles(db, storage)).toBe(new Set(queue.map((entry) => entry.file_path)).size);
      for (const entry of queue.slice(0, 5)) expect(await storage.head("orders", entry.file_path)).toMatchObject({ size: DEMO_MODEL.length });
      expect(await storeDemoFiles(db, storage)).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // What the upload checks say about it: a closed binary STL of an arch's size, nothing to warn about.
    const scanner = createStlScanner();
    scanner.update(DEMO_MODEL);
    const { verdict, scan } = scanner.finish();
    expect(verdict).toEqual({ ok: true, format: "binary", triangles: 512 });
    expect(scan).toMatchObject({ size: { x: 60, y: 40, z: 25 }, degenerate: 0, boundaryEdges: 0, warnings: [] });
  });

  it("changes nothing when run again", async () => {
    const again = await seedDemoData(db, { now: new Date(now.getTime() + DAY) });
    expect(again.seeded).toBe(false);
    expect(again.counts).toEqual(first.counts);
  });
});

describe("demo seed determinism", () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it("loads the same data on every run for the same date (only generated ids differ)", async () => {
    const now = new Date("2026-11-22T09:00:00Z");
    const snapshots: unknown[] = [];
    for (let run = 0; run < 2; run++) {
      const database = await createTestDatabase(4);
      databases.push(database);
      await seedDemoData(database.db, { now });
      const orders = await database.db
        .selectFrom("orders")
        .select(["status", "email", "total_cost", "created_at", "paid_at", "wizard_step", "tracking_number"])
        .orderBy("created_at")
        .execute();
      const patients = await database.db
        .selectFrom("orders_patients")
        .select(["patient_name", "material_type", "cut_type", "matrix_type", "created_at"])
        .orderBy("created_at")
        .execute();
      const queue = await database.db.selectFrom("ftp_uploads_queue").select(["status", "original_name", "file_size", "created_at"]).orderBy("created_at").orderBy("original_name").execute();
      const payouts = await database.db.selectFrom("partner_payouts").select(["amount", "period_year", "period_quarter"]).orderBy("amount").execute();
      snapshots.push({ orders, patients, queue, payouts });
    }
    expect(snapshots[1]).toEqual(snapshots[0]);
  });
});
