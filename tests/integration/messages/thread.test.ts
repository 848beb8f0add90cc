import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES_PER_HOUR } from "~/modules/messages/thread";
import { postMessage } from "~/modules/messages/thread.server";
import { type TestApp, startApp } from "../../support/app";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { type Browser, follow, rendered, signedInAs, toastOf } from "../backoffice/support";

/**
 * An order's thread (ADR 104) over HTTP against the real app, without JavaScript: staff ask on a
 * paid order, the doctor answers in the cabinet, staff answer; who the order waits for follows each
 * message; a lab note never reaches the clinic's page or its data request; bad input is refused in
 * place with nothing stored.
 */
describe("an order's thread", () => {
  let app: TestApp;
  let manager: Browser;
  let doctor: Browser;
  let otherDoctor: Browser;
  const email = `thread-${Date.now()}@clinic.ru`;
  let orderId: string;
  let otherOrderId: string;

  beforeAll(async () => {
    app = await startApp();
    const db = app.database.db;
    orderId = (await buildOrderIn(db, "paid", { email })).id;
    // The work list hides orders without patients unless asked.
    await buildPatient(db, orderId);
    otherOrderId = (await buildOrderIn(db, "paid", { email: "other-thread@clinic.ru" })).id;
    manager = await signedInAs(app, db, `lab-${Date.now()}@aligner.test`, ["manager"]);
    doctor = await signedInAs(app, db, email);
    otherDoctor = await signedInAs(app, db, "other-thread@clinic.ru");
  });
  afterAll(async () => {
    await app?.close();
  });

  const state = () => app.database.db.selectFrom("order_threads").selectAll().where("order_id", "=", orderId).executeTakeFirst();
  const messageCount = async () => (await app.database.db.selectFrom("order_messages").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;
  const boThread = (id = orderId) => `/backoffice/orders/${id}/thread`;
  const cabinet = (id = orderId) => `/cabinet/orders/${id}`;

  it("carries a question, its answer and the reply, and says who waits", async () => {
    const asked = await manager.request(boThread(), { form: { intent: "message", body: "Верхняя челюсть на шаге 3 — это точно верх?", asks: "on" } });
    expect(asked.status).toBe(302);
    expect(toastOf(await follow(manager, asked))).toEqual(["Сообщение отправлено"]);
    expect(await state()).toMatchObject({ waiting_on: "clinic", clinic_unread: 1 });

    // The cabinet's tab counts it and lists it, with the unread message on its card.
    const answerTab = async (path = "/cabinet") => {
      const html = await (await doctor.request(path)).text();
      return { count: Number(/>Нужен ваш ответ<span class="tab-count">(\d+)<\/span>/.exec(html)?.[1] ?? "NaN"), html: rendered(html) };
    };
    expect((await answerTab()).count).toBe(1);
    const listed = await answerTab("/cabinet?answer=1");
    expect(listed.html).toContain(`/cabinet/orders/${orderId}`);
    expect(listed.html).toContain("новых сообщений: 1");
    expect(listed.html).not.toContain(`/cabinet/orders/${otherOrderId}`);

    const page = rendered(await (await doctor.request(cabinet())).text());
    expect(page).toContain("Верхняя челюсть на шаге 3 — это точно верх?");
    expect(page).toContain("Лаборатория ждёт вашего ответа.");
    expect(await state()).toMatchObject({ clinic_unread: 0 });

    const answered = await doctor.request(cabinet(), { form: { intent: "message", body: "Да, верх. Файлы: https://example.com/scan" } });
    expect(answered.status).toBe(302);
    const after = await follow(doctor, answered);
    expect(after).toContain('<a href="https://example.com/scan" target="_blank" rel="noopener noreferrer nofollow">https://example.com/scan</a>');
    expect(await state()).toMatchObject({ waiting_on: "lab", lab_unread: 1 });
    expect((await answerTab()).count).toBe(0);

    const staffPage = rendered(await (await manager.request(boThread())).text());
    expect(staffPage).toContain("Да, верх.");
    expect(staffPage).toContain("Ждёт ответа лаборатории");
    expect(await state()).toMatchObject({ lab_unread: 0 });

    const replied = await manager.request(boThread(), { form: { intent: "message", body: "Спасибо, берём в работу." } });
    expect(replied.status).toBe(302);
    expect(await state()).toMatchObject({ waiting_on: null, waiting_since: null });
  });

  it("lists the orders that wait for the lab in the work list's tab, counted, the longest-waiting first, with their unread messages", async () => {
    const waitingCount = async () => {
      const html = await (await manager.request("/backoffice?status=waiting")).text();
      const tab = /href="[^"]*status=waiting[^"]*"[^>]*>Ждут ответа<span class="bo-tab-count"> (\d+)<\/span>/.exec(html);
      return { count: tab ? Number(tab[1]) : null, html };
    };
    expect((await waitingCount()).count).toBe(0);
    const older = (await buildOrderIn(app.database.db, "processing", { email })).id;
    await buildPatient(app.database.db, older);
    await doctor.request(cabinet(older), { form: { intent: "message", body: "Первый вопрос" } });
    await doctor.request(cabinet(), { form: { intent: "message", body: "Второй вопрос" } });
    const { count, html } = await waitingCount();
    expect(count).toBe(2);
    const first = html.indexOf(older.slice(0, 8));
    const second = html.indexOf(orderId.slice(0, 8));
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    expect(rendered(html)).toContain("новых сообщений: 1");
    await manager.request(boThread(older), { form: { intent: "message", body: "Отвечаем." } });
    await manager.request(boThread(), { form: { intent: "message", body: "Отвечаем тоже." } });
    expect((await waitingCount()).count).toBe(0);
  });

  it("ends the lab's wait when staff resolve the clinic's message", async () => {
    await doctor.request(cabinet(), { form: { intent: "message", body: "А когда отправка?" } });
    expect(await state()).toMatchObject({ waiting_on: "lab" });
    const last = await app.database.db.selectFrom("order_messages").select("id").where("order_id", "=", orderId).orderBy("id", "desc").executeTakeFirstOrThrow();
    const resolved = await manager.request(boThread(), { form: { intent: "resolve", message: String(last.id) } });
    expect(toastOf(await follow(manager, resolved))).toEqual(["Отмечено как решённое"]);
    expect(await state()).toMatchObject({ waiting_on: null });
  });

  it("keeps a lab note out of the clinic's page and its data request", async () => {
    const noted = await manager.request(boThread(), { form: { intent: "note", body: "Секрет лаборатории: проверить срез" } });
    expect(noted.status).toBe(302);
    expect(rendered(await (await manager.request(boThread())).text())).toContain("Заметка лаборатории — клиника её не видит");
    const before = await state();
    for (const url of [cabinet(), `${cabinet()}.data`]) {
      const body = await (await doctor.request(url)).text();
      expect(body).not.toContain("Секрет лаборатории");
    }
    // A note asks nobody and is no unread message for the clinic.
    expect(await state()).toMatchObject({ waiting_on: before?.waiting_on, clinic_unread: 0 });
  });

  it("gives a message to a staff member only", async () => {
    const last = await app.database.db.selectFrom("order_messages").select("id").where("order_id", "=", orderId).orderBy("id", "desc").executeTakeFirstOrThrow();
    const refused = await manager.request(boThread(), { form: { intent: "assign", message: String(last.id), assignee: email } });
    expect(toastOf(await follow(manager, refused))).toEqual(["Не назначено", "Назначить можно только сотрудника"]);
    const row = await app.database.db.selectFrom("order_messages").select("assigned_to").where("id", "=", last.id).executeTakeFirstOrThrow();
    expect(row.assigned_to).toBeNull();
  });

  it("shows a script as text and never as markup", async () => {
    await doctor.request(cabinet(), { form: { intent: "message", body: '<script>alert("x")</script><img src=x onerror=alert(1)>' } });
    const html = await (await manager.request(boThread())).text();
    expect(html).not.toContain('<script>alert("x")');
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(");
  });

  it("refuses an empty or over-long message in place, with what was typed, storing nothing", async () => {
    const count = await messageCount();
    const empty = await doctor.request(cabinet(), { form: { intent: "message", body: "   " } });
    expect(empty.status).toBe(400);
    expect(rendered(await empty.text())).toContain("Напишите сообщение");
    const long = "Очень длинно. ".repeat(400);
    const tooLong = await doctor.request(cabinet(), { form: { intent: "message", body: long } });
    expect(tooLong.status).toBe(400);
    const html = rendered(await tooLong.text());
    expect(html).toContain("Сообщение длиннее 4000 знаков — сократите его");
    expect(html).toContain(long.trim());
    expect(await messageCount()).toBe(count);
  });

  it("refuses another clinic's order and a forged id with 404, storing nothing", async () => {
    const count = await messageCount();
    expect((await otherDoctor.request(cabinet(), { form: { intent: "message", body: "Чужой заказ" } })).status).toBe(404);
    expect((await doctor.request(cabinet(otherOrderId), { form: { intent: "message", body: "Чужой заказ" } })).status).toBe(404);
    expect((await doctor.request("/cabinet/orders/not-an-order", { form: { intent: "message", body: "Подделка" } })).status).toBe(404);
    expect((await manager.request("/backoffice/orders/00000000-0000-4000-8000-000000000000/thread", { form: { intent: "message", body: "Подделка" } })).status).toBe(404);
    expect((await manager.request(boThread(), { form: { intent: "resolve", message: "1; drop table orders" } })).status).toBe(400);
    expect(await messageCount()).toBe(count);
    expect(rendered(await (await otherDoctor.request(cabinet(otherOrderId))).text())).not.toContain("Верхняя челюсть");
  });

  it("refuses more than the hour's messages from one sender, keeping the text", async () => {
    const sender = `busy-${Date.now()}@clinic.ru`;
    const busyOrder = (await buildOrderIn(app.database.db, "paid", { email: sender })).id;
    for (let i = 0; i < MESSAGES_PER_HOUR; i++) expect((await postMessage(app.database.db, { orderId: busyOrder, side: "clinic", author: sender, body: `№${i}` })).ok).toBe(true);
    const busy = await signedInAs(app, app.database.db, sender);
    const refused = await busy.request(cabinet(busyOrder), { form: { intent: "message", body: "Ещё одно" } });
    expect(refused.status).toBe(429);
    const html = rendered(await refused.text());
    expect(html).toContain("Слишком много сообщений за час — попробуйте позже");
    expect(html).toContain("Ещё одно");
    const stored = await app.database.db.selectFrom("order_messages").select((eb) => eb.fn.countAll<number>().as("n")).where("order_id", "=", busyOrder).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(MESSAGES_PER_HOUR);
  });
});
