import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { atStep, press, signInBackoffice, signInByMail, walkToPatientStep } from "./journeys";
import { e2eQuery, embedded, outbox } from "./support";

/**
 * A dropped connection never costs the page (ADR 046): with JavaScript, a post, a step, a search or a
 * navigation that cannot reach the app keeps the page and what was typed, says "no connection" in the
 * reader's language, and completes by itself when the network is back — with one effect on the server
 * even when the post reached it and only the answer was lost. Two ways to drop: Chromium's offline
 * switch, and a TCP proxy between the browser and the app that resets connections (or a proxy's HTML
 * 502 page instead of the app's answer). And no error state ever shows a text key.
 */

const port = Number(process.env.E2E_PORT ?? (embedded ? 3220 : 3210));

const LANGUAGES = [
  {
    lng: "ru",
    host: "127.0.0.1",
    next: "Далее →",
    email: "E-mail",
    phone: "Телефон",
    fullName: "ФИО получателя",
    address: "Адрес доставки",
    consent: true,
    patientName: "Имя пациента",
    addPatient: "Добавить пациента",
    patientAdded: (name: string) => `Пациент ${name} добавлен в заказ`,
    offline: ["Нет соединения", "Всё, что вы ввели, осталось на странице"],
    retry: "Отправить снова",
    sendLink: "Отправить ссылку для входа",
    linkSent: "Ссылка отправлена.",
    errorTitle: "Произошла непредвиденная ошибка",
    notFound: "Страница не найдена",
  },
  {
    lng: "en",
    // playwright.config.ts resolves this host to loopback; the international market speaks English.
    host: "aligners-e2e.com",
    next: "Next →",
    email: "Email",
    phone: "Phone",
    fullName: "Recipient's full name",
    address: "Delivery address",
    consent: false,
    patientName: "Patient name",
    addPatient: "Add patient",
    patientAdded: (name: string) => `Patient ${name} has been added to the order`,
    offline: ["No connection", "Everything you typed is still on the page"],
    retry: "Send again",
    sendLink: "Send sign-in link",
    linkSent: "Link sent.",
    errorTitle: "An unexpected error occurred",
    notFound: "Page not found",
  },
] as const;

type Texts = (typeof LANGUAGES)[number];

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

/** The top-level parts of the interface texts (`wizard`, `errors`, …): a visible `part.word` is a text key. */
const TEXT_PARTS = [...new Set(fs.readdirSync("locales/ru").flatMap((file) => Object.keys(JSON.parse(fs.readFileSync(path.join("locales/ru", file), "utf8")))))];
const KEY_SHAPED = new RegExp(`\\b(?:${TEXT_PARTS.join("|")})\\.[A-Za-z][\\w.]*`, "g");

/** No text key anywhere the person can read: the page's text, its title and its controls' names. */
async function noKeysShown(page: Page) {
  const shown = await page.evaluate(() => [document.title, document.body.innerText, ...[...document.querySelectorAll("[aria-label]")].map((element) => element.getAttribute("aria-label") ?? "")].join("\n"));
  expect(shown.match(KEY_SHAPED) ?? [], `text keys on ${page.url()}`).toEqual([]);
}

async function saysOffline(page: Page, texts: Texts) {
  const notice = page.getByRole("alert").filter({ hasText: texts.offline[0] });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(texts.offline[1]);
  await expect(notice.getByRole("button", { name: texts.retry })).toBeVisible();
  await noKeysShown(page);
}

/** The mails written to the outbox for `email`. */
function mailsTo(email: string): number {
  if (!fs.existsSync(outbox)) return 0;
  return fs.readdirSync(outbox).filter((file) => file.endsWith(".eml") && fs.readFileSync(path.join(outbox, file), "utf8").toLowerCase().includes(email)).length;
}

/** Waits until `check` holds on the server (the post has acted), at most 10 s. */
async function serverSees(check: () => Promise<boolean>) {
  await expect.poll(check, { timeout: 10_000, intervals: [100] }).toBe(true);
}

test.describe("a dropped connection", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "without JavaScript the browser's own page and resend apply; the enhancement is what is tested");

  let proxy: TcpProxy;
  test.beforeAll(async () => {
    proxy = await startTcpProxy({ target: { host: "127.0.0.1", port } });
  });
  test.afterAll(async () => {
    await proxy.stop();
  });
  test.afterEach(() => proxy.setLimits({}));

  for (const texts of LANGUAGES) {
    test.describe(`in ${texts.lng}`, () => {
      test("a wizard step sent offline keeps what was typed and goes through when the network is back", async ({ page, context }) => {
        const origin = `http://${texts.host}:${port}`;
        const email = `offline-${unique()}@clinic.ru`;
        await page.goto(`${origin}/order`);
        await press(page, texts.next, 2);
        await page.getByLabel(texts.email).fill(email);
        await page.getByLabel(texts.phone).fill("+7 900 123-45-67");

        await context.setOffline(true);
        await page.getByRole("button", { name: texts.next }).click();
        await saysOffline(page, texts);
        await atStep(page, 2);
        await expect(page.getByLabel(texts.email)).toHaveValue(email);
        await expect(page.getByLabel(texts.phone)).toHaveValue("+7 900 123-45-67");

        await context.setOffline(false);
        await expect(page.getByText(new RegExp(`^(Шаг|Step) 3 (из|of) 11$`))).toBeVisible({ timeout: 2_000 });
        await expect(page.getByRole("alert").filter({ hasText: texts.offline[0] })).toHaveCount(0);
        if (!embedded) {
          const rows = await e2eQuery<{ wizard_step: number }>("select wizard_step from orders where email = $1", [email]);
          expect(rows).toEqual([{ wizard_step: 3 }]);
        }
      });

      test("a patient added while the answer is lost is added once, when the connection returns", async ({ page }) => {
        const origin = `http://${texts.host}:${proxy.port}`;
        const email = `reset-${unique()}@clinic.ru`;
        const patient = `Сброс ${unique()}`;
        await walkToPatientStep(page, texts, email, `${origin}/order`);
        await page.getByLabel(texts.patientName).fill(patient);

        // The post reaches the app; every answer is reset before its first byte reaches the browser.
        proxy.setLimits({ cutAfterBytes: { downstream: 0 } });
        await page.getByRole("button", { name: texts.addPatient }).click();
        const count = async () =>
          Number((await e2eQuery<{ n: string }>("select count(*) as n from orders_patients p join orders o on o.id = p.order_id where o.email = $1", [email]))[0].n);
        // The app has acted (on the embedded target, whose database is inside the server, the page's list below says it).
        if (!embedded) await serverSees(async () => (await count()) === 1);
        await saysOffline(page, texts);
        const cutBefore = proxy.stats().cuts;
        await expect(page.getByLabel(texts.patientName)).toHaveValue(patient);
        // Resent every second while the connection fails: the app answers each with the first answer.
        await expect.poll(() => proxy.stats().cuts, { message: "the post was sent again while answers were cut", timeout: 30_000 }).toBeGreaterThan(cutBefore);

        proxy.setLimits({});
        await expect(page.getByText(texts.patientAdded(patient))).toBeVisible({ timeout: 2_000 });
        await atStep(page, 4);
        await expect(page.locator(".patient-row")).toHaveCount(1);
        if (!embedded) expect(await count()).toBe(1);
      });

      test("a sign-in link asked for while the connection resets is sent once", async ({ page }) => {
        const origin = `http://${texts.host}:${proxy.port}`;
        const email = `reset-sign-in-${unique()}@clinic.ru`;
        await page.goto(`${origin}/auth`);
        await page.getByLabel(texts.email).fill(email);
        proxy.setLimits({ cutAfterBytes: { downstream: 0 } });
        await page.getByRole("button", { name: texts.sendLink }).click();
        // One sign-in link is one mail in the outbox (both targets write mail there).
        const tokens = async () => mailsTo(email);
        await serverSees(async () => (await tokens()) === 1);
        await saysOffline(page, texts);
        await expect(page.getByLabel(texts.email)).toHaveValue(email);
        // Asked again while the connection still resets: the resend is cut too.
        const cutBefore = proxy.stats().cuts;
        await expect.poll(() => proxy.stats().cuts, { message: "the request was sent again while the connection reset", timeout: 30_000 }).toBeGreaterThan(cutBefore);

        proxy.setLimits({});
        await expect(page.getByText(texts.linkSent)).toBeVisible({ timeout: 2_000 });
        expect(await tokens()).toBe(1);
      });
    });
  }

  test("a cabinet change made offline is saved once the network is back", async ({ page, context }) => {
    const email = `cabinet-offline-${unique()}@clinic.ru`;
    await page.goto("/auth?redirectTo=%2Fcabinet");
    await signInByMail(page, email);
    await expect(page).toHaveURL(/\/cabinet$/);
    await page.locator("details.channel summary").click();
    const channel = page.locator('details.channel input[name="channel"]:not(:checked)').first();
    const chosen = await channel.getAttribute("value");
    await channel.check();

    await context.setOffline(true);
    await page.locator("details.channel").getByRole("button").click();
    await saysOffline(page, LANGUAGES[0]);
    await expect(page.locator(`details.channel input[value="${chosen}"]`)).toBeChecked();
    // Back online but the browser has not said so yet: the notice's button sends at once.
    await context.setOffline(false);
    await page.getByRole("button", { name: LANGUAGES[0].retry }).click({ timeout: 1_000 }).catch(() => {});
    await expect(page.getByRole("alert").filter({ hasText: LANGUAGES[0].offline[0] })).toHaveCount(0, { timeout: 2_000 });
    if (!embedded) {
      const rows = await e2eQuery<{ notification_channel: string }>(
        "select notification_channel from client_settings where email = $1",
        [email],
      );
      expect(rows).toEqual([{ notification_channel: chosen }]);
    }
  });

  test("a back-office search answered by a proxy's HTML 502 keeps its words and finds once the app answers", async ({ page }) => {
    await signInBackoffice(page);
    let refused = 0;
    await page.route(/\/backoffice\.data/, async (route) => {
      if (refused < 3) {
        refused++;
        await route.fulfill({ status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" });
      } else await route.continue();
    });
    const search = page.getByRole("search").getByRole("searchbox");
    await search.fill("Несуществующий пациент");
    await search.press("Enter");
    await saysOffline(page, LANGUAGES[0]);
    await expect(search).toHaveValue("Несуществующий пациент");
    await expect(page).toHaveURL(/q=/, { timeout: 5_000 });
    await expect(page.getByRole("alert").filter({ hasText: LANGUAGES[0].offline[0] })).toHaveCount(0);
    expect(refused).toBe(3);
  });
});

test.describe("error pages have their words", () => {
  for (const texts of LANGUAGES) {
    test(`a page that does not exist, in ${texts.lng}`, async ({ page }) => {
      const response = await page.goto(`http://${texts.host}:${port}/no-such-page-${unique()}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByText(texts.notFound).first()).toBeVisible();
      await noKeysShown(page);
    });

    test(`the root's data that cannot be read, in ${texts.lng}`, async ({ page, javaScriptEnabled }) => {
      test.skip(!javaScriptEnabled, "only a page running JavaScript reads data apart from its document");
      await page.goto(`http://${texts.host}:${port}/order`);
      await atStep(page, 1);
      // Hydrated: a click before it would post the plain form, whose answer is a whole document.
      await page.waitForLoadState("networkidle");
      // The app's answer, broken: the root's loader fails in the browser and the root's error page shows.
      await page.route(/\.data(\?|$)/, (route) => route.fulfill({ status: 200, headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" }, body: "not a turbo-stream" }));
      await page.getByRole("button", { name: texts.next }).click();
      await expect(page.getByRole("heading", { name: texts.errorTitle })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", texts.lng);
      await noKeysShown(page);
    });
  }
});
