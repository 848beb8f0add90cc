import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { type AppServer, startAppServer } from "../support/app-server";
import { startPyrusDouble, type PyrusDouble } from "../support/pyrus-double";
import { backofficePassword } from "./support";

/**
 * The back-office journey (issue "Back-office operations"), with JavaScript on and off (the project
 * decides). On PostgreSQL it runs against its own server — a fresh database with the demo seed and
 * Pyrus pointed at the local double — so it can check figures in SQL and send a task. On the
 * zero-configuration target it walks the same pages against `npm start` (PGlite), so the SQL behind
 * them is proven on the embedded database too.
 */

const embedded = process.env.E2E_TARGET === "embedded";
const PASSWORD = "e2e-backoffice-journey";
const PAID_SET = "('paid','processing','shipped','completed')";

async function signIn(page: Page, base: string, password: string) {
  await page.goto(`${base}/backoffice`);
  await expect(page).toHaveURL(/\/backoffice\/login/);
  await page.getByLabel("Пароль").fill(password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("heading", { name: "Заказы", level: 1 })).toBeVisible();
}

const toast = (page: Page) => page.locator(".toast").first();
const orderCard = (page: Page, number: string) => page.getByRole("article", { name: `Заказ ${number}` });

const TAB_LABELS: Record<string, string> = { all: "Все", draft: "Черновик", pending: "Ожидает оплаты", paid: "Оплачен", processing: "В работе", shipped: "Отправлен", completed: "Завершен", cancelled: "Отменен" };

/**
 * Opens a status tab (ADR 066; "all" by default, the specification's view of every order), then fills
 * the dashboard filter, which keeps the tab.
 */
async function filterOrders(page: Page, options: { q?: string; status?: string; empty?: boolean }) {
  const status = options.status ?? "all";
  const tabs = page.getByRole("navigation", { name: "Заказы по статусам" });
  await tabs.getByRole("link", { name: new RegExp(`^${TAB_LABELS[status]}( [\\d\\s]+\\+?)?$`) }).click();
  await page.waitForURL((url) => url.searchParams.get("status") === status);
  const form = page.getByRole("search", { name: "Фильтр заказов" });
  await form.getByPlaceholder("Номер заказа, клиент, e-mail, телефон или пациент").fill(options.q ?? "");
  const empty = form.getByLabel("Показывать пустые заказы");
  if (options.empty) await empty.check();
  else await empty.uncheck();
  await form.getByRole("button", { name: "Применить" }).click();
  // With JavaScript the list changes in place: wait until the address says the filter applied.
  await page.waitForURL(
    (url) => (url.searchParams.get("q") ?? "") === (options.q ?? "") && url.searchParams.get("status") === status && url.searchParams.get("empty") === (options.empty ? "1" : null),
  );
}

if (embedded) {
  test("the back-office pages work on the embedded database", async ({ page }) => {
    await signIn(page, "", backofficePassword());
    await expect(page.getByRole("group", { name: "Заказов" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Выручка, RUB" })).toBeVisible();
    await filterOrders(page, { status: "paid" });
    await expect(page.locator("article.bo-order").first()).toBeVisible();
    // The cards of the page before stay until the filtered ones are drawn: wait for those.
    await expect.poll(async () => [...new Set(await page.locator("article.bo-order .bo-order-head .badge").allTextContents())]).toEqual(["Оплачен"]);

    await page.goto("/backoffice/clients?all=1");
    await expect(page.getByRole("heading", { name: "Клиенты", level: 1 })).toBeVisible();
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await page.goto("/backoffice/files");
    await expect(page.getByRole("heading", { name: "Файлы в хранилище", level: 1 })).toBeVisible();
    await page.goto("/backoffice/test?run=1");
    await expect(page.getByText("Pyrus не настроен: задайте PYRUS_LOGIN, PYRUS_SECURITY_KEY и PYRUS_FORM_ID.")).toBeVisible();
  });
} else {
  test.describe("the back-office journey on PostgreSQL", () => {
    let app: AppServer;
    let pyrus: PyrusDouble;
    let sql: pg.Client;
    let databaseUrl: URL;

    // Playwright needs the fixtures argument as a pattern even when none is used.
    // eslint-disable-next-line no-empty-pattern
    test.beforeAll(async ({}, testInfo) => {
      testInfo.setTimeout(180_000);
      const server = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
      databaseUrl = new URL(server);
      databaseUrl.pathname = `/aligner_e2e_backoffice_${testInfo.project.name.replace(/\W/g, "_")}_${process.pid}`;
      // The same preparation as the shared e2e server: a fresh database, migrated, with the demo seed.
      execFileSync(process.execPath, ["--import", "tsx", "tests/e2e/prepare-database.mts"], { env: { ...process.env, DATABASE_URL: databaseUrl.toString() }, stdio: "pipe" });
      pyrus = await startPyrusDouble();
      app = await startAppServer({
        DATABASE_URL: databaseUrl.toString(),
        BACKOFFICE_PASSWORD: PASSWORD,
        PACKER_PASSWORD: "e2e-packer-journey",
        SESSION_SECRET: "e2e-backoffice-journey-session-secret",
        CRON_SECRET: "e2e-backoffice-journey-cron",
        PYRUS_LOGIN: pyrus.login,
        PYRUS_SECURITY_KEY: pyrus.securityKey,
        PYRUS_FORM_ID: String(pyrus.formId),
        PYRUS_API_URL: pyrus.apiUrl,
      });
      sql = new pg.Client({ connectionString: databaseUrl.toString() });
      await sql.connect();
    });

    test.afterAll(async () => {
      await sql?.end();
      await app?.stop();
      await pyrus?.stop();
      if (databaseUrl) {
        const admin = new URL(databaseUrl);
        admin.pathname = "/postgres";
        const client = new pg.Client({ connectionString: admin.toString() });
        await client.connect();
        await client.query(`drop database if exists "${databaseUrl.pathname.slice(1)}" with (force)`);
        await client.end();
      }
    });

    /** The seeded orders this journey works on, chosen in SQL. */
    async function pick(where: string, offset = 0): Promise<{ id: string; number: string }> {
      const { rows } = await sql.query<{ id: string }>(
        `select id from orders o where ${where} and exists (select 1 from orders_patients p where p.order_id = o.id) order by created_at desc, id limit 1 offset ${offset}`,
      );
      expect(rows[0], where).toBeDefined();
      return { id: rows[0]!.id, number: rows[0]!.id.slice(0, 4).toUpperCase() };
    }

    test("statistics, filter, the status workflow with history, deletion and Pyrus", async ({ page, javaScriptEnabled }) => {
      test.setTimeout(180_000);
      await signIn(page, app.url, PASSWORD);

      // Statistics, computed here from the seeded rows by our own SQL.
      const { rows } = await sql.query<{ currency: string; count: number; revenue: string; previous_count: number; previous_revenue: string }>(`
        select currency,
               count(*) filter (where created_at >= now() - interval '30 days')::int as count,
               coalesce(sum(total_cost) filter (where created_at >= now() - interval '30 days'), 0) as revenue,
               count(*) filter (where created_at < now() - interval '30 days')::int as previous_count,
               coalesce(sum(total_cost) filter (where created_at < now() - interval '30 days'), 0) as previous_revenue
        from orders where status in ${PAID_SET} and created_at >= now() - interval '60 days' and created_at <= now()
        group by currency`);
      const change = (now: number, before: number) => {
        const value = before === 0 ? (now > 0 ? 100 : 0) : Math.round(((now - before) / before) * 100);
        return `${value > 0 ? "+" : ""}${value}%`;
      };
      const spaced = (text: string) => text.replace(/\s+/g, " ");
      const count = rows.reduce((sum, row) => sum + row.count, 0);
      const previousCount = rows.reduce((sum, row) => sum + row.previous_count, 0);
      expect(count).toBeGreaterThan(0);
      const expectCard = async (name: string, value: string, comparison: string) => {
        const card = page.getByRole("group", { name });
        await expect(card.locator(".bo-stat-value")).toHaveText(spaced(value));
        await expect(card.locator(".bo-stat-change")).toHaveText(spaced(comparison));
      };
      await expectCard("Заказов", String(count), `${change(count, previousCount)} к предыдущим 30 дням (было ${previousCount})`);
      for (const row of rows) {
        const money = (minor: number) =>
          spaced(new Intl.NumberFormat("ru-RU", { style: "currency", currency: row.currency.toUpperCase(), minimumFractionDigits: row.currency === "rub" ? 0 : 2, maximumFractionDigits: row.currency === "rub" ? 0 : 2 }).format(minor / 100));
        const revenue = Number(row.revenue);
        const previousRevenue = Number(row.previous_revenue);
        const average = row.count ? Math.round(revenue / row.count) : 0;
        const previousAverage = row.previous_count ? Math.round(previousRevenue / row.previous_count) : 0;
        const code = row.currency.toUpperCase();
        await expectCard(`Выручка, ${code}`, money(revenue), `${change(revenue, previousRevenue)} к предыдущим 30 дням (было ${money(previousRevenue)})`);
        await expectCard(`Средний чек, ${code}`, money(average), `${change(average, previousAverage)} к предыдущим 30 дням (было ${money(previousAverage)})`);
      }

      // Filter: only paid orders.
      await filterOrders(page, { status: "paid" });
      await expect(page).toHaveURL(/status=paid/);
      // The address changes before the cards are drawn (a transition): wait for the cards.
      const badges = async () => [...new Set(await page.locator("article.bo-order .bo-order-head .badge").allTextContents())];
      await expect.poll(badges).toEqual(["Оплачен"]);

      // paid → processing → shipped (tracking number) → completed, then the history.
      const order = await pick("status = 'paid'");
      await filterOrders(page, { q: order.number });
      let card = orderCard(page, order.number);
      await expect(card.locator(".badge").first()).toHaveText("Оплачен");
      // With JavaScript the cards' plain forms and links are sent in place (ADR 081): the document stays.
      const sameDocument = () => page.evaluate(() => (window as Window & { cardsDocument?: boolean }).cardsDocument === true);
      if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { cardsDocument: true }));
      await card.getByRole("button", { name: "В работу" }).click();
      await expect(toast(page)).toContainText("Готово");
      card = orderCard(page, order.number);
      await expect(card.locator(".badge").first()).toHaveText("В работе");
      await card.getByText("Отправлен…").click();
      await card.getByLabel("Трек-номер").fill("RA987654321RU");
      await card.getByRole("button", { name: "Отметить отправку" }).click();
      await expect(orderCard(page, order.number).locator(".badge").first()).toHaveText("Отправлен");
      await orderCard(page, order.number).getByRole("button", { name: "Выполнить" }).click();
      card = orderCard(page, order.number);
      await expect(card.locator(".badge").first()).toHaveText("Завершен");
      await expect(card.getByRole("button", { name: "Выполнить" })).toBeDisabled();
      if (javaScriptEnabled) expect(await sameDocument(), "the card's forms posted without reloading the page").toBe(true);
      // The card shows the history's latest entry; its link opens all of it on the order's page (ADR 100).
      await expect(card.locator(".bo-history li")).toHaveCount(1);
      await expect(card.locator(".bo-history li")).toContainText("Отправлен → Завершен");
      await card.locator(".bo-history").getByRole("link", { name: /^История \(\d+\)$/ }).click();
      await expect(page).toHaveURL(new RegExp(`/backoffice/orders/${order.id}#history$`));
      const history = page.locator("#history li");
      await expect(history.filter({ hasText: "Оплачен → В работе" })).toContainText("общий пароль панели");
      await expect(history.filter({ hasText: "В работе → Отправлен" })).toContainText("Трек-номер: RA987654321RU");
      await expect(history.filter({ hasText: "Отправлен → Завершен" })).toHaveCount(1);
      const { rows: statuses } = await sql.query<{ to_status: string }>("select to_status from order_status_history where order_id = $1 order by created_at, id", [order.id]);
      expect(statuses.map((row) => row.to_status).slice(-3)).toEqual(["processing", "shipped", "completed"]);
      await page.goBack();

      // Delete a never-paid order after confirmation: its files and queue rows go with it.
      const draft = await pick("status = 'draft' and paid_at is null");
      const { rows: queued } = await sql.query<{ file_path: string }>("select file_path from ftp_uploads_queue where order_id = $1", [draft.id]);
      expect(queued.length).toBeGreaterThan(0);
      for (const { file_path } of queued) {
        const file = path.join(app.dataDir, "storage", "orders", ...file_path.split("/"));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, Buffer.alloc(184));
      }
      await filterOrders(page, { q: draft.number, status: "draft" });
      const draftCard = orderCard(page, draft.number);
      if (javaScriptEnabled) {
        page.once("dialog", (dialog) => {
          expect(dialog.message()).toBe("Вы уверены, что хотите удалить этот заказ?");
          void dialog.accept();
        });
        await draftCard.getByRole("link", { name: "Удалить" }).click();
      } else {
        await draftCard.getByRole("link", { name: "Удалить" }).click();
        await expect(page.getByRole("heading", { name: "Вы уверены, что хотите удалить этот заказ?" })).toBeVisible();
        await page.getByRole("button", { name: "Удалить заказ" }).click();
      }
      await expect(toast(page)).toContainText("Удалено");
      await expect(orderCard(page, draft.number)).toHaveCount(0);
      expect((await sql.query("select 1 from orders where id = $1", [draft.id])).rowCount).toBe(0);
      expect((await sql.query("select 1 from ftp_uploads_queue where file_path like $1", [`order_${draft.id}/%`])).rowCount).toBe(0);
      expect(fs.existsSync(path.join(app.dataDir, "storage", "orders", `order_${draft.id}`))).toBe(false);

      // Send a paid order to the Pyrus double: the dry run first, then the result.
      const tracked = await pick("status = 'paid'");
      await filterOrders(page, { q: tracked.number });
      await orderCard(page, tracked.number).getByRole("link", { name: "Отправить в трекер" }).click();
      const dialog = page.getByRole("dialog", { name: `Отправка заказа ${tracked.number} в Pyrus` });
      await expect(dialog.getByText("Проверьте данные, которые будут отправлены (пробный запуск, ничего не отправлено).")).toBeVisible();
      await expect(dialog.locator("#tracker-request")).toContainText('"name": "Номер заказа"');
      expect(pyrus.tasks.size).toBe(0);
      await dialog.getByRole("button", { name: "Отправить в Pyrus" }).click();
      const result = page.getByRole("dialog", { name: `Заказ ${tracked.number} отправлен в Pyrus` });
      await expect(result.getByText(/^Создана задача №\d+\./)).toBeVisible();
      await expect(result.locator("#tracker-response")).toContainText('"task"');
      await expect(result.locator("#tracker-sent")).toContainText('"form_id"');
      await expect(result.getByRole("heading", { name: "Найденные элементы справочников" })).toBeVisible();
      await expect(result.getByRole("row").filter({ hasText: "Материал" })).toBeVisible();
      await expect(result.getByRole("button", { name: "Копировать" })).toHaveCount(javaScriptEnabled ? 2 : 0);
      expect(pyrus.tasks.size).toBe(1);
      await result.getByRole("link", { name: "Закрыть" }).last().click();
      await expect(page).toHaveURL(new RegExp(`/backoffice\\?(.*&)?q=${tracked.number}`));
    });

    test("a refused status change comes back in its card's form with the typed tracking number and why (ADR 105)", async ({ page }) => {
      await signIn(page, app.url, PASSWORD);
      const order = await pick("status = 'processing'");
      await filterOrders(page, { q: order.number });
      const card = orderCard(page, order.number);
      await card.getByText("Отправлен…").click();
      await card.getByLabel("Трек-номер").fill("RA555000111RU");
      // Meanwhile a colleague cancels it.
      await sql.query("update orders set status = 'cancelled' where id = $1", [order.id]);
      try {
        await card.getByRole("button", { name: "Отметить отправку" }).click();
        const refused = orderCard(page, order.number);
        await expect(refused.getByRole("alert")).toHaveText("Такой переход статуса не разрешён");
        await expect(refused.getByLabel("Трек-номер")).toHaveValue("RA555000111RU");
        await expect(refused.getByLabel("Трек-номер")).toHaveAttribute("aria-invalid", "true");
        await expect(refused.locator(".badge").first()).toHaveText("Отменен");
      } finally {
        await sql.query("update orders set status = 'processing' where id = $1", [order.id]);
      }
    });

    test("staff's edges: a skip link to the orders, transfers and unpacked orders told, actors and times in Russian and Moscow's zone, the clinic, «Выйти»", async ({ page, javaScriptEnabled }) => {
      test.setTimeout(120_000);
      const mismatches: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /hydrat|did not match|server rendered|React error #(418|423|425)/i.test(message.text())) mismatches.push(message.text());
      });
      await signIn(page, app.url, PASSWORD);

      // The first Tab reaches the skip link, shown on focus; after it, the next Tab is the first order's.
      await page.goto(`${app.url}/backoffice`);
      const skip = page.getByRole("link", { name: "Перейти к списку заказов" });
      await expect(skip).not.toBeInViewport();
      await page.keyboard.press("Tab");
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#orders-list$/);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("article") === document.querySelector("article.bo-order"))).toBe(true);

      // An order waiting for a bank transfer says so beside "Ожидает оплаты"; a card order does not.
      const transfer = await pick("status = 'pending' and total_cost is not null");
      const { rows: invoices } = await sql.query<{ number: string }>(
        "insert into invoices (order_id, client_company, client_inn, supplier, lines, total, currency) select id, 'ООО «Клиника Е2Е»', '7701234567', '{}', '[]', total_cost, currency from orders where id = $1 returning number::text",
        [transfer.id],
      );
      await filterOrders(page, { q: transfer.number, status: "pending" });
      await expect(orderCard(page, transfer.number).locator(".bo-order-head")).toContainText(`Ожидает оплаты`);
      await expect(orderCard(page, transfer.number).locator(".bo-order-head .badge-transfer")).toHaveText(`Оплата по счёту №${invoices[0]!.number}`);

      // Times in Moscow's zone, said as such; with JavaScript the same as the server wrote them.
      const { rows: created } = await sql.query<{ created_at: Date }>("select created_at from orders where id = $1", [transfer.id]);
      const moscow = new Intl.DateTimeFormat("ru-RU", { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Moscow" }).format(created[0]!.created_at);
      await expect(orderCard(page, transfer.number).locator("p.small.muted time").first()).toHaveText(`${moscow} МСК`);

      // An order the packer has not packed asks before it is marked shipped.
      const unpacked = await pick("status = 'processing' and not exists (select 1 from order_packings k where k.order_id = o.id)");
      await filterOrders(page, { q: unpacked.number, status: "processing" });
      const card = orderCard(page, unpacked.number);
      await card.getByText("Отправлен…").click();
      await expect(card.getByText("Заказ ещё не упакован: упаковщик не отметил «Упаковано». Отметить отправку всё равно?")).toBeVisible();
      await expect(card.getByRole("button", { name: "Отметить отправку" })).toBeVisible();

      // The history's actors in Russian, on the card and on the order's page.
      await expect(card.locator(".bo-history li")).toHaveCount(1);
      await expect(card.locator(".bo-history")).not.toContainText(/back-office password|anonymous browser|sandbox/);
      await page.goto(`${app.url}/backoffice/orders/${unpacked.id}`);
      await expect(page.locator("#history li").first()).toBeVisible();
      await expect(page.locator("#history")).not.toContainText(/back-office password|anonymous browser|sandbox/);

      // The table's «Клиника»: the invoice's company, not the parcel's recipient.
      await page.goto(`${app.url}/backoffice?status=pending&q=${transfer.number}&view=table`);
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: transfer.number, exact: true }) });
      await expect(row.getByRole("cell").nth(1)).toHaveText("ООО «Клиника Е2Е»");
      expect(mismatches, "the server's and the browser's pages differ").toEqual([]);
      if (javaScriptEnabled) expect(await page.evaluate(() => Boolean((window as Window & { __remixContext?: unknown }).__remixContext))).toBe(true);

      // «Выйти» ends the back-office session.
      await page.getByRole("button", { name: "Выйти" }).first().click();
      await expect(page).toHaveURL(/\/backoffice\/login$/);
      await page.goto(`${app.url}/backoffice`);
      await expect(page).toHaveURL(/\/backoffice\/login/);
    });

    test("client conditions are saved from the clients page", async ({ page }) => {
      await signIn(page, app.url, PASSWORD);
      await page.getByRole("link", { name: "Клиенты" }).first().click();
      await page.getByPlaceholder("Поиск по e-mail или имени").fill("Хабибуллин");
      await page.getByRole("button", { name: "Найти" }).click();
      await page.getByRole("link", { name: "Условия клиента info@volgadent.ru" }).click();
      const dialog = page.getByRole("dialog", { name: "Персональные условия" });
      await dialog.getByLabel("Скидка, %").fill("150");
      await dialog.getByRole("button", { name: "Сохранить" }).click();
      await expect(page.getByRole("dialog", { name: "Персональные условия" }).getByText("Скидка не может быть больше 100")).toBeVisible();
      await page.getByRole("dialog", { name: "Персональные условия" }).getByLabel("Скидка, %").fill("4");
      await page.getByRole("dialog", { name: "Персональные условия" }).getByRole("button", { name: "Сохранить" }).click();
      await expect(toast(page)).toContainText("Условия для клиента сохранены");
      const { rows } = await sql.query<{ discount_percentage: string }>("select discount_percentage from client_settings where email = 'info@volgadent.ru'");
      expect(rows[0]?.discount_percentage).toBe("4.00");
    });

    test("a file's jaw and step are corrected on the order's files page, with a toast and a line in the history", async ({ page }) => {
      const order = await pick("o.status = 'paid' and exists (select 1 from orders_patients p where p.order_id = o.id and jsonb_array_length(p.aligner_files_info) > 0)");
      const { rows } = await sql.query<{ name: string }>("select aligner_files_info->0->>'originalName' as name from orders_patients where order_id = $1 and jsonb_array_length(aligner_files_info) > 0 order by created_at, folder_name limit 1", [order.id]);
      const name = rows[0]!.name;
      await signIn(page, app.url, PASSWORD);
      await page.goto(`${app.url}/backoffice/orders/${order.id}/files`);
      const file = page.getByRole("listitem").filter({ has: page.getByRole("link", { name, exact: true }) }).first();
      await file.getByText("Исправить", { exact: true }).click();
      await file.getByLabel(`Челюсть файла ${name}`).selectOption("lower");
      await file.getByLabel(`Номер шага файла ${name}`).fill("42");
      await file.getByRole("button", { name: "Сохранить" }).click();
      await expect(toast(page)).toContainText("Челюсть и шаг исправлены");
      await expect(toast(page)).toContainText(`${name}: `);
      await expect(toast(page)).toContainText("→ НЧ, шаг 42");
      await expect(file.locator(".bo-file-declared")).toHaveText("НЧ, шаг 42");
      await expect(page.locator(".bo-file-history")).toContainText(`→ НЧ, шаг 42`);
      await expect(page.locator(".bo-file-history")).toContainText("общий пароль панели");
      const stored = await sql.query<{ to_jaw: string; to_step: number }>("select to_jaw, to_step from order_file_corrections where order_id = $1", [order.id]);
      expect(stored.rows).toEqual([{ to_jaw: "lower", to_step: 42 }]);
    });

    test.describe("on a phone", () => {
      test.use({ viewport: { width: 375, height: 740 } });

      test("the back-office menu opens without JavaScript", async ({ page }) => {
        await signIn(page, app.url, PASSWORD);
        await expect(page.locator(".bo-tabs")).toBeHidden();
        await page.getByLabel("Разделы", { exact: true }).click();
        await expect(page.locator(".bo-menu .mobile-nav").getByRole("link", { name: "Клиенты" })).toBeVisible();
      });
    });
  });
}
