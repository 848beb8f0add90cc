import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { follow, gatePassed, pagerLink, signedInAs, toastOf, type Browser } from "../backoffice/support";
import { browserFetch } from "../../support/app-server";
import { SECRETS, startApp, type TestApp } from "../../support/app";

/**
 * Every list's "next" link is a real keyset cursor (ADR 091): a page after it starts right after
 * the last row the person saw, however many rows came in meanwhile. A list that pages by a row
 * count (an OFFSET, or a cursor that reads as none and falls back to one) shows a row again once a
 * newer row is added between two pages — which this test does, and then checks no row repeats and
 * none is missed.
 */
describe("the lists' next links", () => {
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

  const nextLink = (html: string) => pagerLink(html, "next");
  const tableRows = (html: string) =>
    [...html.matchAll(/<th scope="row"><a[^>]* href="\/backoffice\/orders\/([0-9a-f-]{36})"/g)].map((match) => match[1]);

  /** Walks a list from its first address by its own next links, adding a newer row before each step. */
  async function walkAddingRows(first: string, rowsOf: (html: string) => string[], addNewer: () => Promise<void>, browser: Browser = staff) {
    const seen: string[] = [];
    let html = await (await browser.request(first)).text();
    for (let step = 0; step < 20; step++) {
      seen.push(...rowsOf(html));
      const next = nextLink(html);
      if (!next) break;
      await addNewer();
      const response = await browser.request(next);
      expect(response.status, next).toBe(200);
      html = await response.text();
    }
    return seen;
  }

  it("the back office's work list, in each sort, neither repeats nor skips a row when newer orders come in between pages", async () => {
    // Orders of one January long ago, with microseconds in their times (as now() writes them).
    const made: string[] = [];
    for (let i = 0; i < 25; i++) {
      const createdAt = new Date(Date.UTC(2019, 0, 1 + (i % 9), 10, i, 0, 123));
      const order = await buildOrderIn(t.db, i % 3 === 0 ? "processing" : "paid", { createdAt, market: "international", currency: "eur" });
      await t.db.updateTable("orders").set({ total_cost: (i % 5) * 100 + 50 }).where("id", "=", order.id).execute();
      await buildPatient(t.db, order.id);
      made.push(order.id);
    }
    // Microseconds a JavaScript Date cannot hold: a cursor rounded to the millisecond would misplace rows.
    await sql`update orders set created_at = created_at + interval '456 microseconds' where created_at >= '2019-01-01' and created_at < '2019-02-01'`.execute(t.db);
    let added = 0;
    const addNewer = async () => {
      // A newer order of the same filter: first in the date sort, and somewhere inside the others.
      const order = await buildOrderIn(t.db, "paid", { createdAt: new Date(Date.UTC(2019, 0, 20, 12, added++, 0)), market: "international", currency: "eur" });
      await t.db.updateTable("orders").set({ total_cost: 175 }).where("id", "=", order.id).execute();
      await buildPatient(t.db, order.id);
    };
    for (const sort of ["", "&sort=total", "&sort=status", "&sort=total&dir=asc"]) {
      const before = new Set(
        (await t.db.selectFrom("orders").select("id").where("created_at", ">=", new Date("2019-01-01")).where("created_at", "<", new Date("2019-02-01")).where("market", "=", "international").execute()).map((row) => row.id)
      );
      const seen = await walkAddingRows(`/backoffice?view=table&status=all&from=2019-01-01&to=2019-01-31&market=international${sort}`, tableRows, addNewer);
      // No row twice…
      expect(seen.length, `${sort}: a row shown twice`).toBe(new Set(seen).size);
      // …and every row that was there before the walk began shown once.
      expect([...before].filter((id) => !seen.includes(id)), `${sort}: rows missed`).toEqual([]);
    }
    expect(made.length).toBe(25);
  });

  it("the packer's list of every order neither repeats nor skips a row when newer orders come in between pages", async () => {
    const packer = browserFetch(app);
    await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
    const before: string[] = [];
    for (let i = 0; i < 75; i++) {
      // Pairs of orders at one instant: the id breaks the tie.
      const order = await buildOrderIn(t.db, "shipped", { createdAt: new Date(Date.UTC(2018, 5, 1, 8, Math.floor(i / 2), 0)) });
      before.push(order.id);
    }
    await sql`update orders set created_at = created_at + interval '789 microseconds' where status = 'shipped'`.execute(t.db);
    const cardsOf = (html: string) => [...html.matchAll(/<article [^>]*id="o-([0-9a-f-]{36})"/g)].map((match) => match[1]);
    const seen = await walkAddingRows(
      "/packer?view=all&status=shipped",
      cardsOf,
      async () => {
        await buildOrderIn(t.db, "shipped", { createdAt: new Date() });
      },
      packer
    );
    expect(seen.length, "a row shown twice").toBe(new Set(seen).size);
    expect(before.filter((id) => !seen.includes(id)), "rows missed").toEqual([]);
  });

  it("the back office's client list neither repeats nor skips a client when new clients order between pages", async () => {
    // The orders above are each a client of their own: some 150, three pages.
    const before = (await t.db.selectFrom("client_summaries").select("email").execute()).map((row) => row.email);
    expect(before.length).toBeGreaterThan(100);
    // The table's rows only (the page's data also carries the cursor it was opened with).
    const emailsOf = (html: string) => [...new Set([...(/<tbody>[\s\S]*?<\/tbody>/.exec(html)?.[0] ?? "").matchAll(/doctor-[0-9a-f]{8}@clinic\.test/g)].map((match) => match[0]))];
    const seen = await walkAddingRows("/backoffice/clients?all=1", emailsOf, async () => {
      await buildOrderIn(t.db, "paid", { createdAt: new Date() });
    });
    expect(seen.length, "a client shown twice").toBe(new Set(seen).size);
    expect(before.filter((email) => !seen.includes(email)), "clients missed").toEqual([]);
  });

  it("the partner's referral orders neither repeat nor skip an order when newer ones come in between pages", async () => {
    const partnerEmail = "walking-partner@partner.test";
    const partner = await signedInAs(app, t.db, partnerEmail);
    const code = await t.db.insertInto("partner_codes").values({ code: "WALKRF", user_email: partnerEmail, reward_percentage: 10 }).returning("id").executeTakeFirstOrThrow();
    let referrals = 0;
    /** An order of a referral of its own: its e-mail names the row on the page. */
    const referredOrder = async (createdAt: Date) => {
      const email = `referral-${String(referrals++).padStart(3, "0")}@clinic.test`;
      await t.db.insertInto("partner_affiliates").values({ partner_code_id: code.id, affiliate_email: email }).execute();
      await buildOrderIn(t.db, referrals % 2 ? "paid" : "pending", { email, createdAt });
      return email;
    };
    const before: string[] = [];
    // Pairs of orders at one instant (the id breaks the tie), with microseconds: three pages of 25.
    for (let i = 0; i < 60; i++) before.push(await referredOrder(new Date(Date.UTC(2017, 2, 1, 9, Math.floor(i / 2), 0))));
    await sql`update orders set created_at = created_at + interval '321 microseconds' where email like 'referral-%@clinic.test'`.execute(t.db);
    const emailsOf = (html: string) => [...html.matchAll(/<tr class="referral-order">[\s\S]*?(referral-\d{3}@clinic\.test)/g)].map((match) => match[1]);
    const seen = await walkAddingRows(
      "/partner",
      emailsOf,
      async () => {
        await referredOrder(new Date());
      },
      partner
    );
    expect(seen.length, "an order shown twice").toBe(new Set(seen).size);
    expect(before.filter((email) => !seen.includes(email)), "orders missed").toEqual([]);
  });

  it("the back office's partners, oldest first, neither repeat nor skip a partner when an older one is added between pages", async () => {
    // Oldest first: a row a count of rows would push onto the next page again is an older one.
    let made = 0;
    const partnerAt = async (createdAt: Date) => {
      // A code is six capital letters: WK and four more of the count.
      const code = `WK${[...made.toString(26).padStart(4, "0")].map((digit) => String.fromCharCode(65 + parseInt(digit, 26))).join("")}`;
      made++;
      await t.db.insertInto("partner_codes").values({ code, user_email: `${code.toLowerCase()}@partner.test`, reward_percentage: 10, created_at: createdAt }).execute();
      return code;
    };
    for (let i = 0; i < 45; i++) await partnerAt(new Date(Date.UTC(2016, 0, 1, 9, Math.floor(i / 3), 0)));
    await sql`update partner_codes set created_at = created_at + interval '654 microseconds' where code like 'WK%'`.execute(t.db);
    const before = (await t.db.selectFrom("partner_codes").select("code").execute()).map((row) => row.code);
    expect(before.length).toBeGreaterThan(40);
    const codesOf = (html: string) => [...html.matchAll(/<li class="card affiliate" id="partner-([^"]+)"/g)].map((match) => match[1]);
    let older = 0;
    const seen = await walkAddingRows("/backoffice/affiliates", codesOf, async () => {
      await partnerAt(new Date(Date.UTC(2015, 0, 1, 0, older++, 0)));
    });
    expect(seen.length, "a partner shown twice").toBe(new Set(seen).size);
    expect(before.filter((code) => !seen.includes(code)), "partners missed").toEqual([]);
  });

  it("the erasure requests neither repeat nor skip a request when newer ones come in between pages", async () => {
    const admin = await signedInAs(app, t.db, "walking-admin@lab.test", ["admin"]);
    let made = 0;
    const requestAt = async (requestedAt: Date) => {
      const email = `erasure-${String(made++).padStart(3, "0")}@clinic.test`;
      await t.db.insertInto("erasure_requests").values({ email, pseudonym: `erased-walk${made}@erased.invalid`, requested_at: requestedAt }).execute();
      return email;
    };
    const before: string[] = [];
    // Pairs at one instant (the id breaks the tie), with microseconds: three pages of 50.
    for (let i = 0; i < 120; i++) before.push(await requestAt(new Date(Date.UTC(2018, 1, 1, 9, Math.floor(i / 2), 0))));
    await sql`update erasure_requests set requested_at = requested_at + interval '987 microseconds' where email like 'erasure-%@clinic.test'`.execute(t.db);
    const emailsOf = (html: string) => [...(/<tbody>[\s\S]*?<\/tbody>/.exec(html)?.[0] ?? "").matchAll(/erasure-\d{3}@clinic\.test/g)].map((match) => match[0]);
    const seen = await walkAddingRows(
      "/backoffice/erasures",
      emailsOf,
      async () => {
        await requestAt(new Date());
      },
      admin
    );
    expect(seen.length, "a request shown twice").toBe(new Set(seen).size);
    expect(before.filter((email) => !seen.includes(email)), "requests missed").toEqual([]);
  });

  it("an old ?page=N address of every list redirects to the cursor address its pager's links lead to, and one past the list to its first page with a message", async () => {
    const packer = browserFetch(app);
    await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
    const admin = await signedInAs(app, t.db, "walking-admin@lab.test", ["admin"]);
    const partner = await signedInAs(app, t.db, "walking-partner@partner.test");
    const lists: Array<[string, Browser]> = [
      ["/backoffice?view=table&status=all&from=2019-01-01&to=2019-01-31&market=international", staff],
      ["/backoffice?view=table&status=all&from=2019-01-01&to=2019-01-31&market=international&sort=status", staff],
      ["/packer?view=all&status=shipped", packer],
      ["/backoffice/clients?all=1", staff],
      ["/partner", partner],
      ["/backoffice/affiliates", staff],
      ["/backoffice/erasures", admin],
    ];
    const sorted = (address: string) => {
      const url = new URL(address, "http://lab.test");
      return `${url.pathname}?${[...url.searchParams].sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name}=${value}`).join("&")}`;
    };
    const joined = (first: string, query: string) => `${first}${first.includes("?") ? "&" : "?"}${query}`;
    for (const [first, browser] of lists) {
      // Pages 2 and 3 as the pager reaches them: by its "next" links.
      const second = nextLink(await (await browser.request(first)).text());
      expect(second, first).not.toBeNull();
      const secondHtml = await (await browser.request(second!)).text();
      const third = nextLink(secondHtml);
      for (const [n, expected] of [[2, second], [3, third]] as const) {
        const answer = await browser.request(joined(first, `page=${n}`));
        expect(answer.status, `${first} page ${n}`).toBe(302);
        const location = answer.headers.get("Location")!;
        if (expected) expect(sorted(location), `${first} page ${n}`).toBe(sorted(expected));
        else expect(sorted(location), `${first} page ${n}: past the list`).toBe(sorted(first));
      }
      // A page past the list (or past the walk's bound): its first page, which says why.
      const past = await browser.request(joined(first, "page=999"));
      expect(past.status, first).toBe(302);
      expect(sorted(past.headers.get("Location")!), first).toBe(sorted(first));
      expect(toastOf(await follow(browser, past)), first).toEqual(["Показана первая страница", "Старая ссылка вела на страницу 999 по номеру, а её уже не найти: листайте список ссылками «Вперёд» и «Назад»."]);
    }
    // The redirect's address is a cursor address: it answers the page, not another redirect.
    const moved = await staff.request("/backoffice/clients?all=1&page=2");
    expect((await staff.request(moved.headers.get("Location")!)).status).toBe(200);
  });
});
