import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createUserSession } from "~/modules/auth/session.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrder } from "../../support/builders";
import { SECRETS, startApp, type TestApp } from "../../support/app";

/** Access rules over real HTTP against the real server (DESIGN §4.21–4.24). */
describe("access and cross-site protection over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    // The test process signs session cookies with the same secret as the app.
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("answers the health check with the database up", async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, database: "up" });
  });

  it("refuses a cross-site POST before it reaches any route", async () => {
    const evil = await fetch(`${app.url}/backoffice/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: `password=${SECRETS.BACKOFFICE_PASSWORD}`,
      redirect: "manual",
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.getSetCookie()).toEqual([]);
    const noOrigin = await fetch(`${app.url}/backoffice/login`, { method: "POST", body: new URLSearchParams({ password: "x" }), redirect: "manual" });
    expect(noOrigin.status).toBe(403);
  });

  it("guards /backoffice and every page under it", async () => {
    const browser = browserFetch(app);
    for (const path of ["/backoffice", "/backoffice/anything/deeper"]) {
      const response = await browser.request(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/backoffice/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const data = await browser.request("/backoffice.data");
    expect([202, 204, 302]).toContain(data.status);
    expect(await data.text()).not.toContain("orders");
  });

  it("shows the gate with its title and refuses a wrong password with the spec's text", async () => {
    const browser = browserFetch(app);
    const page = await (await browser.request("/backoffice/login")).text();
    expect(page).toContain("Панель управления");
    expect(page).toContain("Войти");
    const wrong = await browser.request("/backoffice/login", { form: { password: "nope" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Неверный пароль. Пожалуйста, попробуйте еще раз.");
    expect(browser.jar.has("bo_gate")).toBe(false);
  });

  it("lets the right password in for 14 days with an httpOnly cookie", async () => {
    const browser = browserFetch(app);
    const ok = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/backoffice");
    const cookie = ok.headers.getSetCookie().find((header) => header.startsWith("bo_gate="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=1209600/);
    const dashboard = await browser.request("/backoffice");
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Заказы");
  });

  it("limits failed gate attempts per IP, even for the right password afterwards", async () => {
    const browser = browserFetch(app);
    await t.db.deleteFrom("rate_limits").execute();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await browser.request("/backoffice/login", { form: { password: `wrong-${attempt}` } })).status);
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const blocked = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toContain("Слишком много неудачных попыток");
    await t.db.deleteFrom("rate_limits").execute();
  });

  it("lets a signed-in manager in and keeps a plain user out", async () => {
    const manager = await t.db.insertInto("users").values({ email: "manager@aligner.test" }).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("user_roles").values({ user_id: manager.id, role: "manager" }).execute();
    const managerCookie = (await createUserSession(t.db, manager.id)).split(";")[0]!;
    const asManager = await fetch(`${app.url}/backoffice`, { headers: { Cookie: managerCookie }, redirect: "manual" });
    expect(asManager.status).toBe(200);
    expect(await asManager.text()).toContain("manager@aligner.test");

    const client = await t.db.insertInto("users").values({ email: "doctor@clinic.test" }).returning("id").executeTakeFirstOrThrow();
    const clientCookie = (await createUserSession(t.db, client.id)).split(";")[0]!;
    const asClient = await fetch(`${app.url}/backoffice`, { headers: { Cookie: clientCookie }, redirect: "manual" });
    expect(asClient.status).toBe(302);

    // Revoking the session row ends it at once.
    await t.db.deleteFrom("sessions").where("user_id", "=", manager.id).execute();
    const revoked = await fetch(`${app.url}/backoffice`, { headers: { Cookie: managerCookie }, redirect: "manual" });
    expect(revoked.status).toBe(302);
  });

  it("keeps the packer gate separate from the back-office gate", async () => {
    const db = t.db;
    const { tryGatePassword } = await import("~/modules/auth/gate.server");
    Object.assign(process.env, { DATABASE_URL: t.url });
    const wrong = await tryGatePassword(db, "packer", SECRETS.BACKOFFICE_PASSWORD, "10.0.0.7");
    expect(wrong).toEqual({ ok: false, reason: "wrong" });
    const right = await tryGatePassword(db, "packer", SECRETS.PACKER_PASSWORD, "10.0.0.7");
    expect(right.ok).toBe(true);
    // A packer pass opens nothing in the back-office.
    const cookie = right.ok ? right.setCookie.split(";")[0]! : "";
    expect(cookie.startsWith("packer_gate=")).toBe(true);
    const response = await fetch(`${app.url}/backoffice`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(response.status).toBe(302);
  });

  it("shows a toast once after signing out", async () => {
    const browser = browserFetch(app);
    const signOut = await browser.request("/auth/sign-out", { form: {} });
    expect(signOut.status).toBe(302);
    expect(signOut.headers.get("Location")).toBe("/");
    // The texts also travel in the page's translations; look for the rendered toast itself.
    const toast = /<div class="toast toast-success" role="status"><strong>([^<]*)<\/strong><p>([^<]*)<\/p>/;
    const first = await (await browser.request("/")).text();
    expect(first.match(toast)?.slice(1)).toEqual(["Выход выполнен", "Вы вышли из системы"]);
    const second = await (await browser.request("/")).text();
    expect(second).not.toMatch(toast);
  });

  it("answers unknown paths with the 404 page", async () => {
    for (const path of ["/no-such-page", "/pl", "/EN"]) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Oops! Page not found");
    }
  });

  it("runs the cron route only with the secret and purges abandoned drafts", async () => {
    const old = await buildOrder(t.db);
    const fresh = await buildOrder(t.db);
    await t.db.updateTable("orders").set({ updated_at: sql`now() - interval '31 days'` }).where("id", "=", old.id).execute();
    const refused = await fetch(`${app.url}/api/cron`, { method: "POST" });
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    const ran = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: `Bearer ${SECRETS.CRON_SECRET}` } });
    expect(ran.status).toBe(200);
    expect(await ran.json()).toMatchObject({ ok: true, abandonedDraftsDeleted: 1 });
    const left = await t.db.selectFrom("orders").select("id").where("id", "in", [old.id, fresh.id]).execute();
    expect(left.map((row) => row.id)).toEqual([fresh.id]);
  });

  it("runs the cron route's housekeeping only while no other process runs a pass, and says who ran it", async () => {
    const cron = async () => {
      const response = await fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: `Bearer ${SECRETS.CRON_SECRET}` } });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const ran = await cron();
    expect(ran).toMatchObject({ ok: true, housekeeping: "ran", housekeepingBy: expect.stringMatching(/^cron:/), sessionsExpired: expect.any(Number) });
    expect(await t.db.selectFrom("housekeeping_lease").select(["held_by", "last_ran_by", "last_outcome"]).executeTakeFirstOrThrow()).toEqual({
      held_by: null,
      last_ran_by: ran.housekeepingBy,
      last_outcome: "completed",
    });

    // A queue worker's pass is under way: the cron route sends files as always and leaves housekeeping to it.
    const old = await buildOrder(t.db);
    await t.db.updateTable("orders").set({ updated_at: sql`now() - interval '31 days'` }).where("id", "=", old.id).execute();
    const worker = "queue-worker:elsewhere:4242:abcdef";
    await t.db.updateTable("housekeeping_lease").set({ held_by: worker, held_until: sql<Date>`now() + interval '1 minute'` }).execute();
    try {
      const skipped = await cron();
      expect(skipped).toMatchObject({ ok: true, housekeeping: "skipped", housekeepingBy: worker, claimed: 0, remaining: 0 });
      expect(skipped).not.toHaveProperty("abandonedDraftsDeleted");
      expect(await t.db.selectFrom("orders").select("id").where("id", "=", old.id).executeTakeFirst()).toBeDefined();
    } finally {
      await t.db.updateTable("housekeeping_lease").set({ held_by: null, held_until: null }).execute();
    }
    expect(await cron()).toMatchObject({ housekeeping: "ran", abandonedDraftsDeleted: 1 });
  });

  it("remembers the language chosen in the picker and sends home pages to /{lang}", async () => {
    const browser = browserFetch(app);
    const chosen = await browser.request("/language", { form: { lng: "en", redirectTo: "/" } });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("Location")).toBe("/en");
    const home = await browser.request("/backoffice/login");
    expect(await home.text()).toContain("Control panel");
    const refusedLanguage = await browser.request("/language", { form: { lng: "pl", redirectTo: "/" } });
    expect(refusedLanguage.status).toBe(400);
  });

  it("shows English on an international host and Russian on a domestic one by default", async () => {
    const international = await fetch(`${app.url}/`, { headers: { Host: "aligners.com" } });
    expect(await international.text()).toContain('lang="en"');
    const domestic = await fetch(`${app.url}/`, { headers: { Host: "aligners.ru" } });
    expect(await domestic.text()).toContain('lang="ru"');
  });
});

describe("the gate cookie is bound to the password", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(2);
  });
  afterAll(async () => t?.drop());

  it("dies when the back-office password changes", async () => {
    const first = await startApp({ database: t });
    const browser = browserFetch(first);
    let cookieValue = "";
    try {
      const login = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } });
      expect(login.status).toBe(302);
      expect((await browser.request("/backoffice")).status).toBe(200);
      cookieValue = browser.jar.header();
    } finally {
      await first.close();
    }
    const second = await startApp({ database: t, env: { BACKOFFICE_PASSWORD: "a-new-password" } });
    try {
      const response = await fetch(`${second.url}/backoffice`, { headers: { Cookie: cookieValue }, redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toContain("/backoffice/login");
    } finally {
      await second.close();
    }
  });
});
