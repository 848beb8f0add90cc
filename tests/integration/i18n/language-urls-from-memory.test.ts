import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type AppServer, startAppServer } from "../../support/app-server";
import { MARKET_HOSTS, SECRETS } from "./support";

/**
 * A language URL (`/de`) is one page for every anonymous visitor of its language and market, kept in
 * memory like `/` (ADR 048); only the saved-language cookie differs: given to a visitor who had
 * none or another language, with `private` caching; not given, and `public`, to one who has it.
 */
describe("language URLs from memory", () => {
  let t: TestDatabase;
  let app: AppServer;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    app = await startAppServer({ DATABASE_URL: t.url, ...SECRETS, ...MARKET_HOSTS });
  });
  afterAll(async () => {
    await app?.stop();
    await t?.drop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers: { "Accept-Encoding": "gzip", ...headers } });

  it("gives each visitor the same page, with the language cookie only to those who lack it", async () => {
    for (const language of ["de", "en"]) {
      const answers = [];
      for (const cookie of [undefined, undefined, "lng=ru", "cookie_ok=1", undefined]) {
        const answer = await get(`/${language}`, cookie ? { Cookie: cookie } : {});
        answers.push({ cookie, status: answer.status, etag: answer.headers.get("ETag"), cache: answer.headers.get("Cache-Control"), setCookie: answer.headers.getSetCookie(), body: await answer.text() });
      }
      for (const answer of answers) {
        expect(answer.status, `/${language} ${answer.cookie}`).toBe(200);
        expect(answer.body).toContain(`<html lang="${language}"`);
        expect(answer.cache, `/${language} ${answer.cookie}`).toBe("private, max-age=60");
        expect(answer.setCookie, `/${language} ${answer.cookie}`).toEqual([expect.stringMatching(/^lng=[^;]+; Max-Age=\d+; Path=\//)]);
      }
      // The same page, made once: the same validator whatever the visitor had saved.
      const plain = answers.filter((answer) => answer.cookie !== "cookie_ok=1");
      expect(new Set(plain.map((answer) => answer.etag)).size, `/${language}`).toBe(1);
      expect(new Set(plain.map((answer) => answer.body)).size, `/${language}`).toBe(1);

      // The cookie it gives is the page's language: sent back, the page comes without it and public.
      const saved = answers[0]!.setCookie[0]!.split(";")[0]!;
      const returning = await get(`/${language}`, { Cookie: saved });
      expect(returning.headers.getSetCookie(), `/${language} returning`).toEqual([]);
      expect(returning.headers.get("Cache-Control")).toBe("public, max-age=60");
      expect(returning.headers.get("ETag")).toBe(answers[0]!.etag);
      expect(await returning.text()).toBe(answers[0]!.body);

      // A validator held by a new visitor: 304, and the cookie still comes.
      const revalidated = await get(`/${language}`, { "If-None-Match": answers[0]!.etag! });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.getSetCookie()).toEqual(answers[0]!.setCookie);
    }
  });
});
