import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookies } from "~/modules/http/request/cookies.server";
import type { TestDatabase } from "../../support/database";
import { MARKET_HOSTS, marketBrowser } from "../i18n/support";
import { startApp, type TestApp } from "../../support/app";

/**
 * Referral attribution without an unasked cookie on the international market (issue 37 item 4,
 * ADR 044): a partner link sets nothing; the landing offers to remember the partner, and only
 * that "yes" sets the 30-day `partner` cookie. The domestic market keeps the spec's behaviour
 * (tests/integration/i18n/landing.test.ts). The site-wide money-back banner is domestic only.
 */
describe("partner links on the international market", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS } });
    t = app.database;
    await t.db.insertInto("partner_codes").values({ code: "EUREFS", user_email: "partner@ortho.example", user_name: "Ortho Partner" }).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const partnerCookie = async (response: Response) => {
    const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith("partner="));
    return header ? await cookies.partnerCode().parse(header.split(";")[0]!) : null;
  };

  it("set no cookie at all, and offer to remember the partner", async () => {
    for (const path of ["/EUREFS", "/eurefs", "/de?partner=eurefs", "/?partner=EUREFS"]) {
      const response = await marketBrowser(app, "international").request(path);
      expect(response.status, path).toBe(200);
      // Opening the landing in a language keeps that language (the visitor's own choice), nothing else.
      const expected = path.startsWith("/de") ? ["lng"] : [];
      expect(response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]), path).toEqual(expected);
      const html = await response.text();
      expect(html, path).toContain('name="intent" value="partner"');
      expect(html, path).toContain('name="partner" value="EUREFS"');
      expect(html, path).toMatch(/action="\/cookies"/);
    }
    const unknown = await marketBrowser(app, "international").request("/ZZZZZZ");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.getSetCookie()).toEqual([]);
    const plain = await (await marketBrowser(app, "international").request("/")).text();
    expect(plain).not.toContain('name="intent" value="partner"');
  });

  it("remember the partner for 30 days only when the visitor says yes, and no longer offer it", async () => {
    const browser = marketBrowser(app, "international");
    await browser.request("/EUREFS");
    const yes = await browser.request("/cookies", { form: { intent: "partner", partner: "EUREFS", redirectTo: "/EUREFS" } });
    expect(yes.status).toBe(302);
    expect(yes.headers.get("Location")).toBe("/EUREFS");
    expect(await partnerCookie(yes)).toBe("EUREFS");
    const header = yes.headers.getSetCookie().find((cookie) => cookie.startsWith("partner="))!;
    expect(header).toMatch(/Max-Age=2592000/);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    // Only the partner cookie: saying yes to the partner is not an answer to the cookie notice.
    expect(yes.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual(["partner"]);
    const again = await browser.request("/EUREFS");
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).not.toContain('name="intent" value="partner"');
  });

  it("keep nothing for a code that does not exist or is not a code", async () => {
    for (const partner of ["ZZZZZZ", "EUREF", "<script>", ""]) {
      const response = await marketBrowser(app, "international").request("/cookies", { form: { intent: "partner", partner, redirectTo: "/" } });
      expect(response.status, partner).toBe(302);
      expect(response.headers.getSetCookie(), partner).toEqual([]);
    }
  });

  it("leave the cookie notice's answer as it was", async () => {
    const response = await marketBrowser(app, "international").request("/cookies", { form: { redirectTo: "/" } });
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual(["cookie_ok"]);
  });

  it("meet a notice that names the partner opt-in, and no money-back banner, which only the domestic terms promise", async () => {
    const international = await (await marketBrowser(app, "international").request("/privacy")).text();
    expect(international).toContain("a partner&#x27;s link is remembered only if you allow it");
    expect(international).not.toContain("guarantee-banner");
    expect(international).not.toContain("100% money-back guarantee");
    const domestic = await (await marketBrowser(app, "domestic").request("/privacy")).text();
    expect(domestic).toContain("guarantee-banner");
    expect(domestic).toContain("Гарантия возврата денег 100%.");
  });
});
