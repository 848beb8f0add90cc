import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailMessage, Mailer } from "~/modules/mail/mailer.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { buildOrder, paymentActor } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { browserIn, MARKET_HOSTS } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** The order's mails speak the language its client used (issue 19, item 2; ADR 024). */
describe("order mails in the client's language", () => {
  let t: TestDatabase;
  let app: TestApp;
  const sent: MailMessage[] = [];
  const mailer: Mailer = { kind: "outbox", send: async (message) => (sent.push(message), { id: String(sent.length) }) };

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("records the language of the browser that created the order and writes its status mails in it", async () => {
    const browser = await browserIn(app, "domestic", "de");
    expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
    const order = await t.db.selectFrom("orders").select(["id", "language", "market"]).orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(order).toMatchObject({ language: "de", market: "domestic" });
    await t.db.updateTable("orders").set({ email: "praxis@example.test", status: "pending", total_cost: 150000 }).where("id", "=", order.id).execute();
    await t.db.updateTable("order_status_history").set({ notified_at: new Date() }).where("order_id", "=", order.id).execute();
    await changeOrderStatus(t.db, order.id, "paid", paymentActor);
    sent.length = 0;
    expect((await sendStatusMails(t.db, { mailer, publicUrl: "https://aligners.test" })).sent).toBe(1);
    expect(sent[0]!.subject).toMatch(/^Bestellung [0-9a-f]{6}: Bezahlt$/i);
    expect(sent[0]!.text).toContain("Guten Tag");
    expect(sent[0]!.text).not.toMatch(/[\u0400-\u04FF]/);
  });

  it("falls back to the market's language for orders that recorded none", async () => {
    const order = await buildOrder(t.db, { market: "international", currency: "eur", email: "clinic@example.test" });
    await t.db.updateTable("orders").set({ status: "pending", total_cost: 9000 }).where("id", "=", order.id).execute();
    await t.db.updateTable("order_status_history").set({ notified_at: new Date() }).where("order_id", "=", order.id).execute();
    await changeOrderStatus(t.db, order.id, "paid", paymentActor);
    sent.length = 0;
    await sendStatusMails(t.db, { mailer, publicUrl: "https://aligners.test" });
    expect(sent.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Order [0-9a-f]{6}: Paid$/i)]);
  });
});
