import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETENTION } from "~/modules/config/retention";
import { runHousekeeping } from "~/modules/jobs/scheduled.server";
import { appendFiles } from "~/modules/orders/files.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { postMessage } from "~/modules/messages/thread.server";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { storageKey } from "~/modules/uploads/file-names";
import { type TestApp, startApp } from "../../support/app";
import { buildOrder, buildOrderIn, buildPatient, customer, paymentActor, staff } from "../../support/builders";
import { follow, rendered, signedInAs, toastOf } from "../backoffice/support";

/**
 * A clinic's erasure request (ADR 079), over HTTP against the real app and its folder storage: the
 * clinic asks in its cabinet (the box must be ticked), an admin approves after a question, the
 * first pass deletes the unpaid orders and anonymises the finished ones, an order in production
 * waits until it ships and the scheduled job finishes the erasure; the accounting record stays.
 */
describe("a clinic's erasure request", () => {
  let app: TestApp;
  let storage: FileStorage;
  const email = `erase-${Date.now()}@clinic.ru`;
  const orders: Record<string, string> = {};
  let modelKey: string;

  beforeAll(async () => {
    app = await startApp();
    storage = createStorage({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } });
    const db = app.database.db;
    const draft = await buildOrder(db, { email });
    orders.draft = draft.id;
    orders.pending = (await buildOrderIn(db, "pending", { email })).id;
    // A completed order whose model was uploaded while it was a draft.
    const completed = await buildOrder(db, { email, fullName: "Соколова Мария", phone: "+7 900 555-44-33", address: "Казань, ул. Баумана, 2" });
    orders.completed = completed.id;
    const patient = await buildPatient(db, completed.id, "Орлов Кирилл");
    modelKey = storageKey(completed.id, patient.folder_name, "aligners", "orlov-upper.stl");
    await storage.put("orders", modelKey, Readable.from([Buffer.from("solid orlov")]), { contentLength: 11 });
    await appendFiles(db, completed, patient, "aligners", [{ originalName: "Орлов верх.stl", key: modelKey, size: 11, triangles: 0 }]);
    await db.updateTable("orders").set({ total_cost: 1250000 }).where("id", "=", completed.id).execute();
    for (const [to, actor] of [["pending", customer], ["paid", paymentActor], ["completed", staff]] as const) await changeOrderStatus(db, completed.id, to, actor);
    await db
      .insertInto("payments")
      .values({ order_id: completed.id, order_code: completed.code, provider: "sandbox", amount: 1250000, currency: "rub", status: "succeeded", idempotence_key: `erase-${completed.id}`, lines: JSON.stringify([{ description: "Элайнеры", quantity: 2, price: 625000 }]), customer_business_name: "ООО Улыбка" })
      .execute();
    // The completed order's thread (ADR 104): it goes with the clinic's personal data.
    await postMessage(db, { orderId: completed.id, side: "clinic", author: email, body: "Пациент Орлов, верх" });
    await postMessage(db, { orderId: completed.id, side: "lab", author: "lab@aligner.test", body: "Заметка", labOnly: true });
    orders.processing = (await buildOrderIn(db, "processing", { email })).id;
    orders.other = (await buildOrderIn(db, "completed", { email: "another-clinic@clinic.ru" })).id;
    // Their status mails went long ago (an erasure waits for a mail of the last day).
    await db.updateTable("order_status_history").set({ notified_at: new Date() }).where("order_id", "in", Object.values(orders)).execute();
    await db.insertInto("client_settings").values({ email, discount_percentage: "10", personal_comment: "Постоянный клиент" }).execute();
    const partner = await db.insertInto("partner_codes").values({ code: "ERASEA", user_email: "partner@partner.ru", reward_percentage: 10 }).returning("id").executeTakeFirstOrThrow();
    await db.insertInto("partner_affiliates").values({ partner_code_id: partner.id, affiliate_email: email }).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const requestRow = () => app.database.db.selectFrom("erasure_requests").selectAll().where("pseudonym", "like", "erased-%").orderBy("requested_at", "desc").executeTakeFirst();

  it("the cabinet says what goes and what stays, and refuses a request whose box is not ticked", async () => {
    const clinic = await signedInAs(app, app.database.db, email);
    const page = rendered(await (await clinic.request("/cabinet/erasure")).text());
    expect(page).toContain("Удаление ваших данных");
    expect(page).toContain("Неоформленные и неоплаченные заказы: 2");
    expect(page).toContain("Отправленные, выполненные и отменённые заказы: 1");
    expect(page).toContain("Оплаченные заказы в работе: 1");
    expect(page).toContain(`${DEFAULT_RETENTION.accountingRecords} лет после оплаты`);

    const unticked = await clinic.request("/cabinet/erasure", { form: { intent: "request" } });
    expect(unticked.status).toBe(400);
    expect(rendered(await unticked.text())).toContain("Отметьте, что вы понимаете последствия удаления");
    expect(await requestRow()).toBeUndefined();
  });

  it("a clinic may withdraw its request while it waits", async () => {
    const other = await signedInAs(app, app.database.db, "changes-mind@clinic.ru");
    await other.request("/cabinet/erasure", { form: { intent: "request", confirm: "yes" } });
    expect(await app.database.db.selectFrom("erasure_requests").select("id").where("email", "=", "changes-mind@clinic.ru").executeTakeFirst()).toBeDefined();
    const withdrawn = await other.request("/cabinet/erasure", { form: { intent: "withdraw" } });
    expect(toastOf(await follow(other, withdrawn))).toEqual(["Запрос на удаление отозван"]);
    expect(await app.database.db.selectFrom("erasure_requests").select("id").where("email", "=", "changes-mind@clinic.ru").executeTakeFirst()).toBeUndefined();
  });

  it("staff see the request; only an admin approves it, after a question; the first pass erases all but the order in production", async () => {
    const clinic = await signedInAs(app, app.database.db, email);
    const asked = await clinic.request("/cabinet/erasure", { form: { intent: "request", confirm: "yes" } });
    expect(toastOf(await follow(clinic, asked))).toEqual(["Запрос на удаление отправлен"]);
    const row = await app.database.db.selectFrom("erasure_requests").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(rendered(await (await clinic.request("/cabinet/erasure")).text())).toMatch(/Запрос от \d\d\.\d\d\.\d{4} ждёт решения администратора/);

    const manager = await signedInAs(app, app.database.db, "manager@lab.ru", ["manager"]);
    expect((await manager.request("/backoffice/erasures")).status).toBe(403);
    expect((await manager.request("/backoffice/erasures", { form: { intent: "approve", id: row.id } })).status).toBe(403);

    const admin = await signedInAs(app, app.database.db, "admin@lab.ru", ["admin"]);
    const list = rendered(await (await admin.request("/backoffice/erasures")).text());
    expect(list).toContain(email);
    const question = rendered(await (await admin.request(`/backoffice/erasures?confirm=${row.id}`)).text());
    expect(question).toContain("Удалить данные клиники?");
    expect(question).toContain(`Все заказы ${email} будут удалены или обезличены`);

    const approved = await admin.request("/backoffice/erasures", { form: { intent: "approve", id: row.id } });
    expect(toastOf(await follow(admin, approved))).toEqual(["Удаление начато", "Удалено заказов: 2, обезличено: 1, файлов: 1; ждут отправки: 1."]);

    const db = app.database.db;
    const left = await db.selectFrom("orders").select(["id", "email", "full_name", "phone", "address", "anonymised_at", "total_cost", "status"]).where("id", "in", Object.values(orders)).execute();
    const byId = new Map(left.map((order) => [order.id, order]));
    expect(byId.has(orders.draft!)).toBe(false);
    expect(byId.has(orders.pending!)).toBe(false);
    const completed = byId.get(orders.completed!)!;
    expect(completed).toMatchObject({ email: row.pseudonym, full_name: null, phone: null, address: null, status: "completed", total_cost: 1250000 });
    expect(completed.anonymised_at).not.toBeNull();
    const patient = await db.selectFrom("orders_patients").select(["patient_name", "aligner_files_info"]).where("order_id", "=", orders.completed!).executeTakeFirstOrThrow();
    expect(patient.patient_name).toBe("—");
    expect(JSON.stringify(patient.aligner_files_info)).not.toContain("Орлов");
    expect(await db.selectFrom("order_messages").select("id").where("order_id", "=", orders.completed!).execute()).toEqual([]);
    expect(await db.selectFrom("order_threads").select("order_id").where("order_id", "=", orders.completed!).execute()).toEqual([]);
    expect(await storage.list("orders", modelKey)).toEqual([]);
    const payment = await db.selectFrom("payments").select(["lines", "customer_business_name", "amount"]).where("order_id", "=", orders.completed!).executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ lines: [{ description: "Элайнеры", quantity: 2, price: 625000 }], customer_business_name: "ООО Улыбка", amount: 1250000 });
    // The order in production keeps its address; the account stays until it ships.
    expect(byId.get(orders.processing!)).toMatchObject({ email, anonymised_at: null });
    expect(await db.selectFrom("client_settings").select("email").where("email", "=", email).executeTakeFirst()).toBeDefined();
    expect(byId.get(orders.other!)?.email).toBe("another-clinic@clinic.ru");
    const going = rendered(await (await clinic.request("/cabinet/erasure")).text());
    expect(going).toMatch(/Удаление одобрено \d\d\.\d\d\.\d{4} и выполняется\. Заказов в работе, которые обезличатся после отправки: 1\./);
  });

  it("once the last order ships, the scheduled job finishes: the account is gone, the accounting record and the partner's referral stay", async () => {
    const db = app.database.db;
    await changeOrderStatus(db, orders.processing!, "shipped", staff, { trackingNumber: "RA000000002RU" });
    const clinic = await signedInAs(app, db, email);
    // The first run finds the "shipped" mail not yet sent (it waits out the undo window): the order waits for it.
    await runHousekeeping(db, storage);
    expect((await requestRow())?.completed_at).toBeNull();
    await sql`update order_status_history set created_at = now() - interval '1 hour' where order_id = ${orders.processing!} and to_status = 'shipped'`.execute(db);
    await runHousekeeping(db, storage);
    const shippedMail = await db.selectFrom("order_status_history").select(["notified_at", "mail_error"]).where("order_id", "=", orders.processing!).where("to_status", "=", "shipped").executeTakeFirstOrThrow();
    expect(shippedMail).toMatchObject({ mail_error: null });
    expect(shippedMail.notified_at).not.toBeNull();
    await runHousekeeping(db, storage);

    const row = (await requestRow())!;
    expect(row.completed_at).not.toBeNull();
    expect(row.email).toBe(row.pseudonym);
    expect([row.orders_deleted, row.orders_anonymised, row.files_deleted, row.orders_waiting]).toEqual([2, 2, 1, 0]);
    // Kept until the scheduled job's rule deletes the record: the period after the end of the year of the paid orders' last change.
    const paid = await db.selectFrom("orders").select((eb) => eb.fn.max("updated_at").as("last")).where("email", "=", row.pseudonym).where("paid_at", "is not", null).executeTakeFirstOrThrow();
    const keptUntil = await sql<{ at: Date }>`select date_trunc('year', ${paid.last as Date}::timestamptz) + make_interval(years => ${DEFAULT_RETENTION.accountingRecords + 1}) as at`.execute(db);
    expect(row.kept_until?.getTime()).toBe(keptUntil.rows[0]!.at.getTime());
    expect(row.kept_until!.getUTCFullYear()).toBe((paid.last as Date).getUTCFullYear() + DEFAULT_RETENTION.accountingRecords + 1);

    expect(await db.selectFrom("orders").select("id").where("email", "=", email).execute()).toEqual([]);
    expect(await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("client_settings").select("email").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    const referral = await db.selectFrom("partner_affiliate_order_stats").select(["affiliate_email", "orders_count"]).where("affiliate_email", "=", row.pseudonym).executeTakeFirstOrThrow();
    expect(referral.orders_count).toBe(2);
    // The clinic's session went with its account: the cabinet asks it to sign in.
    const cabinet = await clinic.request("/cabinet");
    expect(cabinet.status).toBe(302);

    const admin = await signedInAs(app, db, "admin@lab.ru", ["admin"]);
    const list = rendered(await (await admin.request("/backoffice/erasures")).text());
    expect(list).not.toContain(email);
    expect(list).toMatch(/Выполнено \d\d\.\d\d\.\d{4}/);
    expect(list).toContain("Удалено заказов: 2, обезличено: 2, файлов: 1");
  });

  it("an address with a back-office role is not erased until the role is removed", async () => {
    const db = app.database.db;
    await signedInAs(app, db, "staff-clinic@lab.ru", ["manager"]);
    const staffClinic = await signedInAs(app, db, "staff-clinic@lab.ru");
    await staffClinic.request("/cabinet/erasure", { form: { intent: "request", confirm: "yes" } });
    const row = await db.selectFrom("erasure_requests").select("id").where("email", "=", "staff-clinic@lab.ru").executeTakeFirstOrThrow();
    const admin = await signedInAs(app, db, "admin@lab.ru", ["admin"]);
    const refused = await admin.request("/backoffice/erasures", { form: { intent: "approve", id: row.id } });
    expect(toastOf(await follow(admin, refused))?.[1]).toContain("У этого адреса есть роль в бэк-офисе");
    expect((await db.selectFrom("erasure_requests").select("approved_at").where("id", "=", row.id).executeTakeFirstOrThrow()).approved_at).toBeNull();
  });
});
