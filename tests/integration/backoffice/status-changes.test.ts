import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { follow, gatePassed, rendered, signedInAs, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** A page's text as read: no scripts, tags or React's text separators. */
const textOf = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/**
 * Status changes staff can trust (ADR 062): every staff change can be undone for 10 minutes (from the
 * toast and from the order's history), its status mail waits that long, "Отправлен" records the
 * carrier and the doctor gets a link to follow the parcel; where the lab asks for it, a change that
 * skips a step asks first.
 */
describe("status changes staff can trust", () => {
  let t: TestDatabase;
  let app: TestApp;
  let staff: Browser;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    staff = await gatePassed(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const paidOrder = async (email = `status-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`) => {
    const order = await buildOrderIn(t.db, "paid", { email });
    await buildPatient(t.db, order.id);
    return order;
  };
  const post = (orderId: string, form: Record<string, string>) => staff.request(`/backoffice/orders/${orderId}/status`, { form: { back: "/backoffice", ...form } });
  const stateOf = async (orderId: string) => await t.db.selectFrom("orders").select(["status", "tracking_number", "carrier"]).where("id", "=", orderId).executeTakeFirstOrThrow();
  const historyOf = async (orderId: string) => await t.db.selectFrom("order_status_history").selectAll().where("order_id", "=", orderId).orderBy("created_at").orderBy("id").execute();
  /** Changes made 11 minutes ago: past the undo window. */
  const backdate = (column: "order_id" | "id", value: string | number) => sql`update order_status_history set created_at = now() - interval '11 minutes' where ${sql.ref(column)} = ${value}`.execute(t.db);
  const mails = async () => {
    const sent: Array<{ to: string; text: string }> = [];
    await sendStatusMails(t.db, { mailer: { kind: "outbox", send: async (message) => (sent.push({ to: String(message.to), text: String(message.text ?? "") }), { id: "1" }) }, publicUrl: "https://aligners.test" });
    return sent;
  };

  it("undoes 'Выполнить' from the toast: the order is paid again, both changes are in the history, and no mail goes for either", async () => {
    const order = await paidOrder();
    await mails(); // the paid mail, out of the way
    const done = await post(order.id, { to: "completed" });
    const page = await follow(staff, done);
    expect(toastOf(page)).toEqual(["Готово"]);
    expect(textOf(page)).toContain("Изменение можно вернуть в течение 10 минут");
    // The toast's "Вернуть" posts the change's history entry.
    const undo = page.match(/<input type="hidden" name="undo" value="(\d+)"\/>/)?.[1];
    expect(undo).toBeDefined();
    expect((await stateOf(order.id)).status).toBe("completed");
    // Within the window the completed mail waits.
    expect((await mails()).filter((mail) => mail.to === order.email)).toEqual([]);

    const undone = await post(order.id, { undo: undo! });
    expect(textOf(await follow(staff, undone))).toContain("снова: Оплачен");
    expect((await stateOf(order.id)).status).toBe("paid");
    const history = await historyOf(order.id);
    expect(history.slice(-2).map((entry) => [entry.from_status, entry.to_status, entry.undoes !== null])).toEqual([
      ["paid", "completed", false],
      ["completed", "paid", true],
    ]);
    expect(String(history.at(-1)!.undoes)).toBe(undo);
    expect(history.at(-1)!.actor).toMatch(/^back-office password/);
    // Neither the undone change nor the undo is ever mailed, even after the window.
    await backdate("order_id", order.id);
    expect((await mails()).filter((mail) => mail.to === order.email)).toEqual([]);
    // The dashboard's card shows the undo as its latest entry; the order's page marks the undone change too.
    const card = textOf(await (await staff.request(`/backoffice?q=${order.id.slice(0, 8)}`)).text());
    expect(card).toContain("Возврат изменения");
    const orderPage = textOf(await (await staff.request(`/backoffice/orders/${order.id}`)).text());
    expect(orderPage).toContain("возвращено");
    expect(orderPage).toContain("Возврат изменения");

    // The same undo again, an undo of the undo, and a forged entry change nothing.
    for (const forged of [undo!, String(history.at(-1)!.id), "999999999", "1"]) {
      const refused = await post(order.id, { undo: forged });
      expect(toastOf(await follow(staff, refused))).toEqual(["Не удалось обновить статус заказа...", "Это изменение уже нельзя вернуть"]);
      expect((await stateOf(order.id)).status).toBe("paid");
    }
    expect(toastOf(await follow(staff, await post(order.id, { undo: "12; drop table orders" })))).toEqual(["Не удалось обновить статус заказа...", "Это изменение уже нельзя вернуть"]);
  });

  it("undoes from the history within 10 minutes, not after; an undone 'Отправлен' takes its tracking number with it", async () => {
    const order = await paidOrder();
    await post(order.id, { to: "processing" });
    await post(order.id, { to: "shipped", trackingNumber: "1234567890", carrier: "cdek" });
    expect(await stateOf(order.id)).toEqual({ status: "shipped", tracking_number: "1234567890", carrier: "cdek" });
    const shipped = (await historyOf(order.id)).at(-1)!;
    expect(shipped.carrier).toBe("cdek");
    // The card's history offers "Вернуть" beside the latest change.
    const card = await (await staff.request(`/backoffice?q=${order.id.slice(0, 8)}`)).text();
    expect(card).toContain(`name="undo" value="${String(shipped.id)}"`);
    expect(textOf(card)).toContain("Трек-номер: 1234567890 · СДЭК · Отследить");
    expect(card).toContain('href="https://www.cdek.ru/ru/tracking/?order_id=1234567890"');

    await post(order.id, { undo: String(shipped.id) });
    expect(await stateOf(order.id)).toEqual({ status: "processing", tracking_number: null, carrier: null });

    // Eleven minutes later a change can no longer be undone.
    await post(order.id, { to: "shipped", trackingNumber: "RA000000001RU", carrier: "russian_post" });
    const late = (await historyOf(order.id)).at(-1)!;
    await backdate("id", late.id);
    const history = await (await staff.request(`/backoffice?q=${order.id.slice(0, 8)}`)).text();
    expect(history.indexOf('class="bo-history bo-history-folded"')).toBeGreaterThan(0);
    expect(history.slice(history.indexOf('class="bo-history bo-history-folded"'))).not.toContain(`name="undo" value="${String(late.id)}"`);
    expect(history.slice(history.indexOf('class="bo-history bo-history-folded"'))).toContain("RA000000001RU");
    const refused = await post(order.id, { undo: String(late.id) });
    expect(toastOf(await follow(staff, refused))).toEqual(["Не удалось обновить статус заказа...", "Это изменение уже нельзя вернуть"]);
    expect((await stateOf(order.id)).status).toBe("shipped");
  });

  it("mails the shipped change once its window has passed, with the carrier's link; refuses a carrier not on the list", async () => {
    const order = await paidOrder();
    await mails();
    await post(order.id, { to: "processing" });
    const unknown = await post(order.id, { to: "shipped", trackingNumber: "1Z999", carrier: "pigeon" });
    expect(toastOf(await follow(staff, unknown))).toEqual(["Не удалось обновить статус заказа...", "Выберите службу доставки из списка"]);
    expect((await stateOf(order.id)).status).toBe("processing");
    await post(order.id, { to: "shipped", trackingNumber: "1Z999", carrier: "ups" });
    expect((await mails()).filter((mail) => mail.to === order.email)).toEqual([]);
    // The doctor sees the parcel in the cabinet at once.
    const doctor = await signedInAs(app, t.db, order.email!);
    const cabinet = await (await doctor.request("/cabinet")).text();
    expect(textOf(cabinet)).toContain("Трек-номер: 1Z999 · UPS · Отследить посылку");
    expect(cabinet).toContain('href="https://www.ups.com/track?tracknum=1Z999"');
    await backdate("order_id", order.id);
    const sent = (await mails()).filter((mail) => mail.to === order.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("Трек-номер: 1Z999");
    expect(sent[0]!.text).toContain("Отследить посылку (UPS): https://www.ups.com/track?tracknum=1Z999");
  });

  it("'Выполнить' completes a paid order in one press by default, as the specification says", async () => {
    const order = await paidOrder();
    await post(order.id, { to: "completed" });
    expect((await stateOf(order.id)).status).toBe("completed");
  });
  it("answers a card's refused change on the dashboard itself: its form open with the typed tracking number and why, the order unchanged; a made one goes back to the same list", async () => {
    const order = await paidOrder();
    await post(order.id, { to: "processing" });
    const onDashboard = (form: Record<string, string>) => staff.request(`/backoffice?index&tab=all&q=${order.id.slice(0, 8)}`, { form: { intent: "status", orderId: order.id, ...form } });
    // Someone else cancelled it a moment ago; this staff member's number was typed on the old card.
    await post(order.id, { to: "cancelled", confirm: "yes", note: "Клиника отказалась" });
    const refused = await onDashboard({ to: "shipped", carrier: "russian_post", trackingNumber: "RA123456789RU" });
    expect(refused.status).toBe(400);
    const html = rendered(await refused.text());
    const card = html.slice(html.indexOf(`aria-labelledby="order-${order.id}"`));
    const shipForm = card.slice(card.indexOf('<details class="bo-confirm" open'), card.indexOf("</details>", card.indexOf('<details class="bo-confirm" open')));
    expect(shipForm).toMatch(/<input[^>]*name="trackingNumber"[^>]*aria-invalid="true"[^>]*value="RA123456789RU"|<input[^>]*name="trackingNumber"[^>]*value="RA123456789RU"[^>]*aria-invalid="true"/);
    expect(textOf(shipForm)).toContain("Такой переход статуса не разрешён");
    expect(await stateOf(order.id)).toMatchObject({ status: "cancelled", tracking_number: null });

    const other = await paidOrder();
    const made = await staff.request(`/backoffice?index&tab=all&q=${other.id.slice(0, 8)}`, { form: { intent: "status", orderId: other.id, to: "processing" } });
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe(`/backoffice?tab=all&q=${other.id.slice(0, 8)}`);
    expect((await stateOf(other.id)).status).toBe("processing");
  });
});

describe("where the lab asks for it (CONFIRM_STATUS_JUMPS=true)", () => {
  let t: TestDatabase;
  let app: TestApp;
  let staff: Browser;

  beforeAll(async () => {
    app = await startApp({ env: { CONFIRM_STATUS_JUMPS: "true" } });
    t = app.database;
    staff = await gatePassed(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("a paid order's 'Выполнить' asks first; the confirmed one completes it; a step in order does not ask", async () => {
    const order = await buildOrderIn(t.db, "paid");
    await buildPatient(t.db, order.id);
    const post = (form: Record<string, string>) => staff.request(`/backoffice/orders/${order.id}/status`, { form: { back: "/backoffice", ...form } });
    const status = async () => (await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status;
    const card = textOf(await (await staff.request(`/backoffice?q=${order.id.slice(0, 8)}`)).text());
    expect(card).toContain("Заказ перейдёт в «Завершен», минуя «Отправлен». Продолжить?");

    const unconfirmed = await post({ to: "completed" });
    expect(toastOf(await follow(staff, unconfirmed))).toEqual(["Не удалось обновить статус заказа...", "Подтвердите переход: он пропускает шаг"]);
    expect(await status()).toBe("paid");
    await post({ to: "processing" });
    expect(await status()).toBe("processing");
    await post({ to: "completed", confirm: "yes" });
    expect(await status()).toBe("completed");
  });
});
