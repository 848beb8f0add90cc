import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { latestOutboxMail, mailText, parseSignInMail } from "../../support/mail-text";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink";
import { SECRETS, startApp, type TestApp } from "../../support/app";

describe("sign-in by e-mail link and the cabinet", () => {
  let t: TestDatabase;
  let app: TestApp;
  const outbox = () => path.join(app.dataDir, "outbox");

  beforeAll(async () => {
    app = await startApp({ env: { ADMIN_EMAILS: "boss@aligner.test" } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function requestLink(email: string, redirectTo?: string) {
    const browser = browserFetch(app);
    const response = await browser.request("/auth", { form: { email, ...(redirectTo ? { redirectTo } : {}) } });
    return { browser, response, mail: latestOutboxMail(outbox(), email) };
  }

  it("signs in with a link: the GET page changes nothing, the POST uses the link once", async () => {
    const { browser, response, mail } = await requestLink("doctor-a@clinic.ru");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain("/auth?sent=doctor-a%40clinic.ru");
    expect(mail).not.toBeNull();
    expect(mail!.text).toContain("15 минут");
    const token = new URL(mail!.link).searchParams.get("token")!;

    // A mail scanner opening the link twice uses nothing up.
    for (let i = 0; i < 2; i++) {
      const page = await fetch(`${app.url}/auth/verify?token=${encodeURIComponent(token)}`);
      expect(await page.text()).toContain("Войти как doctor-a@clinic.ru?");
    }
    const confirm = await browser.request("/auth/verify", { form: { token } });
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("Location")).toBe("/cabinet");
    const cabinet = await browser.request("/cabinet");
    expect(cabinet.status).toBe(200);
    expect(await cabinet.text()).toContain("doctor-a@clinic.ru");

    // Used once: a second confirmation signs nobody in.
    const again = browserFetch(app);
    const reused = await again.request("/auth/verify", { form: { token } });
    expect(reused.headers.get("Location")).toBe("/auth/verify?token=invalid");
    expect(again.jar.has("__session")).toBe(false);
  });

  it("refuses an expired link", async () => {
    const { mail } = await requestLink("late@clinic.ru");
    await t.db.updateTable("sign_in_tokens").set({ expires_at: sql`now() - interval '1 minute'` }).where("email", "=", "late@clinic.ru").execute();
    const browser = browserFetch(app);
    const token = new URL(mail!.link).searchParams.get("token")!;
    expect(await (await browser.request(`/auth/verify?token=${encodeURIComponent(token)}`)).text()).toContain("Ссылка недействительна");
    await browser.request("/auth/verify", { form: { token } });
    expect(browser.jar.has("__session")).toBe(false);
  });

  it("never sends a signed-in user to another site", async () => {
    const { browser, mail } = await requestLink("redirect@clinic.ru", "https://evil.example/steal");
    const token = new URL(mail!.link).searchParams.get("token")!;
    const confirm = await browser.request("/auth/verify", { form: { token } });
    expect(confirm.headers.get("Location")).toBe("/cabinet");
  });

  it("signs in with the 6-digit code and refuses a wrong one", async () => {
    const { browser, mail } = await requestLink("code@clinic.ru", "/order");
    const wrong = await browser.request("/auth", { form: { intent: "code", email: "code@clinic.ru", code: mail!.code === "000000" ? "111111" : "000000" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Неверный или устаревший код");
    const right = await browser.request("/auth", { form: { intent: "code", email: "code@clinic.ru", code: mail!.code } });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe("/order");
    expect(browser.jar.has("__session")).toBe(true);
  });

  it("limits link requests per e-mail and says so", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await browserFetch(app).request("/auth", { form: { email: "spam@clinic.ru" } })).status);
    expect(statuses.slice(0, 5)).toEqual([302, 302, 302, 302, 302]);
    expect(statuses[5]).toBe(429);
    const limited = await browserFetch(app).request("/auth", { form: { email: "spam@clinic.ru" } });
    expect(await limited.text()).toContain("Слишком много запросов ссылки");
  });

  it("makes ADMIN_EMAILS admins at first sign-in", async () => {
    const { browser, mail } = await requestLink("boss@aligner.test");
    await browser.request("/auth/verify", { form: { token: new URL(mail!.link).searchParams.get("token")! } });
    expect((await browser.request("/backoffice")).status).toBe(200);
  });

  it("shows each client only their own non-draft orders", async () => {
    const a = "clinic-a@clinic.ru";
    const b = "clinic-b@clinic.ru";
    const aPaid = await buildOrderIn(t.db, "paid", { email: a, fullName: "Клиника А" });
    await buildPatient(t.db, aPaid.id, "Пациент Альфа");
    const aDraft = await buildOrderIn(t.db, "draft", { email: a });
    const bPaid = await buildOrderIn(t.db, "paid", { email: b, fullName: "Клиника Б" });
    const { browser, mail } = await requestLink(a);
    await browser.request("/auth/verify", { form: { token: new URL(mail!.link).searchParams.get("token")! } });
    const page = await (await browser.request("/cabinet")).text();
    expect(page).toContain(aPaid.id.slice(0, 6).toUpperCase());
    expect(page).toContain("Пациент Альфа");
    expect(page).not.toContain(aDraft.id.slice(0, 6).toUpperCase());
    expect(page).not.toContain(bPaid.id.slice(0, 6).toUpperCase());
    expect((await browser.request(`/order?id=${bPaid.id}`)).status).toBe(404);
    const search = await (await browser.request("/cabinet?q=Альфа&status=paid")).text();
    expect(search).toContain(aPaid.id.slice(0, 6).toUpperCase());
    expect(await (await browser.request("/cabinet?q=Омега")).text()).toContain("Ничего не найдено");
  });

  it("saves the notification channel and mails a status change once", async () => {
    const email = "notify@clinic.ru";
    const { browser, mail } = await requestLink(email);
    await browser.request("/auth/verify", { form: { token: new URL(mail!.link).searchParams.get("token")! } });
    const order = await buildOrderIn(t.db, "paid", { email });
    const cron = () => fetch(`${app.url}/api/cron`, { method: "POST", headers: { Authorization: `Bearer ${SECRETS.CRON_SECRET}` } }).then((r) => r.json());
    const first = await cron();
    expect(first.statusMailsSent).toBeGreaterThanOrEqual(1);
    expect((await cron()).statusMailsSent).toBe(0);
    const texts = fs.readdirSync(outbox()).map((file) => mailText(fs.readFileSync(path.join(outbox(), file), "utf8")));
    expect(texts.filter((text) => text.includes(order.id.slice(0, 6).toUpperCase()))).toHaveLength(1);

    const saved = await browser.request("/cabinet", { form: { channel: "none" } });
    expect(saved.status).toBe(302);
    const settings = await t.db.selectFrom("client_settings").select("notification_channel").where("email", "=", email).executeTakeFirstOrThrow();
    expect(settings.notification_channel).toBe("none");
  });

  it("sends /cabinet to /auth after signing out", async () => {
    const { browser, mail } = await requestLink("bye@clinic.ru");
    await browser.request("/auth/verify", { form: { token: new URL(mail!.link).searchParams.get("token")! } });
    expect((await browser.request("/cabinet")).status).toBe(200);
    await browser.request("/auth/sign-out", { form: {} });
    const after = await browser.request("/cabinet");
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/auth?redirectTo=%2Fcabinet");
  });
});

describe("sign-in mail over real SMTP", () => {
  let app: TestApp;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await startApp({ poolSize: 2, env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.stop();
  });

  it("delivers the link to the SMTP server and the link signs in", async () => {
    const browser = browserFetch(app);
    await browser.request("/auth", { form: { email: "smtp@clinic.ru" } });
    const received = await sink.waitFor((message) => message.raw.includes("smtp@clinic.ru"), 10_000);
    const mail = parseSignInMail(received.raw);
    await browser.request("/auth/verify", { form: { token: new URL(mail.link).searchParams.get("token")! } });
    expect(browser.jar.has("__session")).toBe(true);
  });
});
