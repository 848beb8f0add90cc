import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { DASHBOARD_PAGE_SIZE } from "~/modules/backoffice/dashboard.server";
import { countWorkListTabs } from "~/modules/orders/work-list.server";
import { follow, gatePassed, pagerLink, rendered, signedInAs, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/**
 * The orders as a work list (ADR 066): the page opens on what needs staff (paid and in work); the
 * specification's status filter is tabs that carry their counts, and each count equals the rows
 * behind its tab; dates and market narrow every tab; "N из M" with the page count; a compact table
 * beside the specification's cards.
 */
describe("the orders work list", () => {
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

  const text = (html: string) =>
    rendered(html)
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  const page = async (query: string) => {
    const response = await staff.request(`/backoffice${query}`);
    // An old `?page=N` address answers with a redirect to its page's cursor address (ADR 091).
    return response.status === 302 ? follow(staff, response) : response.text();
  };
  const cards = (html: string) =>
    [...html.matchAll(/aria-labelledby="order-([0-9a-f-]{36})"/g)].map(
      (match) => match[1]
    );
  const tabCount = (html: string, label: string) =>
    Number(
      new RegExp(
        `>${label}<span class="bo-tab-count"> ([\\d\\s\\u00a0]+)</span>`
      )
        .exec(html)?.[1]
        ?.replace(/\D/g, "") ?? Number.NaN
    );

  it("counts each tab up to its cap: a tab past it reads as the cap exceeded, one at or below it exactly", async () => {
    // Orders of one day long ago, on their own under the date filter.
    const day = "2011-03-14";
    const at = new Date(`${day}T12:00:00Z`);
    for (const status of ["paid", "paid", "processing", "cancelled"] as const) {
      const order = await buildOrderIn(t.db, status, { createdAt: at });
      await buildPatient(t.db, order.id);
    }
    await buildOrderIn(t.db, "paid", { createdAt: at }); // no patients: hidden unless asked for
    const filter = { from: day, to: day, market: null, showEmpty: false };
    const tabs = [["work", ["paid", "processing"]], ["paid", ["paid"]], ["processing", ["processing"]], ["shipped", ["shipped"]], ["all", null]] as const;
    expect(await countWorkListTabs(t.db, filter, tabs, 2)).toEqual({ work: 3, paid: 2, processing: 1, shipped: 0, all: 3 });
    expect(await countWorkListTabs(t.db, filter, tabs, 10)).toEqual({ work: 3, paid: 2, processing: 1, shipped: 0, all: 4 });
    expect(await countWorkListTabs(t.db, { ...filter, showEmpty: true }, tabs, 10)).toEqual({ work: 4, paid: 3, processing: 1, shipped: 0, all: 5 });
  });

  it("opens on paid and in-work orders, each tab's count equals its rows, and dates and market narrow them", async () => {
    const make = async (
      status: "paid" | "processing" | "shipped" | "pending",
      daysAgo: number,
      market: "domestic" | "international" = "domestic"
    ) => {
      const order = await buildOrderIn(t.db, status, {
        createdAt: new Date(Date.now() - daysAgo * 86_400_000),
        market,
        currency: market === "domestic" ? "rub" : "eur",
      });
      await buildPatient(t.db, order.id);
      return order;
    };
    const paid = await make("paid", 1);
    const processing = await make("processing", 2);
    const shipped = await make("shipped", 3);
    const pending = await make("pending", 4);
    const oldPaid = await make("paid", 400, "international");

    const home = await page("");
    const shown = cards(home);
    expect(shown).toEqual(
      expect.arrayContaining([paid.id, processing.id, oldPaid.id])
    );
    expect(shown).not.toContain(shipped.id);
    expect(shown).not.toContain(pending.id);
    // Every tab's count is the number of its rows (all fit on few pages here).
    const rows = async (query: string) => {
      let all: string[] = [];
      for (let n = 1; n < 20; n++) {
        const html = await page(`${query}${query ? "&" : "?"}page=${n}`);
        all = all.concat(cards(html));
        if (
          !html.includes('rel="next"') &&
          !/href="[^"]*page=\d+"[^>]*>Вперёд/.test(html)
        )
          break;
      }
      return new Set(all).size;
    };
    for (const [label, query] of [
      ["К работе", ""],
      ["Отправлен", "?status=shipped"],
      ["Ожидает оплаты", "?status=pending"],
      ["Все", "?status=all"],
    ] as const) {
      expect(tabCount(home, label), label).toBe(await rows(query));
    }
    // "1–N из M · страниц: K".
    const work = tabCount(home, "К работе");
    expect(text(home)).toContain(
      `1–${Math.min(
        work,
        DASHBOARD_PAGE_SIZE
      )} из ${work} · страниц: ${Math.ceil(work / DASHBOARD_PAGE_SIZE)}`
    );

    // Dates and market narrow every tab; the old international order is outside.
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const recent = await page(`?from=${weekAgo}&to=${today}&market=domestic`);
    expect(cards(recent)).toEqual(
      expect.arrayContaining([paid.id, processing.id])
    );
    expect(cards(recent)).not.toContain(oldPaid.id);
    const [{ count }] = (
      await sql<{
        count: number;
      }>`select count(*)::int as count from orders o where o.status in ('paid', 'processing') and o.market = 'domestic' and o.created_at >= ${new Date(
        `${weekAgo}T00:00:00Z`
      )} and exists (select 1 from orders_patients p where p.order_id = o.id)`.execute(
        t.db
      )
    ).rows as [{ count: number }];
    expect(tabCount(recent, "К работе")).toBe(count);
    const international = await page("?market=international&status=all");
    expect(cards(international)).toContain(oldPaid.id);
    expect(cards(international)).not.toContain(paid.id);

    // A search looks through every status.
    expect(cards(await page(`?q=${shipped.id.slice(0, 8)}`))).toEqual([
      shipped.id,
    ]);
    // Nonsense in the query is read as nothing.
    expect(
      (
        await staff.request(
          "/backoffice?from=2026-13-45&market=mars&status=nope&page=-3"
        )
      ).status
    ).toBe(200);
  });

  it("shows the compact table with the order's code, date, clinic, patients, total, status and payment date", async () => {
    // The clinic is the company its invoice names (not the parcel's recipient, issue 57).
    const order = await buildOrderIn(t.db, "paid", {
      fullName: "Получатель Посылки",
    });
    await t.db
      .insertInto("invoices")
      .values({ order_id: order.id, client_company: "Клиника Табличная", client_inn: "7701234567", supplier: JSON.stringify({}), lines: JSON.stringify([]), total: 1250000, currency: "rub" })
      .execute();
    await buildPatient(t.db, order.id);
    const html = await page("?view=table");
    const row = text(
      html.slice(html.indexOf('<table class="bo-orders-table"'))
    );
    expect(row).toContain("Клиника Табличная");
    expect(row).not.toContain("Получатель Посылки");
    expect(row).toMatch(/Заказ Дата ↓ Клиника Пациенты Сумма Статус Оплачен/);
    expect(row).toMatch(
      new RegExp(
        `${order.id
          .slice(0, 4)
          .toUpperCase()}[^ ]* \\d{2}\\.\\d{2}\\.\\d{4} Клиника Табличная 1 12\\s500\\s₽ Оплачен \\d{2}\\.\\d{2}\\.\\d{4}`
      )
    );
    // The view the address names stays through the tabs and the filter form.
    expect(html).toContain('href="/backoffice?view=table&amp;status=shipped"');
    expect(html).toContain('<input type="hidden" name="view" value="table"/>');
  });

  // The list kit (ADR 067): keyset pages, sorts, the remembered view.
  const tableRows = (html: string) =>
    [
      ...html.matchAll(
        /<th scope="row"><a[^>]* href="\/backoffice\/orders\/([0-9a-f]{8})[0-9a-f-]{28}"/g
      ),
    ].map((match) => match[1]);
  const nextLink = (html: string) => pagerLink(html, "next");
  const previousLink = (html: string) => pagerLink(html, "prev");

  it("pages by keyset through every row once, in the sort's order, forward and back, and sorts by total and status", async () => {
    const market = "international";
    const made: Array<{ id: string; total: number; createdAt: Date }> = [];
    for (let i = 0; i < 23; i++) {
      const createdAt = new Date(Date.UTC(2020, 0, 1 + (i % 7), 12, 0, 0));
      const order = await buildOrderIn(
        t.db,
        i % 3 === 0 ? "processing" : "paid",
        { createdAt, market, currency: "eur" }
      );
      const total = ((i * 7919) % 23) * 1000 + 500;
      await t.db
        .updateTable("orders")
        .set({ total_cost: total })
        .where("id", "=", order.id)
        .execute();
      await buildPatient(t.db, order.id);
      made.push({ id: order.id, total, createdAt });
    }
    const base =
      "?view=table&from=2020-01-01&to=2020-01-31&market=international";
    const walk = async (first: string) => {
      const pages: string[][] = [];
      let html = await page(first);
      for (;;) {
        pages.push(tableRows(html));
        const next = nextLink(html);
        if (!next) break;
        expect(next).toContain("after=");
        html = await (await staff.request(next)).text();
      }
      return { pages, last: html };
    };
    const byDate = [...made]
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a.id < b.id ? 1 : -1)
      )
      .map((order) => order.id.slice(0, 8));
    const { pages, last } = await walk(base);
    expect(pages.map((rows) => rows.length)).toEqual([10, 10, 3]);
    // No gaps, no duplicates, and the order the sort promises (ties by id, the same way).
    expect(pages.flat()).toEqual(byDate);
    expect(text(last)).toContain("21–23 из 23 · страниц: 3");
    // Back from the last page by its "before" cursor gives page 2 again.
    const back = previousLink(last);
    expect(back).toContain("before=");
    expect(tableRows(await (await staff.request(back!)).text())).toEqual(
      pages[1]
    );

    const byTotal = [...made]
      .sort((a, b) => b.total - a.total || (a.id < b.id ? 1 : -1))
      .map((order) => order.id.slice(0, 8));
    expect((await walk(`${base}&sort=total`)).pages.flat()).toEqual(byTotal);
    const ascending = (await walk(`${base}&sort=total&dir=asc`)).pages.flat();
    expect(ascending).toEqual([...byTotal].reverse());

    // By status: paid before processing (the statuses' own order), oldest first within each.
    const byStatus = (await walk(`${base}&sort=status`)).pages.flat();
    const processing = new Set(
      made.filter((_, i) => i % 3 === 0).map((order) => order.id.slice(0, 8))
    );
    expect(byStatus.findIndex((id) => processing.has(id))).toBe(
      made.length - processing.size
    );

    // Column headers are links that sort, and the sorted one turns the direction round.
    const html = await page(`${base}&sort=total`);
    expect(html).toContain('aria-sort="descending"');
    expect(html).toMatch(
      /href="\/backoffice\?view=table&amp;from=2020-01-01&amp;to=2020-01-31&amp;market=international&amp;sort=total&amp;dir=asc"/
    );
    // A forged cursor or page reads as the first page, never a 500.
    for (const forged of [
      "after=abc",
      "after=WyJ4IiwieSJd",
      "before=%25%25",
      "page=abc",
      `q=${"x".repeat(2_000)}`,
    ])
      expect((await staff.request(`/backoffice${base}&${forged}`)).status).toBe(
        200
      );
    expect(tableRows(await page(`${base}&after=WyJ4IiwieSJd`))).toEqual(
      pages[0]
    );
  });

  it("remembers a signed-in staff member's view and folded statistics", async () => {
    const manager = await signedInAs(app, t.db, "manager-view@example.com", [
      "manager",
    ]);
    const open = async (path = "/backoffice") =>
      await (await manager.request(path)).text();
    expect(await open()).toContain(
      'value="show_table" class="link-button" aria-pressed="false"'
    );
    const chose = await manager.request("/backoffice?index&status=all", {
      form: { intent: "show_table" },
    });
    expect(chose.status).toBe(302);
    expect(chose.headers.get("location")).toBe(
      "/backoffice?status=all&view=table"
    );
    // Later, the bare address opens as a table for this manager, and still as cards for someone else.
    expect(await open()).toContain('<table class="bo-orders-table"');
    expect(await page("")).not.toContain('<table class="bo-orders-table"');
    // Folded statistics stay folded, and are not shown.
    expect(await open()).toContain("bo-statistics");
    await manager.request("/backoffice?index", {
      form: { intent: "fold_statistics" },
    });
    const folded = await open();
    expect(folded).not.toContain('id="bo-statistics"');
    expect(folded).toContain('value="unfold_statistics"');
    const row = await t.db
      .selectFrom("staff_preferences")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      orders_view: "table",
      statistics_folded: true,
    });
  });
});
