import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/modules/log/logger.server";
import { loadConfig } from "~/modules/config/config.server";
import { DEFAULT_RETENTION, type RetentionPeriods } from "~/modules/config/retention";
import { HOUSEKEEPING_LIMITS, runHousekeeping } from "~/modules/jobs/scheduled.server";
import { ORDERS_AT_ONCE } from "~/modules/jobs/retention.server";
import { appendFiles } from "~/modules/orders/files.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { storageKey } from "~/modules/uploads/file-names";
import { buildOrder, buildPatient, buildPayment, customer, paymentActor, staff } from "../../support/builders";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startApp, type TestApp } from "../../support/app";
import { COMPANY_INTERNATIONAL } from "../../support/company";
import { browserIn, MARKET_HOSTS } from "../i18n/support";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import type { OrderStatus } from "~db/schema";

/**
 * Retention enforced (issue 45, ADR 074): for each period of the privacy notices, the clock is moved
 * past it (the rows' times set back) and the scheduled job's housekeeping finds the data gone, and
 * what accounting keeps, kept; just inside the period nothing changes. The notices and the job read
 * one list: a period changed in it changes both.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("retention periods enforced by the scheduled job", () => {
  let t: TestDatabase;
  let storage: FileStorage;
  let storageDir: string;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "retention-"));
    storage = createStorage({ storage: { kind: "folder", dir: storageDir }, buckets: { orders: "orders", logos: "logos" } });
  });
  afterAll(async () => {
    await t.drop();
    fs.rmSync(storageDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const table of ["orders", "sessions", "sign_in_tokens", "request_replays", "payment_events"] as const) await t.db.deleteFrom(table).execute();
  });

  const housekeeping = (retention: RetentionPeriods = DEFAULT_RETENTION, limits?: { batch: number; filesBatch: number; budgetMs: number }) =>
    runHousekeeping(t.db, storage, { retention, limits });
  /** Moves the order's last change `ms` into the past. */
  const lastChanged = (orderId: string, ms: number) => sql`update orders set updated_at = ${new Date(Date.now() - ms)} where id = ${orderId}`.execute(t.db);
  const exists = async (orderId: string) => Boolean(await t.db.selectFrom("orders").select("id").where("id", "=", orderId).executeTakeFirst());

  /** A patient with one stored model, listed on the order and queued for the file server. */
  async function withModel(order: Awaited<ReturnType<typeof buildOrder>>, patientName = "Смирнова Елена") {
    const patient = await buildPatient(t.db, order.id, patientName);
    const key = storageKey(order.id, patient.folder_name, "matrix", "upper.stl");
    await storage.put("orders", key, Readable.from([Buffer.from("solid upper")]), { contentLength: 11 });
    await appendFiles(t.db, order, patient, "matrix", [{ originalName: `${patientName} верх.stl`, key, size: 11, triangles: 0 }]);
    return { patient, key };
  }
  const PATH: Record<string, Array<[OrderStatus, typeof customer]>> = {
    shipped: [["pending", customer], ["paid", paymentActor], ["processing", staff], ["shipped", staff]],
    completed: [["pending", customer], ["paid", paymentActor], ["completed", staff]],
    cancelled: [["cancelled", staff]],
  };
  /** An order with one stored model (uploaded while a draft), walked to `status`. */
  async function orderIn(status: "shipped" | "completed" | "cancelled", overrides: Parameters<typeof buildOrder>[1] = {}, patientName?: string) {
    const draft = await buildOrder(t.db, overrides);
    const model = await withModel(draft, patientName);
    await t.db.updateTable("orders").set({ total_cost: 1250000 }).where("id", "=", draft.id).execute();
    let order = draft;
    for (const [to, actor] of PATH[status]!) order = (await changeOrderStatus(t.db, order.id, to, actor, to === "shipped" ? { trackingNumber: "RA000000001RU" } : undefined)).order;
    return { order, ...model };
  }
  const folder = (orderId: string) => storage.list("orders", `order_${orderId}/`);
  const deliverQueue = (orderId: string) => t.db.updateTable("ftp_uploads_queue").set({ status: "completed", completed_at: new Date() }).where("order_id", "=", orderId).execute();

  it("a run on a storage that has never had a resumable upload logs no error (an operator hears only of real trouble)", async () => {
    const errors = vi.spyOn(logger, "error");
    try {
      await housekeeping();
      expect(errors.mock.calls.map((call) => call.map(String).join(" "))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it("abandoned drafts: a draft unchanged past the period goes with its files; one inside it stays", async () => {
    const old = await buildOrder(t.db);
    const oldModel = await withModel(old);
    const young = await buildOrder(t.db);
    await withModel(young);
    await lastChanged(old.id, (DEFAULT_RETENTION.abandonedDraft + 1) * DAY);
    await lastChanged(young.id, (DEFAULT_RETENTION.abandonedDraft - 1) * DAY);

    const summary = await housekeeping();
    expect(summary.abandonedDraftsDeleted).toBe(1);
    expect(await exists(old.id)).toBe(false);
    expect(await storage.list("orders", oldModel.key)).toEqual([]);
    expect(await exists(young.id)).toBe(true);
    expect(await folder(young.id)).toHaveLength(1);
  });

  it("models: a shipped order's files go the period after its last change once every file reached production; the lists stay", async () => {
    const { order: delivered } = await orderIn("shipped");
    await deliverQueue(delivered.id);
    const { order: stillSending } = await orderIn("completed");
    const { order: recent } = await orderIn("shipped");
    await deliverQueue(recent.id);
    const { order: cancelled } = await orderIn("cancelled");
    for (const order of [delivered, stillSending, cancelled]) await lastChanged(order.id, (DEFAULT_RETENTION.models + 1) * DAY);
    await lastChanged(recent.id, (DEFAULT_RETENTION.models - 1) * DAY);

    const summary = await housekeeping();
    expect(summary.modelFoldersRemoved).toBe(2);
    expect(await folder(delivered.id)).toEqual([]);
    expect(await folder(cancelled.id)).toEqual([]);
    expect(await folder(stillSending.id)).toHaveLength(1);
    expect(await folder(recent.id)).toHaveLength(1);
    const row = await t.db.selectFrom("orders_patients").select("matrix_files_info").where("order_id", "=", delivered.id).executeTakeFirstOrThrow();
    expect(row.matrix_files_info).toHaveLength(1);
    const order = await t.db.selectFrom("orders").select(["storage_removed_at", "email"]).where("id", "=", delivered.id).executeTakeFirstOrThrow();
    expect(order.storage_removed_at).not.toBeNull();
    expect(order.email).not.toBeNull(); // personal data has its own, longer period
  });

  it("orders' personal data: past the period names, contacts, address, patients, file names and files go; the accounting record stays", async () => {
    const { order: old, key } = await orderIn("completed", { email: "old-clinic@clinic.test", fullName: "Иванова Анна", phone: "+7 900 111-22-33", address: "Москва, ул. Тверская, 1" }, "Смирнова Елена");
    await t.db.updateTable("orders").set({ delivery_comment: "звонить заранее", additional_comments: "Смирнова — аллергия" }).where("id", "=", old.id).execute();
    await t.db.updateTable("order_status_history").set({ note: "Смирнова просила ускорить" }).where("order_id", "=", old.id).execute();
    const payment = await t.db
      .insertInto("payments")
      .values({
        order_id: old.id,
        order_code: old.code,
        provider: "sandbox",
        amount: 1250000,
        currency: "rub",
        status: "succeeded",
        idempotence_key: `retention-${old.id}`,
        lines: JSON.stringify([{ description: "Элайнеры", quantity: 2, price: 625000 }]),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const years = DEFAULT_RETENTION.orderPersonalData;
    await sql`insert into payment_events (provider, event_id, payment_id, type, payload, received_at)
      values ('sandbox', 'evt-old', ${payment.id}, 'payment.succeeded', '{"email": "old-clinic@clinic.test"}', now() - make_interval(years => ${years}, days => 1)),
             ('sandbox', 'evt-new', ${payment.id}, 'payment.succeeded', '{}', now() - make_interval(years => ${years - 1}))`.execute(t.db);
    const before = await t.db.selectFrom("orders").selectAll().where("id", "=", old.id).executeTakeFirstOrThrow();
    const { order: kept } = await orderIn("completed", {}, "Кузнецова Мария");
    await sql`update orders set updated_at = now() - make_interval(years => ${years}, days => 1) where id = ${old.id}`.execute(t.db);
    await sql`update orders set updated_at = now() - make_interval(years => ${years}) + interval '1 day' where id = ${kept.id}`.execute(t.db);

    const summary = await housekeeping();
    expect(summary.ordersAnonymised).toBe(1);
    expect(summary.paymentEventsPurged).toBe(1);

    const after = await t.db.selectFrom("orders").selectAll().where("id", "=", old.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ email: null, full_name: null, phone: null, address: null, delivery_comment: null, additional_comments: null });
    expect(after.anonymised_at).not.toBeNull();
    // What accounting keeps: the number, status, money, choices and dates.
    for (const column of ["code", "status", "market", "currency", "total_cost", "discount_percentage", "paid_at", "created_at", "material_type", "cut_type"] as const) {
      expect(after[column], column).toEqual(before[column]);
    }
    const paymentAfter = await t.db.selectFrom("payments").select(["amount", "lines", "order_code", "status"]).where("id", "=", payment.id).executeTakeFirstOrThrow();
    expect(paymentAfter).toEqual({ amount: 1250000, lines: [{ description: "Элайнеры", quantity: 2, price: 625000 }], order_code: old.code, status: "succeeded" });
    expect((await t.db.selectFrom("payment_events").select("event_id").execute()).map((row) => row.event_id)).toEqual(["evt-new"]);
    expect((await t.db.selectFrom("order_status_history").select("to_status").where("order_id", "=", old.id).execute()).length).toBeGreaterThan(0);

    const patient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", old.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(patient)).not.toMatch(/Смирнова/);
    expect(patient.matrix_files_info).toEqual([expect.objectContaining({ size: 11, type: expect.any(String) })]);
    expect(patient.matrix_files_info[0]).not.toHaveProperty("originalName");
    expect(await storage.list("orders", key)).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", old.id).execute()).toEqual([]);
    const notes = await t.db.selectFrom("order_status_history").select("note").where("order_id", "=", old.id).where("note", "is not", null).execute();
    expect(notes).toEqual([]);

    // Inside its period the other order keeps everything.
    const keptAfter = await t.db.selectFrom("orders").select(["email", "anonymised_at"]).where("id", "=", kept.id).executeTakeFirstOrThrow();
    expect(keptAfter.email).toBe(kept.email);
    expect(keptAfter.anonymised_at).toBeNull();
    expect((await t.db.selectFrom("orders_patients").select("patient_name").where("order_id", "=", kept.id).executeTakeFirstOrThrow()).patient_name).toBe("Кузнецова Мария");
    expect(await folder(kept.id)).toHaveLength(1);

    // A second run finds nothing more to do.
    expect((await housekeeping()).ordersAnonymised).toBe(0);
  });

  it("accounting records: an anonymised order last changed in a year that ended the period ago goes with its payments; one changed on the next new year's day stays, as do payouts inside the period", async () => {
    const years = DEFAULT_RETENTION.accountingRecords;
    const thisYear = new Date().getUTCFullYear();
    // The period counts from the end of the year of the last change: the last moment of year Y-N-1 is past it, the first of Y-N is not.
    const pastIt = new Date(Date.UTC(thisYear - years - 1, 11, 31, 12));
    const insideIt = new Date(Date.UTC(thisYear - years, 0, 1, 12));
    const anonymisedAt = async (at: Date) => {
      const { order } = await orderIn("completed");
      const payment = await buildPayment(t.db, order);
      await sql`update orders set anonymised_at = now(), email = null, storage_removed_at = now(), updated_at = ${at} where id = ${order.id}`.execute(t.db);
      return { order, paymentId: payment.id };
    };
    const old = await anonymisedAt(pastIt);
    const kept = await anonymisedAt(insideIt);
    // A payment whose order was deleted long ago (a staff deletion): the same period, from its own last change.
    const orphan = await t.db
      .insertInto("payments")
      .values({ order_id: null, order_code: "dead", provider: "sandbox", amount: 100, currency: "rub", status: "canceled", idempotence_key: "accounting-orphan", updated_at: pastIt })
      .returning("id")
      .executeTakeFirstOrThrow();
    const partner = await t.db.insertInto("partner_codes").values({ code: "KEEPAB", user_email: "keep@partner.test", reward_percentage: 10 }).returning("id").executeTakeFirstOrThrow();
    await t.db
      .insertInto("partner_payouts")
      .values([
        { partner_code_id: partner.id, amount: 5000, period_year: thisYear - years - 1, period_quarter: 4, paid_at: pastIt },
        { partner_code_id: partner.id, amount: 7000, period_year: thisYear - years, period_quarter: 1, paid_at: insideIt },
      ])
      .execute();

    try {
      const summary = await housekeeping();
      expect(summary).toMatchObject({ accountingOrdersDeleted: 1, paymentsWithoutOrderDeleted: 1, partnerPayoutsDeleted: 1 });
      expect(await exists(old.order.id)).toBe(false);
      expect(await t.db.selectFrom("payments").select("id").where("id", "in", [old.paymentId, orphan.id]).execute()).toEqual([]);
      expect(await t.db.selectFrom("order_status_history").select("id").where("order_id", "=", old.order.id).execute()).toEqual([]);
      expect(await exists(kept.order.id)).toBe(true);
      expect(await t.db.selectFrom("payments").select("amount").where("id", "=", kept.paymentId).executeTakeFirst()).toEqual({ amount: 1250000 });
      expect((await t.db.selectFrom("partner_payouts").select("amount").execute()).map((row) => Number(row.amount))).toEqual([7000]);
      // An order that is old but still carries its personal data is the personal-data period's to anonymise first, never deleted whole by this one.
      const { order: named } = await orderIn("completed");
      await sql`update orders set updated_at = ${pastIt} where id = ${named.id}`.execute(t.db);
      const next = await housekeeping({ ...DEFAULT_RETENTION, orderPersonalData: years + 5 });
      expect(next.accountingOrdersDeleted).toBe(0);
      expect(await exists(named.id)).toBe(true);
    } finally {
      await t.db.deleteFrom("partner_payouts").execute();
      await t.db.deleteFrom("partner_codes").where("id", "=", partner.id).execute();
      await t.db.deleteFrom("payments").execute();
    }
  });

  it("sign-in links: a record the period past its expiry goes; a younger one stays", async () => {
    const hours = DEFAULT_RETENTION.signInLinks;
    const token = (id: string, expiredMsAgo: number) =>
      t.db.insertInto("sign_in_tokens").values({ email: `${id}@clinic.test`, token_hash: id, code_hash: id, expires_at: new Date(Date.now() - expiredMsAgo) }).execute();
    await token("old", (hours + 1) * HOUR);
    await token("young", (hours - 1) * HOUR);
    expect((await housekeeping()).signInTokensPurged).toBe(1);
    expect((await t.db.selectFrom("sign_in_tokens").select("token_hash").execute()).map((row) => row.token_hash)).toEqual(["young"]);
  });

  it("answers kept for resent forms: one older than the period goes; a younger one stays", async () => {
    const hours = DEFAULT_RETENTION.resentAnswers;
    const replay = (key: string, ageMs: number) => t.db.insertInto("request_replays").values({ key, target: "POST /order", created_at: new Date(Date.now() - ageMs) }).execute();
    await replay("old", (hours + 1) * HOUR);
    await replay("young", (hours - 1) * HOUR);
    expect((await housekeeping()).requestReplaysPurged).toBe(1);
    expect((await t.db.selectFrom("request_replays").select("key").execute()).map((row) => row.key)).toEqual(["young"]);
  });

  it("removes at most a batch a run, and drains a backlog over runs", async () => {
    for (let i = 0; i < 5; i++) await t.db.insertInto("sessions").values({ id: `s${i}`, user_id: null, data: "{}", expires_at: new Date(Date.now() - DAY) }).execute();
    const limits = { batch: 2, filesBatch: 2, budgetMs: 1000 };
    expect((await housekeeping(DEFAULT_RETENTION, limits)).sessionsExpired).toBe(2);
    expect((await housekeeping(DEFAULT_RETENTION, limits)).sessionsExpired).toBe(2);
    expect((await housekeeping(DEFAULT_RETENTION, limits)).sessionsExpired).toBe(1);
    expect(await t.db.selectFrom("sessions").select("id").execute()).toEqual([]);
  });

  it("a large backlog shrinks by more than one group of orders a run, even on a slow storage, and the run stays within the job's budget", async () => {
    // Each list call of this storage takes 110 ms: a pass whose time began with the run's (ADR 074's
    // shared clock) had spent it before its first group was done, and removed one group a run.
    const slow: FileStorage = { ...storage, list: async (...args) => (await new Promise((resolve) => setTimeout(resolve, 110)), storage.list(...args)) };
    for (let i = 0; i < 45; i++) {
      const draft = await buildOrder(t.db);
      await withModel(draft);
      await lastChanged(draft.id, (DEFAULT_RETENTION.abandonedDraft + 1) * DAY);
    }
    for (let i = 0; i < 25; i++) {
      const { order } = await orderIn("completed");
      await deliverQueue(order.id);
      await lastChanged(order.id, (DEFAULT_RETENTION.models + 1) * DAY);
    }
    // Each pass's share is long enough here for a few groups on a loaded test machine (its database
    // statements, not only the storage's 110 ms, slow down with the machine); the production budget
    // is timed by bench/scale.mts.
    const limits = { ...HOUSEKEEPING_LIMITS, budgetMs: 4 * 1_500 };
    const summary = await runHousekeeping(t.db, slow, { retention: DEFAULT_RETENTION, limits });
    expect(summary.abandonedDraftsDeleted).toBeGreaterThan(ORDERS_AT_ONCE);
    expect(summary.modelFoldersRemoved).toBeGreaterThan(ORDERS_AT_ONCE);
    // The passes stop starting groups once their shares are spent: the run ends near its budget.
    expect(summary.ms).toBeLessThan(limits.budgetMs + 4_000);
    const left = await t.db.selectFrom("orders").select(sql<number>`count(*)::int`.as("n")).where("status", "=", "draft").executeTakeFirstOrThrow();
    expect(left.n).toBe(45 - summary.abandonedDraftsDeleted);
  });

  it("the job reads its periods from the configuration the notices read: RETENTION_DRAFT_DAYS=17 removes a draft unchanged for 18 days", async () => {
    const periods = loadConfig({ ...process.env, ...CHANGED_PERIODS }).retention;
    const draft = await buildOrder(t.db);
    await lastChanged(draft.id, 18 * DAY);
    const inside = await buildOrder(t.db);
    await lastChanged(inside.id, 16 * DAY);
    expect((await housekeeping(periods)).abandonedDraftsDeleted).toBe(1);
    expect(await exists(draft.id)).toBe(false);
    expect(await exists(inside.id)).toBe(true);
  });
});

/** Every period of the list changed from its default. */
const CHANGED_PERIODS = { RETENTION_DRAFT_DAYS: "17", RETENTION_MODEL_DAYS: "45", RETENTION_ORDER_YEARS: "7", RETENTION_SIGN_IN_HOURS: "5", RETENTION_RESENT_ANSWER_HOURS: "3", RETENTION_ACCOUNTING_YEARS: "12" };

describe("the privacy notices state the configured periods", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS, ...COMPANY_INTERNATIONAL, ...CHANGED_PERIODS } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("each market's notice, in English and Russian, names every period of the list as configured", async () => {
    const expected = { en: ["17 days", "45 days", "7 years", "5 hours", "3 hours", "12 years"], ru: ["17 дней", "45 дней", "7 лет", "5 часов", "3 часа", "12 лет"] };
    for (const market of ["domestic", "international"] as const) {
      for (const language of ["en", "ru"] as const) {
        const browser = await browserIn(app, market, language);
        const text = (await (await browser.request("/privacy")).text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
        for (const phrase of expected[language]) expect(text, `${market} ${language}: ${phrase}`).toContain(phrase);
        expect(text, `${market} ${language}`).not.toMatch(/\{\{retention/);
      }
    }
  });
});
