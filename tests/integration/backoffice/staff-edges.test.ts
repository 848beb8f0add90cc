import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { startApp, type TestApp } from "../../support/app";
import { gatePassed, rendered, signedInAs } from "./support";

/** A page's text as read: no scripts, tags or React's text separators. */
const textOf = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/**
 * Staff's edges (issue 57, item 7): a way out for every way in, a skip link to the order list,
 * bank transfers and superseded card attempts told apart, a question before an unpacked order is
 * shipped, the history's actors in the reader's language, the clinic in the "Клиника" column, and
 * times in the market's zone, said as such.
 */
describe("staff's edges", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("offers «Выйти» to a staff member signed in by e-mail, and it signs them out of the back office", async () => {
    const admin = await signedInAs(app, t.db, "admin-out@aligner.test", ["admin"]);
    const page = await admin.request("/backoffice");
    expect(page.status).toBe(200);
    const html = rendered(await page.text());
    expect(html).toMatch(/<form method="post" action="\/backoffice\/logout"[^>]*><button type="submit" class="link-button">Выйти<\/button><\/form>/);
    const out = await admin.request("/backoffice/logout", { method: "POST", form: {} });
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toBe("/backoffice/login");
    expect(admin.jar.has("__session")).toBe(false);
    const after = await admin.request("/backoffice");
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/backoffice\/login/);
  });

  it("offers «Выйти» to the shared password's holder, and it closes the gate", async () => {
    const gate = await gatePassed(app);
    expect(textOf(await (await gate.request("/backoffice")).text())).toContain("Выйти");
    const out = await gate.request("/backoffice/logout", { method: "POST", form: {} });
    expect(out.headers.get("Location")).toBe("/backoffice/login");
    expect((await gate.request("/backoffice")).status).toBe(302);
  });

  it("opens the dashboard with a skip link to the order list, before anything else one can focus", async () => {
    const gate = await gatePassed(app);
    const html = rendered(await (await gate.request("/backoffice")).text());
    const body = html.slice(html.indexOf("<body"));
    const firstFocusable = body.match(/<(a|button|input|select|textarea|summary)\b[^>]*>/)?.[0] ?? "";
    expect(firstFocusable).toBe('<a class="skip-link" href="#orders-list">');
    expect(body).toContain('<a class="skip-link" href="#orders-list">Перейти к списку заказов</a>');
    expect(body).toMatch(/<div id="orders-list" tabindex="-1"/);
    // Not on other back-office pages, which have no order list.
    expect(rendered(await (await gate.request("/backoffice/clients")).text())).not.toContain('href="#orders-list"');
  });
});
