import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { DASHBOARD_PAGE_SIZE } from "~/modules/backoffice/dashboard.server";
import { gatePassed, rendered, type Browser } from "./support";
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

  const text = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  const page = async (query: string) => await (await staff.request(`/backoffice${query}`)).text();
  const cards = (html: string) => [...html.matchAll(/aria-labelledby="order-([0-9a-f-]{36})"/g)].map((match) => match[1]);
  const tabCount = (html: string, label: string) => Number(new RegExp(`>${label}<span class="bo-tab-count"> ([\\d\\s\\u00a0]+)</span>`).exec(html)?.[1]?.replace(/\D/g, "") ?? Number.NaN);

  it("opens on paid and in-work orders, each tab's count equals its rows, and dates and market narrow them", async () => {
    const make = async (status: "paid" | "processing" | "shipped" | "pending", daysAgo: number, market: "domestic" | "international" = "domestic") => {
      const order = await buildOrderIn(t.db, status, { createdAt: new Date(Date.now() - daysAgo * 86_400_000), market, currency: market === "domestic" ? "rub" : "eur" });
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
    expect(shown).toEqual(expect.arrayContaining([paid.id, processing.id, oldPaid.id]));
    expect(shown).not.toContain(shipped.id);
    expect(shown).not.toContain(pending.id);
    // Every tab's count is the number of its rows (all fit on few pages here).
    const rows = async (query: string) => {
      let all: string[] = [];
      for (let n = 1; n < 20; n++) {
        const html = await page(`${query}${query ? "&" : "?"}page=${n}`);
        all = all.concat(cards(html));
        if (!html.includes('rel="next"') && !/href="[^"]*page=\d+"[^>]*>Вперёд/.test(html)) break;
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
    expect(text(home)).toContain(`1–${Math.min(work, DASHBOARD_PAGE_SIZE)} из ${work} · страниц: ${Math.ceil(work / DASHBOARD_PAGE_SIZE)}`);

    // Dates and market narrow every tab; the old international order is outside.
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const recent = await page(`?from=${weekAgo}&to=${today}&market=domestic`);
    expect(cards(recent)).toEqual(expect.arrayContaining([paid.id, processing.id]));
    expect(cards(recent)).not.toContain(oldPaid.id);
    const [{ count }] = (await sql<{ count: number }>`select count(*)::int as count from orders o where o.status in ('paid', 'processing') and o.market = 'domestic' and o.created_at >= ${new Date(`${weekAgo}T00:00:00Z`)} and exists (select 1 from orders_patients p where p.order_id = o.id)`.execute(t.db)).rows as [{ count: number }];
    expect(tabCount(recent, "К работе")).toBe(count);
    const international = await page("?market=international&status=all");
    expect(cards(international)).toContain(oldPaid.id);
    expect(cards(international)).not.toContain(paid.id);

    // A search looks through every status.
    expect(cards(await page(`?q=${shipped.id.slice(0, 8)}`))).toEqual([shipped.id]);
    // Nonsense in the query is read as nothing.
    expect((await staff.request("/backoffice?from=2026-13-45&market=mars&status=nope&page=-3")).status).toBe(200);
  });

  it("shows the compact table with the order's code, date, clinic, patients, total, status and payment date", async () => {
    const order = await buildOrderIn(t.db, "paid", { fullName: "Клиника Табличная" });
    await buildPatient(t.db, order.id);
    const html = await page("?view=table");
    const row = text(html.slice(html.indexOf('<table class="bo-orders-table"')));
    expect(row).toContain("Клиника Табличная");
    expect(row).toMatch(/Заказ Дата Клиника Пациенты Сумма Статус Оплачен/);
    expect(row).toMatch(new RegExp(`${order.id.slice(0, 4).toUpperCase()}[^ ]* \\d{2}\\.\\d{2}\\.\\d{4} Клиника Табличная 1 12\\s500\\s₽ Оплачен \\d{2}\\.\\d{2}\\.\\d{4}`));
    // The view stays through the tabs and the filter form.
    expect(html).toContain('href="/backoffice?view=table&amp;status=shipped"');
    expect(html).toContain('<input type="hidden" name="view" value="table"/>');
  });
});
