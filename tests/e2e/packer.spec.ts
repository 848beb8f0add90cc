import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { signInPacker as signIn } from "./journeys";
import { packerPassword, pdfPages } from "./packer-support";
import { e2eQuery, embedded } from "./support";

/**
 * The packer station in the browser, with JavaScript on and off (staff-partner-packer §2, §9): the gate,
 * order cards, a logo upload, and both label pages printed to PDF by Chromium on the label's own page
 * size and on A4, checking that every label is exactly one page.
 */

const MM = 72 / 25.4;
const A4: [number, number] = [595.92, 842.88];
/** Chromium rounds page sizes to whole device pixels: allow a point either way. */
const closeTo = (actual: [number, number], expected: [number, number]) => Math.abs(actual[0] - expected[0]) <= 1.5 && Math.abs(actual[1] - expected[1]) <= 1.5;

/** The first card with patients and files: its id, number and how many files it lists. */
async function cardWithFiles(page: Page) {
  const card = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) }).first();
  const id = (await card.getAttribute("id"))!.slice(2);
  const number = (await card.locator("h2").textContent())!;
  // Each file is listed with the jaw and step its label prints: "Шаг 01 верх.stl (ВЧ, шаг 01 · по имени файла),".
  const listed = await card.locator(".pk-patients .pk-file").allTextContents();
  for (const file of listed) expect(file).toMatch(/^.+\.stl \((ВЧ|НЧ)(, шаг \d{2,})?( · по имени файла)?\),?$/i);
  const files = listed.map((file) => file.replace(/ \([^()]*\),?$/, ""));
  return { card, id, number, files };
}

test("the packer page shows only the gate until the password, then the order cards", async ({ page }) => {
  await page.goto("/packer");
  await expect(page.getByRole("heading", { name: "Упаковка заказов", level: 1 })).toBeVisible();
  for (const hidden of ["header.site-header", "footer.site-footer", ".guarantee-banner", ".cookie-notice", ".messenger-button", ".pk-card"]) {
    await expect(page.locator(hidden)).toHaveCount(0);
  }
  await page.getByLabel("Пароль").fill("not-the-password");
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByRole("alert")).toHaveText("Неверный пароль");
  await expect(page.locator(".pk-card")).toHaveCount(0);

  await page.getByLabel("Пароль").fill(packerPassword());
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL(/\/packer$/);
  await expect(page.locator(".pk-card").first()).toBeVisible();
  const numbers = await page.locator(".pk-card h2").allTextContents();
  expect(numbers.length).toBeGreaterThan(5);
  for (const number of numbers) expect(number).toMatch(/^[0-9A-F]{4}$/);
  // No draft, no money.
  await expect(page.locator(".badge-draft")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("₽");
  await expect(page.locator("main")).not.toContainText("€");

  // Search by the order number, then a status filter. The search also matches e-mails, and the
  // e-mails of orders made by other tests carry digits: a number with a letter finds only its order.
  const searched = numbers.find((number) => /[A-F]/.test(number)) ?? numbers[1]!;
  await page.getByLabel("Поиск").fill(searched.toLowerCase());
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.locator(".pk-card h2")).toHaveText([searched]);
  await page.getByRole("link", { name: "Сбросить" }).click();
  await page.getByRole("link", { name: "Все заказы" }).click();
  await page.getByLabel("Статус").selectOption("shipped");
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveURL(/status=shipped/);
  // The address changes before the cards are drawn (a transition): wait for the cards.
  await expect.poll(async () => [...new Set(await page.locator(".pk-card .badge").allTextContents())]).toEqual(["Отправлен"]);
});

test("a client logo is uploaded from the card and shown on the card and the box label", async ({ page }) => {
  await signIn(page);
  const { card, id } = await cardWithFiles(page);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><rect width="200" height="60" rx="10" fill="#0a4"/><text x="100" y="40" font-size="28" text-anchor="middle" fill="#fff" font-family="Arial">Клиника</text></svg>`;
  await card.locator('input[type="file"]').setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(svg) });
  await card.getByRole("button", { name: "Загрузить логотип" }).click();
  await expect(page.locator(".toast-success")).toContainText("Логотип обновлён");
  const logo = page.locator(`#o-${id} img.pk-logo`);
  await expect(logo).toHaveAttribute("src", /^\/packer\/logos\/.+-[0-9a-f]{8}\?v=\d+$/);
  await logo.scrollIntoViewIfNeeded();
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);

  await page.goto(`/packer/box/${id}`);
  await expect(page.locator(".box-label img")).toHaveAttribute("src", /^\/packer\/logos\//);
});

test("the box label prints as one 400×600 px page, and as one A4 page", async ({ page }, testInfo) => {
  await signIn(page);
  const { id, number } = await cardWithFiles(page);
  const printJs = testInfo.project.use.javaScriptEnabled !== false;
  if (printJs) await page.addInitScript(() => void (window.print = () => void ((window as unknown as { printedAt: number }).printedAt = performance.now())));
  await page.goto(`/packer/box/${id}`);
  await expect(page.locator(".box-number")).toHaveText(number);
  await expect(page.locator(".box-label dd").nth(2)).toHaveText(/^\d+$/);
  if (printJs) {
    // Printing starts by itself about 300 ms after the page opens.
    const printedAt = await page.waitForFunction(() => (window as unknown as { printedAt?: number }).printedAt).then((handle) => handle.jsonValue() as Promise<number>);
    expect(printedAt).toBeGreaterThanOrEqual(300);
    expect(printedAt).toBeLessThan(5_000);
  }

  const own = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  fs.writeFileSync(testInfo.outputPath("box-label.pdf"), own);
  const ownPages = pdfPages(own);
  expect(ownPages.pages).toBe(1);
  expect(closeTo(ownPages.sizes[0]!, [300, 450])).toBe(true);

  const a4 = await page.pdf({ format: "A4", printBackground: true });
  fs.writeFileSync(testInfo.outputPath("box-label-a4.pdf"), a4);
  const a4Pages = pdfPages(a4);
  expect(a4Pages.pages).toBe(1);
  expect(closeTo(a4Pages.sizes[0]!, A4)).toBe(true);
});

test("bag labels print one 80×80 mm page per step and jaw, and one A4 page each", async ({ page }, testInfo) => {
  await signIn(page);
  const { id, number, files } = await cardWithFiles(page);
  // The page prints itself 300 ms after it opens; a print dialog in progress would refuse the PDFs below.
  await page.addInitScript(() => void (window.print = () => undefined));
  await page.goto(`/packer/bags/${id}`);
  const labels = page.locator(".bag-label");
  await expect(labels).toHaveCount(files.length);
  await expect(labels.first().locator(".bag-kind")).toContainText(number);
  await expect(labels.first().locator(".bag-jaw")).toHaveText(/^(ВЧ|НЧ)$/);
  // Steps read from file names, padded to two digits (which orders have numbered files depends on the data).
  for (const step of await page.locator(".bag-step").allTextContents()) expect(step).toMatch(/^Шаг \d{2,}$/);
  // Each bag's QR code carries its digit-only bag code, printed under it in groups (ADR 103).
  await expect(labels.first().locator('svg[role="img"]')).toHaveAttribute("aria-label", /^QR-код: \d{19}$/);
  await expect(labels.first().locator(".bag-code")).toHaveText(/^\d{10} \d{3} \d{2} \d{3} \d$/);

  const own = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  fs.writeFileSync(testInfo.outputPath("bag-labels.pdf"), own);
  const ownPages = pdfPages(own);
  expect(ownPages.pages).toBe(files.length);
  for (const size of ownPages.sizes) expect(closeTo(size, [80 * MM, 80 * MM])).toBe(true);

  const a4 = await page.pdf({ format: "A4", printBackground: true });
  fs.writeFileSync(testInfo.outputPath("bag-labels-a4.pdf"), a4);
  const a4Pages = pdfPages(a4);
  expect(a4Pages.pages).toBe(files.length);
  for (const size of a4Pages.sizes) expect(closeTo(size, A4)).toBe(true);
});

test("signing out brings the gate back", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page.getByLabel("Пароль")).toBeVisible();
  await page.goto("/packer");
  await expect(page.locator(".pk-card")).toHaveCount(0);
});

test("the packer's day opens on the orders to pack, and «Упаковано» moves one to the packed ones", async ({ page }) => {
  test.skip(embedded, "the list is compared with the PostgreSQL target's database");
  await signIn(page);
  await expect(page.getByRole("link", { name: "К упаковке" })).toHaveAttribute("aria-current", "page");
  const ids = await page.locator(".pk-card").evaluateAll((cards) => cards.map((card) => card.id.slice(2)));
  expect(ids.length).toBeGreaterThan(0);
  // Only orders to pack: paid or in work, and not packed yet — as the database has them.
  const rows = await e2eQuery<{ id: string; status: string; packed: boolean }>(
    "select o.id, o.status, exists (select 1 from order_packings p where p.order_id = o.id) as packed from orders o where o.id = any($1::uuid[])",
    [ids],
  );
  expect(rows).toHaveLength(ids.length);
  for (const row of rows) {
    expect(["paid", "processing"]).toContain(row.status);
    expect(row.packed).toBe(false);
  }
  for (const badge of await page.locator(".pk-card .badge").allTextContents()) expect(["Оплачен", "В работе"]).toContain(badge);

  const card = page.locator(".pk-card").first();
  const id = (await card.getAttribute("id"))!.slice(2);
  const number = (await card.locator("h2").textContent())!;
  // An order with bags is packed from its page, where its bags are scanned (ADR 103; packer-scan.spec.ts):
  // here none is, so «Упаковано» takes a reason.
  const scanLink = card.getByRole("link", { name: `Сканировать пакеты: заказ ${number}` });
  if ((await scanLink.count()) > 0) {
    await scanLink.click();
    await page.getByLabel("Причина, по которой не все пакеты отсканированы").fill("Пакеты проверены по списку");
  }
  await page.getByRole("button", { name: `Упаковано: заказ ${number}` }).click();
  await expect(page.locator(".toast-success")).toContainText(`Заказ ${number} отмечен упакованным`);
  await expect(page.locator(`#o-${id}`)).toHaveCount(0);
  const [mark] = await e2eQuery<{ to_status: string | null; actor: string }>("select to_status, actor from order_packings where order_id = $1", [id]);
  expect(mark!.actor).toMatch(/^packer \(/);

  await page.getByRole("link", { name: "Упакованы" }).click();
  await expect(page).toHaveURL(/view=packed/);
  await expect(page.locator(`#o-${id} .pk-packed`)).toHaveText(/^Упакован \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  await expect(page.locator(`#o-${id} .badge`)).toHaveText("В работе");
  // The specification's list of every order stays one click away, with its status filter.
  await page.getByRole("link", { name: "Все заказы" }).click();
  await expect(page.getByLabel("Статус")).toBeVisible();
});

test("three labels printed in a row leave one label window", async ({ page, context, javaScriptEnabled }) => {
  // The label pages print themselves; a stub keeps the window open so it can be counted.
  await context.addInitScript(() => void (window.print = () => undefined));
  await signIn(page);
  await page.getByRole("link", { name: "Все заказы" }).click();
  const cards = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) });
  const first = cards.nth(0);
  const second = cards.nth(1);
  const [labels] = await Promise.all([context.waitForEvent("page"), first.getByRole("link", { name: "Этикетка на коробку" }).click()]);
  await expect(labels.locator(".box-label")).toBeVisible();
  await first.getByRole("link", { name: "Этикетки на пакеты" }).click();
  await expect(labels.locator(".bag-label").first()).toBeVisible();
  await second.getByRole("link", { name: "Этикетка на коробку" }).click();
  await expect(labels).toHaveURL(new RegExp(`/packer/box/${(await second.getAttribute("id"))!.slice(2)}$`));
  expect(context.pages()).toHaveLength(2);

  if (javaScriptEnabled) {
    // After printing, the window closes itself.
    const closed = labels.waitForEvent("close");
    await labels.evaluate(() => window.dispatchEvent(new Event("afterprint")));
    await closed;
    expect(context.pages()).toHaveLength(1);
  }
});
