import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSnapshot } from "~/modules/db/db.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { buildOrderIn, buildPatient, staff } from "../../support/builders";
import { type TestApp, startApp } from "../../support/app";
import { type Browser, follow, gatePassed, rendered, signedInAs, toastOf } from "../backoffice/support";

/**
 * A viewer's own pages given again from memory (ADR 081), over HTTP against the real app: the same
 * browser gets the very answer again (its nonce with it) while no write has committed; any write —
 * the app's own form, or one made beside the app — shows on the next request; another browser never
 * gets it; an answer that sets a cookie is never given twice. The time bound and the store's rules
 * on their own: app/modules/http/answers/kept-pages.server.test.ts.
 */

const nonceOf = (response: Response) => response.headers.get("Content-Security-Policy")?.match(/'nonce-([^']+)'/)?.[1] ?? null;

async function page(browser: Browser, path: string) {
  const response = await browser.request(path);
  expect(response.status, path).toBe(200);
  const html = await response.text();
  return { nonce: nonceOf(response), vary: response.headers.get("Vary"), html, text: rendered(html) };
}

/**
 * `run` at a moment when nothing commits anywhere in PostgreSQL meanwhile: the snapshot is the
 * cluster's, and the other suites write to it all the time. Tried again until such a moment, for a
 * minute at most (two requests take milliseconds).
 */
async function whileStill<T>(db: Parameters<typeof dataSnapshot>[0], run: () => Promise<T>): Promise<T> {
  const until = Date.now() + 60_000;
  for (;;) {
    const before = await dataSnapshot(db);
    const result = await run();
    if ((await dataSnapshot(db)) === before) return result;
    if (Date.now() > until) throw new Error("PostgreSQL never stayed still for two requests in a minute");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("pages kept for their viewer", () => {
  let app: TestApp;
  let doctor: Browser;
  let email: string;
  let orderId: string;

  beforeAll(async () => {
    app = await startApp();
    email = `kept-${Date.now()}@clinic.test`;
    const order = await buildOrderIn(app.database.db, "paid", { email, fullName: "Клиника Первая" });
    orderId = order.id;
    await buildPatient(app.database.db, order.id, "Соколова Вера");
    doctor = await signedInAs(app, app.database.db, email);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it("gives the same browser the same answer again, its nonce with it, while nothing has changed", async () => {
    for (const path of ["/cabinet", `/cabinet/orders/${orderId}`]) {
      const [first, second] = await whileStill(app.database.db, async () => [await page(doctor, path), await page(doctor, path)]);
      expect(first.nonce, path).toBeTruthy();
      expect(second.nonce, path).toBe(first.nonce);
      expect(second.html, path).toBe(first.html);
      // A proxy or browser cache must still tell the gzip answer from the plain one.
      expect(second.vary, path).toMatch(/Accept-Encoding/i);
      // The inline scripts carry the nonce the policy names, so they still run.
      expect(second.html, path).toContain(`nonce="${second.nonce}"`);
    }
  });

  it("shows a write made beside the app on the next request", async () => {
    const before = await page(doctor, `/cabinet/orders/${orderId}`);
    expect(before.text).toContain("Соколова Вера");
    await app.database.db.updateTable("orders_patients").set({ patient_name: "Соколова-Ветрова Вера" }).where("order_id", "=", orderId).execute();
    const after = await page(doctor, `/cabinet/orders/${orderId}`);
    expect(after.text).toContain("Соколова-Ветрова Вера");
    expect(after.nonce).not.toBe(before.nonce);
    // The client's data request (a navigation with JavaScript) is kept the same way.
    const data = async () => {
      const response = await doctor.request("/cabinet.data");
      // Given again with Remix's own headers: the client tells the app's answers from a proxy's by them.
      expect(response.headers.get("X-Remix-Response")).toBe("yes");
      return response.text();
    };
    expect(await data()).toContain("Соколова-Ветрова Вера");
    expect(await data()).toContain("Соколова-Ветрова Вера");
    await app.database.db.updateTable("orders_patients").set({ patient_name: "Соколова Вера" }).where("order_id", "=", orderId).execute();
    expect(await data()).not.toContain("Соколова-Ветрова Вера");
  });

  it("shows the app's own form's change at once, and gives its toast only once", async () => {
    await page(doctor, "/cabinet");
    const saved = await doctor.request("/cabinet", { form: { channel: "none" } });
    expect(saved.status).toBe(302);
    const afterSave = await follow(doctor, saved);
    expect(toastOf(afterSave)).not.toBeNull();
    const again = await page(doctor, "/cabinet");
    expect(toastOf(again.html)).toBeNull();
    const saving = await app.database.db.selectFrom("client_settings").select("notification_channel").where("email", "=", email).executeTakeFirstOrThrow();
    expect(saving.notification_channel).toBe("none");
    expect(again.text).toMatch(/Уведомления(<!-- -->)?: <strong>Не уведомлять<\/strong>/);
  });

  it("never gives one browser's page to another", async () => {
    const mine = await page(doctor, "/cabinet");
    const otherEmail = `kept-other-${Date.now()}@clinic.test`;
    await buildOrderIn(app.database.db, "paid", { email: otherEmail, fullName: "Клиника Вторая" });
    const other = await page(await signedInAs(app, app.database.db, otherEmail), "/cabinet");
    expect(other.nonce).not.toBe(mine.nonce);
    expect(other.text).toContain(otherEmail);
    expect(other.text).not.toContain(email);
    // Signed out (no session cookie), the same address is the sign-in page's redirect, not the page.
    const anonymous = await fetch(`${app.url}/cabinet`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
  });

  it("keeps the staff's work list the same way: a status change shows on the next request", async () => {
    const manager = await gatePassed(app);
    const order = await buildOrderIn(app.database.db, "paid", { fullName: "Клиника Третья" });
    await buildPatient(app.database.db, order.id);
    const [first, second] = await whileStill(app.database.db, async () => [await page(manager, "/backoffice?view=table"), await page(manager, "/backoffice?view=table")]);
    expect(second.nonce).toBe(first.nonce);
    const row = (text: string) => text.slice(text.indexOf("Клиника Третья"), text.indexOf("Клиника Третья") + 400);
    expect(row(first.text)).toContain("Оплачен");
    await changeOrderStatus(app.database.db, order.id, "processing", staff);
    const after = await page(manager, "/backoffice?view=table");
    expect(after.nonce).not.toBe(first.nonce);
    expect(row(after.text)).toContain("В работе");
  });
});
