import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { gatePassed, pagerLink, type Browser } from "../backoffice/support";
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
});
