import { expect, test } from "@playwright/test";
import { signInPacker as signIn } from "./journeys";
import { pdfPages } from "./packer-support";
import { e2eQuery } from "./support";

/**
 * Every bag scanned (ADR 103), in the browser with JavaScript on and off: a USB scanner types a bag's
 * code and Enter into the order page's one field. The packer reads the codes off the bag labels as
 * printed, scans three, a bag of another order is refused and ticks nothing, and «Упаковано» is
 * refused until every bag is scanned and then accepted with a reason.
 */

/** The grouped codes under the QR codes of an order's bag labels, in label order. */
async function printedCodes(page: import("@playwright/test").Page, orderId: string) {
  // The label page prints itself when it opens; a print dialog would hold the page.
  await page.addInitScript(() => void (window.print = () => undefined));
  await page.goto(`/packer/bags/${orderId}`);
  return page.locator(".bag-code").allTextContents();
}

test("the packer scans three bags, a bag of another order is refused, «Упаковано» waits for every bag or a reason", async ({ page }, testInfo) => {
  const js = testInfo.project.use.javaScriptEnabled !== false;
  // The sounds the page makes, recorded by a stand-in for the Web Audio API: "type:frequency" per tone.
  await page.addInitScript(() => {
    const sounds: string[] = [];
    Object.assign(window, { sounds });
    class Context {
      currentTime = 0;
      destination = {};
      createOscillator() {
        const tone = { type: "", frequency: { value: 0 }, connect() {}, start: () => sounds.push(`${tone.type}:${tone.frequency.value}`), stop() {} };
        return tone;
      }
      createGain() {
        return { gain: { value: 0 }, connect() {} };
      }
    }
    Object.assign(window, { AudioContext: Context });
  });
  const sounds = () => page.evaluate(() => (window as unknown as { sounds: string[] }).sounds);
  await signIn(page);
  // Orders to pack with bags: the last one here, and another for the stranger's bag (another spec packs the first).
  const cards = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: /^Сканировать пакеты: заказ / }) });
  expect(await cards.count()).toBeGreaterThanOrEqual(2);
  const card = cards.last();
  const id = (await card.getAttribute("id"))!.slice(2);
  const number = (await card.locator("h2").textContent())!;
  const otherId = (await cards.first().getAttribute("id"))!.slice(2);
  // A run of this spec before left its scans: start from none (the journey is about this packer's scans).
  await e2eQuery("delete from bag_scans where order_id = $1", [id]);

  const codes = await printedCodes(page, id);
  expect(codes.length).toBeGreaterThanOrEqual(4);
  for (const code of codes) expect(code).toMatch(/^\d{10} \d{3} \d{2} \d{3} \d$/);
  const [strangerBag] = await printedCodes(page, otherId);

  await page.goto("/packer");
  await page.locator(`#o-${id}`).getByRole("link", { name: `Сканировать пакеты: заказ ${number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/packer/order/${id}$`));
  const field = page.getByLabel("Код пакета");
  await expect(field).toBeFocused();
  const progress = page.getByRole("heading", { name: /^Отсканировано \d+ из \d+$/ });
  await expect(progress).toHaveText(`Отсканировано 0 из ${codes.length}`);

  // A scanner types digits and Enter (the codes printed with spaces scan without them).
  for (const [index, code] of codes.slice(0, 3).entries()) {
    await page.getByLabel("Код пакета").pressSequentially(code.replace(/ /g, ""));
    await page.getByLabel("Код пакета").press("Enter");
    await expect(page.locator(".pk-scan-ok")).toHaveText(/^✓ Принят: /);
    await expect(progress).toHaveText(`Отсканировано ${index + 1} из ${codes.length}`);
    await expect(page.getByLabel("Код пакета")).toHaveValue("");
    await expect(page.getByLabel("Код пакета")).toBeFocused();
  }
  await expect(page.locator(".pk-bag-scanned")).toHaveCount(3);
  // With JavaScript the form posts in place (the address stays) and each tick beeps.
  if (js) await expect(page).toHaveURL(new RegExp(`/packer/order/${id}$`));
  if (js) expect(await sounds()).toEqual(["sine:1200", "sine:1200", "sine:1200"]);

  // Another order's bag: refused loudly, nothing ticked.
  await page.getByLabel("Код пакета").pressSequentially(strangerBag!.replace(/ /g, ""));
  await page.getByLabel("Код пакета").press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Пакет другого заказа" })).toHaveText("✗ Пакет другого заказа! Не кладите его в эту коробку. Ничего не отмечено.");
  await expect(page.locator(".pk-scan-refused").first()).toHaveCSS("background-color", "rgb(255, 225, 225)");
  await expect(page.locator(".pk-bag-scanned")).toHaveCount(3);
  await expect(progress).toHaveText(`Отсканировано 3 из ${codes.length}`);
  // …and buzzes, low and long, for the refusal.
  if (js) expect((await sounds()).at(-1)).toBe("square:180");
  const stored = await e2eQuery<{ n: number }>("select count(*)::int as n from bag_scans where order_id = $1", [id]);
  expect(stored[0]!.n).toBe(3);
  expect((await e2eQuery<{ n: number }>("select count(*)::int as n from bag_scans where order_id = $1", [otherId]))[0]!.n).toBe(0);

  // A reload keeps the ticks.
  await page.goto(`/packer/order/${id}`);
  await expect(page.locator(".pk-bag-scanned")).toHaveCount(3);

  // «Упаковано» without every bag and without a reason: refused, not packed.
  const missing = codes.length - 3;
  await page.getByRole("button", { name: `Упаковано: заказ ${number}` }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Не отсканировано пакетов" })).toHaveText(`Не отсканировано пакетов: ${missing}. Отсканируйте их или укажите причину.`);
  expect(await e2eQuery("select 1 from order_packings where order_id = $1", [id])).toEqual([]);

  // With a reason it is packed, and the reason is recorded for staff.
  await page.getByLabel("Причина, по которой не все пакеты отсканированы").fill("Остальные пакеты в переделке");
  await page.getByRole("button", { name: `Упаковано: заказ ${number}` }).click();
  await expect(page).toHaveURL(/\/packer$/);
  await expect(page.locator(".toast-success")).toContainText(`Заказ ${number} отмечен упакованным`);
  const [mark] = await e2eQuery<{ missing_bags: number; missing_reason: string }>("select missing_bags, missing_reason from order_packings where order_id = $1", [id]);
  expect(mark).toEqual({ missing_bags: missing, missing_reason: "Остальные пакеты в переделке" });
});

test("a workstation that chose PDF labels opens them from the card, each bag label 80 × 80 mm and the box label A4", async ({ page }) => {
  await signIn(page);
  const card = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) }).last();
  const id = (await card.getAttribute("id"))!.slice(2);
  await page.getByLabel("Этикетки на этом компьютере").selectOption("pdf");
  await page.getByRole("button", { name: "Запомнить" }).click();
  await expect(page.getByLabel("Этикетки на этом компьютере")).toHaveValue("pdf");
  // Remembered: a new visit to the list still links the PDFs, in the one label window.
  await page.goto("/packer");
  const bags = page.locator(`#o-${id}`).getByRole("link", { name: "Этикетки на пакеты" });
  await expect(bags).toHaveAttribute("href", `/packer/pdf/bags/${id}`);
  await expect(bags).toHaveAttribute("target", "label-print");
  const labels = await page.request.get(`/packer/pdf/bags/${id}`);
  expect(labels.headers()["content-type"]).toBe("application/pdf");
  const bagPages = pdfPages(await labels.body());
  // As many pages as the HTML page prints labels.
  const printed = ((await (await page.request.get(`/packer/bags/${id}`)).text()).match(/<section class="bag-label"/g) ?? []).length;
  expect(printed).toBeGreaterThan(0);
  expect(bagPages.pages).toBe(printed);
  for (const size of bagPages.sizes) expect(size.map((side) => Math.round(side * 100) / 100)).toEqual([226.77, 226.77]);
  const box = pdfPages(await (await page.request.get(`/packer/pdf/box/${id}`)).body());
  expect(box.sizes.length).toBeGreaterThanOrEqual(1);
  for (const size of box.sizes) expect(size).toEqual([595.28, 841.89]);
  // Back to the HTML labels for the other journeys of this browser's station.
  await page.getByLabel("Этикетки на этом компьютере").selectOption("html");
  await page.getByRole("button", { name: "Запомнить" }).click();
  await expect(page.locator(`#o-${id}`).getByRole("link", { name: "Этикетки на пакеты" })).toHaveAttribute("href", `/packer/bags/${id}`);
});
