import http from "node:http";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { latestOutboxMail } from "../../support/mail-text";
import { linkSecret, linkToken, recordLink } from "../../support/sign-in-link";
import { SECRETS, startApp, type TestApp } from "../../support/app";

/**
 * Sign-in through the authenticator (remix-auth with the e-mail link and code strategies, sessions
 * through Remix's session storage): every property of the hand-written flow it replaced, checked
 * over HTTP against the real server. Links are forged with Node's crypto in the package's own format.
 */
describe("sign-in through the authenticator", () => {
  let t: TestDatabase;
  let app: TestApp;
  const outbox = () => path.join(app.dataDir, "outbox");
  const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
  const userCount = async (email: string) => (await t.db.selectFrom("users").select("id").where("email", "=", email).execute()).length;
  const sessionCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from sessions where user_id is not null`.execute(t.db)).rows[0]!.n);

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function requestLink(email: string, headers?: Record<string, string>) {
    const browser = browserFetch(app);
    const response = await browser.request("/auth", { form: { email }, headers });
    return { browser, response, mail: latestOutboxMail(outbox(), email) };
  }

  it("signs in with a link opened in another browser than the one that asked", async () => {
    const { browser: asking, mail } = await requestLink("other-device@clinic.ru");
    expect(asking.jar.has("__session")).toBe(true);
    const elsewhere = browserFetch(app);
    const page = await (await elsewhere.request(`/auth/verify?token=${encodeURIComponent(tokenOf(mail!.link))}`)).text();
    expect(page).toContain("Войти как other-device@clinic.ru?");
    const confirm = await elsewhere.request("/auth/verify", { form: { token: tokenOf(mail!.link) } });
    expect(confirm.headers.get("Location")).toBe("/cabinet");
    expect((await elsewhere.request("/cabinet")).status).toBe(200);
    // The asking browser is not signed in by someone else's click.
    expect((await asking.request("/cabinet")).status).toBe(302);
  });

  it("shows the spec's message and a way to ask again for a replayed link", async () => {
    const { browser, mail } = await requestLink("replay@clinic.ru");
    const token = tokenOf(mail!.link);
    expect((await browser.request("/auth/verify", { form: { token } })).headers.get("Location")).toBe("/cabinet");
    const replay = browserFetch(app);
    expect((await replay.request("/auth/verify", { form: { token } })).headers.get("Location")).toBe("/auth/verify?token=invalid");
    expect(replay.jar.has("__session")).toBe(false);
    const page = await (await replay.request(`/auth/verify?token=${encodeURIComponent(token)}`)).text();
    expect(page).toContain("Ссылка недействительна");
    expect(page).toMatch(/<a[^>]+href="\/auth"[^>]*>Получить новую ссылку<\/a>/);
  });

  it("refuses a link older than 15 minutes even while its row has not expired", async () => {
    const email = "stale@clinic.ru";
    const linkId = await recordLink(t.db, email);
    const token = linkToken({ passphrase: linkSecret(SECRETS.SESSION_SECRET), email, linkId, createdAt: Date.now() - 16 * 60_000 });
    const browser = browserFetch(app);
    expect(await (await browser.request(`/auth/verify?token=${encodeURIComponent(token)}`)).text()).toContain("Ссылка недействительна");
    expect((await browser.request("/auth/verify", { form: { token } })).headers.get("Location")).toBe("/auth/verify?token=invalid");
    expect(await userCount(email)).toBe(0);
  });

  it("refuses tampered tokens, tokens for another e-mail and tokens made with an old secret, creating nothing", async () => {
    const victim = "victim@clinic.ru";
    const attacker = "attacker@clinic.ru";
    const { mail } = await requestLink(attacker);
    const genuine = tokenOf(mail!.link);
    const linkId = await recordLink(t.db, attacker);
    const sessionsBefore = await sessionCount();
    const flipped = genuine.slice(0, 20) + (genuine[20] === "A" ? "B" : "A") + genuine.slice(21);
    const forged = [
      flipped,
      genuine.slice(0, -8),
      "not-a-token",
      // The attacker's own link id, re-encrypted for the victim's e-mail: the row belongs to the attacker.
      linkToken({ passphrase: linkSecret(SECRETS.SESSION_SECRET), email: victim, linkId }),
      // A well-formed link made with a secret that is no longer the server's.
      linkToken({ passphrase: linkSecret("an-old-session-secret-that-was-rotated"), email: attacker, linkId }),
    ];
    for (const token of forged) {
      const browser = browserFetch(app);
      expect(await (await browser.request(`/auth/verify?token=${encodeURIComponent(token)}`)).text(), token).toContain("Ссылка недействительна");
      const confirm = await browser.request("/auth/verify", { form: { token } });
      expect(confirm.headers.get("Location"), token).toBe("/auth/verify?token=invalid");
      expect(browser.jar.has("__session"), token).toBe(false);
    }
    expect(await userCount(victim)).toBe(0);
    expect(await userCount(attacker)).toBe(0);
    expect(await sessionCount()).toBe(sessionsBefore);
    // The attacker's genuine link still works afterwards: refusals used nothing up.
    const own = browserFetch(app);
    expect((await own.request("/auth/verify", { form: { token: genuine } })).headers.get("Location")).toBe("/cabinet");
    // A refused forged token logs no stack trace from the link package.
    expect(app.output()).not.toMatch(/Malformed UTF-8|SyntaxError: Unexpected token/);
  });

  it("signs in with the 6-digit code from the same mail, once", async () => {
    const { browser, response, mail } = await requestLink("code-user@clinic.ru");
    const code = mail!.code;
    // The asking browser's code form posts back to the page that said the link was sent.
    const codeForm = `/auth?index&${new URL(response.headers.get("Location")!, app.url).search.slice(1)}`;
    const device = browserFetch(app);
    const signedIn = await device.request("/auth", { form: { intent: "code", email: "code-user@clinic.ru", code } });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/cabinet");
    expect((await device.request("/cabinet")).status).toBe(200);
    const again = await browser.request(codeForm, { form: { intent: "code", email: "code-user@clinic.ru", code } });
    expect(again.status).toBe(400);
    // Said at the code field, which stays on the page for another try.
    expect(await again.text()).toMatch(/<input id="auth-code"[^>]*aria-invalid="true"[\s\S]*Неверный или устаревший код/);
    // The code used, the link of the same mail is used too.
    expect((await browser.request("/auth/verify", { form: { token: tokenOf(mail!.link) } })).headers.get("Location")).toBe("/auth/verify?token=invalid");
  });

  it("gives a new session id at sign-in and the earlier one opens nothing", async () => {
    const { browser, mail } = await requestLink("rotate@clinic.ru");
    const before = browser.jar.get("__session");
    expect(before).toBeTruthy();
    await browser.request("/auth/verify", { form: { token: tokenOf(mail!.link) } });
    const after = browser.jar.get("__session");
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    // Someone who knew the cookie before sign-in (a shared computer, a planted cookie) is not signed in.
    const planted = browserFetch(app);
    planted.jar.set("__session", before!);
    expect((await planted.request("/cabinet")).status).toBe(302);
    expect((await browser.request("/cabinet")).status).toBe(200);
  });

  it("ends the server session at sign-out: the old cookie replayed opens nothing", async () => {
    const { browser, mail } = await requestLink("leaving@clinic.ru");
    await browser.request("/auth/verify", { form: { token: tokenOf(mail!.link) } });
    const cookie = browser.jar.get("__session")!;
    const user = await t.db.selectFrom("users").select("id").where("email", "=", "leaving@clinic.ru").executeTakeFirstOrThrow();
    expect(await t.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    const out = await browser.request("/auth/sign-out", { form: {} });
    expect(out.status).toBe(302);
    expect(await t.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
    const replay = browserFetch(app);
    replay.jar.set("__session", cookie);
    expect((await replay.request("/cabinet")).status).toBe(302);
  });

  it("signs a user out on every device at once", async () => {
    const email = "everywhere@clinic.ru";
    const signIn = async () => {
      const { browser, mail } = await requestLink(email);
      await browser.request("/auth/verify", { form: { token: tokenOf(mail!.link) } });
      return browser;
    };
    const office = await signIn();
    const home = await signIn();
    expect((await home.request("/cabinet")).status).toBe(200);
    expect(await (await office.request("/cabinet")).text()).toContain("Выйти на всех устройствах");
    const out = await office.request("/auth/sign-out", { form: { scope: "everywhere" } });
    expect(out.status).toBe(302);
    expect((await home.request("/cabinet")).status).toBe(302);
    expect((await office.request("/cabinet")).status).toBe(302);
  });

  it("limits link requests per address, and answers alike whether or not an e-mail has an account", async () => {
    const from = (ip: string) => ({ "X-Forwarded-For": ip });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await requestLink(`per-ip-${i}@clinic.ru`, from("203.0.113.7"))).response.status);
    expect(statuses.slice(0, 20).every((status) => status === 302)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await requestLink("per-ip-other@clinic.ru", from("203.0.113.8"))).response.status).toBe(302);

    await t.db.insertInto("users").values({ email: "known@clinic.ru" }).execute();
    const known = await requestLink("known@clinic.ru", from("203.0.113.9"));
    const unknown = await requestLink("unknown@clinic.ru", from("203.0.113.9"));
    expect(known.response.status).toBe(unknown.response.status);
    expect(known.response.headers.get("Location")!.replace(/known|unknown/, "X")).toBe(unknown.response.headers.get("Location")!.replace(/known|unknown/, "X"));
    expect(await userCount("unknown@clinic.ru")).toBe(0);
  });

  it("writes the link with the market's configured origin, never the Host a request names", async () => {
    // A forged Host (and the Origin to match) is not answered at all. fetch() cannot forge Host.
    const forged = await rawPost(app.port, "/auth", { Host: "evil.example", Origin: "http://evil.example" }, new URLSearchParams({ email: "forged-host@clinic.ru" }));
    expect(forged.status).toBe(400);
    // X-Forwarded-Host, which the link package reads first, names the forger's site on an answered host.
    const { response, mail } = await requestLink("forwarded-host@clinic.ru", { "X-Forwarded-Host": "evil.example" });
    expect(response.status).toBe(302);
    expect(mail!.link.startsWith(`${app.url}/auth/verify?token=`)).toBe(true);
    // An answered host of the international market gets that market's configured origin.
    const international = await rawPost(app.port, "/auth", { Host: `aligners.com:${app.port}`, Origin: `http://aligners.com:${app.port}` }, new URLSearchParams({ email: "international@clinic.com" }));
    expect(international.status).toBe(302);
    const mailed = latestOutboxMail(outbox(), "international@clinic.com");
    expect(mailed!.link.startsWith(`http://localhost:${app.port}/auth/verify?token=`)).toBe(true);
    expect(mailed!.text).toContain("15 minutes");
    for (const email of ["forged-host@clinic.ru", "forwarded-host@clinic.ru", "international@clinic.com"]) {
      const sent = latestOutboxMail(outbox(), email);
      if (sent) expect(sent.text).not.toContain("evil.example");
    }
    expect(latestOutboxMail(outbox(), "forged-host@clinic.ru")).toBeNull();
  });
});

/** A form POST with headers fetch() would not send as given (Host). */
function rawPost(port: number, pathname: string, headers: Record<string, string>, body: URLSearchParams): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const payload = body.toString();
    const request = http.request(
      { host: "127.0.0.1", port, path: pathname, method: "POST", headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(payload) } },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}
