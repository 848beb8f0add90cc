import { createHash } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { startApp, type TestApp } from "../../support/app";
import { signedInAs } from "../backoffice/support";

/**
 * What one hostile visitor can send (issue "Abuse-proof", items 4–6), over real HTTP against the
 * server `npm start` runs, on PostgreSQL: sign-in codes guessed in parallel, a daily cap of codes per
 * e-mail, the same-site check fooled with the raw path, machine paths that no route serves, and
 * targets that do not decode. Each attack's outcome is asserted, and the server's log must hold no
 * error line for any of them: anyone could otherwise fill the error log.
 */

const CODES_PER_EMAIL_DAY = 70;
const ROOT = path.resolve(import.meta.dirname, "../../..");

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request sent as written: fetch would resolve `..` and `%2e%2e` before sending, as a browser does; a script does not. */
function rawRequest(app: AppServer, target: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: app.port, path: target, method: options.method ?? "GET", headers: { ...(options.body ? { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(options.body) } : {}), ...options.headers } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The log lines the server wrote since `from` (its output is JSON lines), at error level or above. */
function errorLines(app: AppServer, from: number): string[] {
  return app
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => /"level":(50|60)/.test(line) || /^\s+at .+:\d+:\d+\)?$/.test(line));
}

describe("abuse from one visitor", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    // NODE_ENV empty, as `npm start` leaves it: the server must not fall back to express's development pages.
    app = await startApp({ poolSize: 20, env: { NODE_ENV: "", SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY: String(CODES_PER_EMAIL_DAY), LOG_FORMAT: "json" } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A sign-in link's row as sending the mail records it, with a code the test knows. */
  async function linkWithCode(email: string, code: string): Promise<string> {
    const row = await t.db
      .insertInto("sign_in_tokens")
      .values({ email, token_hash: sha256(`link-${email}-${code}-${Math.random()}`), code_hash: sha256(`${email}:${code}`), redirect_to: "/cabinet", expires_at: sql<Date>`now() + interval '15 minutes'` })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const typeCode = (email: string, code: string) => browserFetch(app).request("/auth", { form: { intent: "code", email, code } });

  function wrongCodes(count: number, right: string): string[] {
    const codes: string[] = [];
    for (let n = 0; codes.length < count; n++) {
      const code = String((n * 7919 + 104_729) % 1_000_000).padStart(6, "0");
      if (code !== right) codes.push(code);
    }
    return codes;
  }

  it("burns a link after exactly five of 64 wrong codes sent at once, and it stays burned", async () => {
    const from = app.output().length;
    const email = "parallel-guesses@clinic.ru";
    const right = "314159";
    const linkId = await linkWithCode(email, right);
    const answers = await Promise.all(wrongCodes(64, right).map((code) => typeCode(email, code)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(64).fill(400));
    // Each visitor reads the sign-in page's own message at the code field.
    for (const answer of answers.slice(0, 3)) expect(await answer.text()).toContain("Неверный или устаревший код");
    const row = await t.db.selectFrom("sign_in_tokens").select(["attempts", "used_at"]).where("id", "=", linkId).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect(row.used_at).not.toBeNull();

    // The right code afterwards finds no link to use: no session, the same message.
    const late = browserFetch(app);
    const answer = await late.request("/auth", { form: { intent: "code", email, code: right } });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("Неверный или устаревший код");
    expect(late.jar.has("__session")).toBe(false);
    const after = await t.db.selectFrom("sign_in_tokens").select(["attempts", "used_at"]).where("id", "=", linkId).executeTakeFirstOrThrow();
    expect(after).toEqual(row);
    expect(errorLines(app, from)).toEqual([]);
  });

  it("signs in with the right code on the fifth try, and only once", async () => {
    const email = "fifth-try@clinic.ru";
    const right = "271828";
    const linkId = await linkWithCode(email, right);
    for (const code of wrongCodes(4, right)) expect((await typeCode(email, code)).status).toBe(400);
    const fifth = browserFetch(app);
    const answer = await fifth.request("/auth", { form: { intent: "code", email, code: right } });
    expect(answer.status).toBe(302);
    expect(fifth.jar.has("__session")).toBe(true);
    expect((await typeCode(email, right)).status).toBe(400);
    const row = await t.db.selectFrom("sign_in_tokens").select(["attempts", "used_at"]).where("id", "=", linkId).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect(row.used_at).not.toBeNull();
  });

  it(`caps the codes typed for one e-mail at ${CODES_PER_EMAIL_DAY} a day, however many links it asks for`, async () => {
    const email = "daily-cap@clinic.ru";
    // Fourteen links of five tries each: every try is a wrong code, the links burn one after another.
    for (let link = 0; link < CODES_PER_EMAIL_DAY / 5; link++) {
      await linkWithCode(email, "000001");
      const answers = await Promise.all(wrongCodes(5, "000001").map((code) => typeCode(email, code)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(400));
    }
    // A fresh link and its right code: refused for today, and the link is left as it was.
    const right = "161803";
    const fresh = await linkWithCode(email, right);
    const browser = browserFetch(app);
    const answer = await browser.request("/auth", { form: { intent: "code", email, code: right } });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("Неверный или устаревший код");
    expect(browser.jar.has("__session")).toBe(false);
    expect(await t.db.selectFrom("sign_in_tokens").select(["attempts", "used_at"]).where("id", "=", fresh).executeTakeFirstOrThrow()).toEqual({ attempts: 0, used_at: null });
    // The count lives in PostgreSQL (every app instance shares it) and its window is a day.
    const limit = await t.db
      .selectFrom("rate_limits")
      .select(["count", sql<number>`extract(epoch from expires_at - window_started_at)::int`.as("seconds")])
      .where("key", "=", `sign-in:code:${email}`)
      .executeTakeFirstOrThrow();
    expect(limit).toEqual({ count: CODES_PER_EMAIL_DAY + 1, seconds: 24 * 60 * 60 });
    // Another e-mail is not held back by this one's cap.
    const other = "not-capped@clinic.ru";
    await linkWithCode(other, right);
    expect((await typeCode(other, right)).status).toBe(302);
  });

  it("refuses a foreign form sent through the raw path of a webhook, as the language action it reaches", async () => {
    const from = app.output().length;
    for (const target of ["/api/webhooks/../../language", "/api/webhooks/%2e%2e/%2E%2E/language", "/api/webhooks/..\\..\\language", "/api/cron/../language"]) {
      const answer = await rawRequest(app, target, { method: "POST", headers: { Origin: "https://evil.example" }, body: "lng=en&redirectTo=%2F" });
      expect(answer.status, target).toBe(403);
      expect(answer.body, target).toContain("Request refused: it did not come from this site");
      expect(answer.headers["set-cookie"], target).toBeUndefined();
    }
    expect(errorLines(app, from)).toEqual([]);
  });

  it("answers 404 to a foreign post to a machine path no route serves, with no error in the log", async () => {
    const from = app.output().length;
    const targets = ["/api/webhooks/nothing", "/api/webhooks/stripe/extra", "/api/cronx", "/api/cron/anything", "/API/WEBHOOKS/unknown"];
    const origins = ["https://evil.example", "null", "not a url"];
    for (const target of targets) {
      for (const origin of origins) {
        const answer = await rawRequest(app, target, { method: "POST", headers: { Origin: origin }, body: "event=forged" });
        expect(answer.status, `${target} from ${origin}`).toBe(404);
      }
    }
    // The site's own forms that Remix's second check refused: Origin null (Sec-Fetch-Site says same-origin), a Host in capitals.
    const nullOrigin = await rawRequest(app, "/language", { method: "POST", headers: { Origin: "null", "Sec-Fetch-Site": "same-origin" }, body: "lng=en&redirectTo=%2F" });
    expect(nullOrigin.status).toBe(302);
    const capitals = await rawRequest(app, "/language", { method: "POST", headers: { Host: `LOCALHOST:${app.port}`, Origin: `http://localhost:${app.port}` }, body: "lng=en&redirectTo=%2F" });
    expect(capitals.status).toBe(302);
    const lines = errorLines(app, from);
    expect(lines).toEqual([]);
    expect(app.output().slice(from)).not.toContain("request failed");
  });

  it("sends the language picker back only to a page of this site, whatever address it was chosen on", async () => {
    // The 404 page of /ru//evil.example keeps that path as the picker's return address; taking "ru" off it once led to //evil.example.
    const notFound = await rawRequest(app, "/ru//evil.example");
    expect(notFound.status).toBe(404);
    const kept = /<input type="hidden" name="redirectTo" value="([^"]*)"/.exec(notFound.body)?.[1];
    expect(kept).toBe("/ru//evil.example");
    const form = (redirectTo: string) => new URLSearchParams({ lng: "en", redirectTo }).toString();
    for (const [route, body] of [
      ["/language", form(kept!)],
      ["/language", form("/.//evil")],
      ["/language", form("/de/.//evil")],
      ["/language", form("/ru/\\evil.example")],
      ["/cookies", new URLSearchParams({ redirectTo: "/.//evil" }).toString()],
      ["/cookies", new URLSearchParams({ redirectTo: "/ru//evil.example" }).toString()],
    ] as const) {
      const answer = await rawRequest(app, route, { method: "POST", headers: { Origin: app.url }, body });
      const location = String(answer.headers.location ?? "");
      expect(answer.status, `${route} ${body}`).toBe(302);
      // A single slash and no host: the browser stays on this site.
      expect(location, `${route} ${body}`).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, app.url).origin).toBe(app.url);
    }
    // A page of the site is still where the picker leads, in the chosen language.
    const same = await rawRequest(app, "/language", { method: "POST", headers: { Origin: app.url }, body: form("/ru/order?id=1") });
    expect(same.headers.location).toBe("/order?id=1");
  });

  it("answers a return address beyond Latin-1 and an erasure id of dashes with 400 in the reader's language, and no error line", async () => {
    const from = app.output().length;
    const english = String((await rawRequest(app, "/language", { method: "POST", headers: { Origin: app.url }, body: "lng=en&redirectTo=%2F" })).headers["set-cookie"]?.[0] ?? "").split(";")[0]!;
    const beyond = "/\u0100";
    const posts: Array<{ target: string; body: string; headers?: Record<string, string>; says: string }> = [
      { target: "/cookies", body: new URLSearchParams({ redirectTo: beyond }).toString(), says: "Некорректный запрос" },
      { target: "/cookies", body: new URLSearchParams({ redirectTo: beyond }).toString(), headers: { Cookie: english }, says: "Invalid request" },
      { target: "/language", body: new URLSearchParams({ lng: "de", redirectTo: beyond }).toString(), says: "Некорректный запрос" },
    ];
    for (const { target, body, headers, says } of posts) {
      const answer = await rawRequest(app, target, { method: "POST", headers: { Origin: app.url, ...headers }, body });
      expect(answer.status, `${target} ${body}`).toBe(400);
      expect(answer.body).toContain(says);
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
    // A page that takes the address in its query answers with its 400 page.
    const signIn = await rawRequest(app, `/auth?redirectTo=${encodeURIComponent(beyond)}`);
    expect(signIn.status).toBe(400);
    expect(signIn.body).toContain("<h1>Некорректный запрос</h1>");

    // The erasure id was checked only for 36 of [0-9a-f-]: 36 dashes reached PostgreSQL's uuid cast.
    const admin = await signedInAs(app, t.db, "erasures-admin@aligner.test", ["admin"]);
    const dashes = "-".repeat(36);
    const approve = await admin.request("/backoffice/erasures", { form: { intent: "approve", id: dashes } });
    expect(approve.status).toBe(400);
    expect(await approve.text()).toContain("<h1>Некорректный запрос</h1>");
    // Asked about in the address, a forged id shows the list without a question, as any list field falls back.
    const asked = await admin.request(`/backoffice/erasures?confirm=${dashes}`);
    expect(asked.status).toBe(200);
    expect(await asked.text()).not.toContain('name="intent" value="approve"');

    // The last request's line is written as its answer ends: waited for, not raced.
    await expect.poll(() => app.output().slice(from).split("\n").filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(posts.length + 4);
    expect(errorLines(app, from)).toEqual([]);
  });

  it("answers targets that do not decode with the product's 400 page in the reader's language, never a stack", async () => {
    const from = app.output().length;
    // The language a visitor chose is a signed cookie: chosen here as the picker chooses it.
    const chosen = await rawRequest(app, "/language", { method: "POST", headers: { Origin: app.url }, body: "lng=de&redirectTo=%2F" });
    const german = String(chosen.headers["set-cookie"]?.[0] ?? "").split(";")[0]!;
    expect(german).toMatch(/^lng=/);
    const cases: Array<{ target: string; headers?: Record<string, string>; title: string; language: string }> = [
      { target: "/%", title: "Некорректный запрос", language: "ru" },
      { target: "/backoffice/%", title: "Некорректный запрос", language: "ru" },
      { target: "/build/%", title: "Некорректный запрос", language: "ru" },
      { target: "/build/_assets/%E0%A4%A", title: "Некорректный запрос", language: "ru" },
      { target: "/order?step=%zz", title: "Некорректный запрос", language: "ru" },
      { target: "/en/%", title: "Invalid request", language: "en" },
      { target: "/%", headers: { Cookie: german }, title: "Ungültige Anfrage", language: "de" },
      { target: "/%", headers: { Host: "aligners.com" }, title: "Invalid request", language: "en" },
      { target: "/", headers: { Host: "localhost:99999" }, title: "Некорректный запрос", language: "ru" },
      { target: "/healthz", headers: { Host: "localhost:0x50" }, title: "Некорректный запрос", language: "ru" },
      { target: "/healthz", headers: { Host: "a b" }, title: "Некорректный запрос", language: "ru" },
    ];
    for (const { target, headers, title, language } of cases) {
      const where = `${target} ${JSON.stringify(headers ?? {})}`;
      const answer = await rawRequest(app, target, { headers });
      expect(answer.status, where).toBe(400);
      expect(answer.headers["content-type"], where).toMatch(/^text\/html/);
      expect(answer.headers["content-language"], where).toBe(language);
      expect(answer.body, where).toContain(`<h1>${title}</h1>`);
      expect(answer.body, where).toMatch(/data-request-id="[0-9a-f-]{36}"/);
      expect(answer.body, where).not.toMatch(/\bat .+:\d+:\d+/);
      expect(answer.body, where).not.toMatch(/URIError|node_modules|Error:/);
      expect(answer.body, where).not.toContain(ROOT);
    }
    // A post to such a target is refused the same way, before any check that would decode it.
    const post = await rawRequest(app, "/api/webhooks/%", { method: "POST", headers: { Origin: "https://evil.example" }, body: "a=b" });
    expect(post.status).toBe(400);
    expect(errorLines(app, from)).toEqual([]);
  });
});
