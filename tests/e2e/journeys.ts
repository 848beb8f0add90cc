import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import { latestOutboxMail } from "../support/mail-text";
import { packerPassword } from "./packer-support";
import { backofficePassword, fixtureFile, outbox } from "./support";

/** Steps several browser journeys share: signing in each way, and an order walked to the checkout. */

const RUSSIAN_SIGN_IN = { email: "E-mail", send: "Отправить ссылку для входа", sent: "Ссылка отправлена.", confirm: "Войти" };

/** Signs in by the mailed link from the sign-in form the page shows (labels in its language), and returns to `redirectTo`. */
export async function signInByMail(page: Page, email: string, labels: typeof RUSSIAN_SIGN_IN = RUSSIAN_SIGN_IN) {
  await page.getByLabel(labels.email).fill(email);
  await page.getByRole("button", { name: labels.send }).click();
  await expect(page.getByText(labels.sent)).toBeVisible();
  await followMailedLink(page, email, labels.confirm);
}

/** Opens the newest sign-in mail's link for `email` (one the form or the payment page sent) and confirms it. */
export async function followMailedLink(page: Page, email: string, confirm = RUSSIAN_SIGN_IN.confirm) {
  // The outbox is written beside the answer: wait for the mail, however long a busy machine takes.
  await expect.poll(() => latestOutboxMail(outbox, email), { message: `a sign-in mail for ${email} in ${outbox}`, timeout: 30_000 }).not.toBeNull();
  const mail = latestOutboxMail(outbox, email);
  await page.goto(mail!.link.replace(/^https?:\/\/[^/]+/, ""));
  await page.getByRole("button", { name: confirm, exact: true }).click();
}

export async function signInPacker(page: Page) {
  await page.goto("/packer");
  await page.getByLabel("Пароль").fill(packerPassword());
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.locator(".pk-card").first()).toBeVisible();
}

export async function signInBackoffice(page: Page) {
  await page.goto("/backoffice");
  await page.getByLabel("Пароль").fill(backofficePassword());
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByRole("heading", { name: "Заказы", level: 1 })).toBeVisible();
}

/** A binary STL of 12 empty triangles, written once under tests/.tmp. */
export function stlFile(name: string): string {
  return fixtureFile(name, (file) => {
    const bytes = Buffer.alloc(84 + 50 * 12);
    bytes.writeUInt32LE(12, 80);
    fs.writeFileSync(file, bytes);
  });
}

/** The wizard's labels a walk needs, in the page's language. */
export interface WizardLabels {
  next: string;
  email: string;
  phone: string;
  fullName: string;
  address: string;
  /** The domestic market's consent checkbox is there. */
  consent: boolean;
}

/** A fresh order walked to step 4 (the patient), contacts and delivery given, from `url`. */
export async function walkToPatientStep(page: Page, labels: WizardLabels, email: string, url = "/order") {
  await page.goto(url);
  await press(page, labels.next, 2);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.phone).fill("+7 900 123-45-67");
  await press(page, labels.next, 3);
  await page.getByLabel(labels.fullName).fill("Иванова Анна Сергеевна");
  await page.getByLabel(labels.address).fill("Москва, ул. Тверская, 1");
  if (labels.consent) await page.getByRole("checkbox").check();
  await press(page, labels.next, 4);
}

/** A new order: one hard matrix named with its jaw, aligners skipped; on the retainers (step 10). */
export async function orderToRetainers(page: Page) {
  await walkToPatientStep(page, { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true }, `declined-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Далее →", 5);
  await page.setInputFiles("#field-files", [stlFile("declined-matrix-upper.stl")]);
  await press(page, "Загрузить", 5);
  await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible();
  await press(page, "Далее →", 6);
  await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
  await press(page, "Далее →", 7);
  await press(page, "Пропустить", 10);
}

/** "Пропустить" on step 10 holding files: asked (ADR 057), then pressed again; the summary. */
export async function skipWithFiles(page: Page) {
  await press(page, "Пропустить", 10);
  await expect(page.getByText("На этом шаге уже есть файлы.", { exact: false })).toBeVisible();
  await press(page, "Пропустить", 11);
}

export async function atStep(page: Page, step: number) {
  await expect(page.getByText(new RegExp(`^(Шаг|Step) ${step} (из|of) 11$`))).toBeVisible();
}

export async function press(page: Page, name: string | RegExp, step: number) {
  await page.getByRole("button", { name, exact: typeof name === "string" }).click();
  await atStep(page, step);
}

/**
 * A one-patient order (one hard matrix) up to "Перейти к оплате"; lands on the sandbox checkout.
 * With `aligners`, the patient also gets one single-layer aligner with a wavy cut (steps 7–9); the
 * order still costs the minimum order.
 */
/** An order walked to the checkout and paid in the sandbox; returns its id from the return page. */
export async function paidOrder(page: Page): Promise<string> {
  await orderToCheckout(page);
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page).toHaveURL(/\/payment\/success\?orderId=/);
  return new URL(page.url()).searchParams.get("orderId")!;
}

export async function orderToCheckout(page: Page, options: { onStep?: (step: number) => Promise<void>; aligners?: boolean } = {}) {
  const seen = async (step: number) => options.onStep?.(step);
  await page.goto("/order");
  await atStep(page, 1);
  await seen(1);
  await press(page, "Далее →", 2);
  await seen(2);
  await page.getByLabel("E-mail").fill(`pay-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await press(page, "Далее →", 3);
  await seen(3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  await page.getByRole("checkbox").check();
  await press(page, "Далее →", 4);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Добавить пациента", 4);
  await seen(4);
  await press(page, "Далее →", 5);
  await page.setInputFiles("#field-files", [stlFile("pay-matrix-upper.stl")]);
  await press(page, "Загрузить", 5);
  await seen(5);
  await press(page, "Далее →", 6);
  await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
  await seen(6);
  await press(page, "Далее →", 7);
  await seen(7);
  if (options.aligners) {
    await page.setInputFiles("#field-files", [stlFile("pay-aligner-upper-01.stl")]);
    await press(page, "Загрузить", 7);
    await press(page, "Далее →", 8);
    await page.getByRole("radio", { name: /^1-слойный/ }).check();
    await seen(8);
    await press(page, "Далее →", 9);
    await page.getByRole("radio", { name: /^Волнистая/ }).check();
    await seen(9);
    await press(page, "Далее →", 10);
  } else {
    await press(page, "Пропустить", 10);
  }
  await seen(10);
  await press(page, "Пропустить", 11);
  await seen(11);
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_[0-9a-f]{24}$/);
  await expect(page.getByText("ТЕСТОВАЯ ОПЛАТА.")).toBeVisible();
  await expect(page.getByText(/10\s000\s₽/).first()).toBeVisible();
}

interface Watch {
  inFlight: Set<unknown>;
  started: number;
}
const watches = new WeakMap<Page, Watch>();

/**
 * Before the page opens: counts the idle callbacks the page asks for and the requests the browser
 * makes, for `pageSettled`. A form's checks arrive after the page (ADR 053): `useIdleImport` fetches
 * them once the page is idle after hydration, which on a busy machine can be well after the network
 * first fell quiet.
 */
export async function watchIdleWork(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Window & { __idleWork?: { asked: number; pending: Set<number> } };
    if (!w.requestIdleCallback) return;
    const ask = w.requestIdleCallback.bind(w);
    const cancel = w.cancelIdleCallback.bind(w);
    const work = (w.__idleWork = { asked: 0, pending: new Set<number>() });
    w.requestIdleCallback = (callback, options) => {
      work.asked++;
      const handle = ask((deadline) => {
        work.pending.delete(handle);
        callback(deadline);
      }, options);
      work.pending.add(handle);
      return handle;
    };
    w.cancelIdleCallback = (handle) => {
      work.pending.delete(handle);
      cancel(handle);
    };
  });
  const watch: Watch = { inFlight: new Set(), started: 0 };
  page.on("request", (request) => {
    watch.inFlight.add(request);
    watch.started++;
  });
  page.on("requestfinished", (request) => watch.inFlight.delete(request));
  page.on("requestfailed", (request) => watch.inFlight.delete(request));
  watches.set(page, watch);
}

/**
 * The page has done what it does on its own: without JavaScript, the network is quiet; with it, the
 * page is hydrated (its forms asked for their idle-time work), every idle callback it asked for has
 * run, every request it started (the checks' chunks among them) has ended, and two more idle moments
 * start nothing new. Conditions, not a pause: as long as a busy machine needs. Needs `watchIdleWork`.
 */
export async function pageSettled(page: Page, javascript: boolean) {
  await page.waitForLoadState("networkidle");
  if (!javascript) return;
  const watch = watches.get(page);
  if (!watch) throw new Error("pageSettled needs watchIdleWork(page) before the page opens");
  await page.waitForFunction(() => {
    const work = (window as unknown as { __idleWork?: { asked: number; pending: Set<number> } }).__idleWork;
    return !!work && work.asked > 0 && work.pending.size === 0;
  });
  const idleMoment = () => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => setTimeout(resolve, 0))));
  for (let quiet = 0; quiet < 2; ) {
    await expect.poll(() => watch.inFlight.size, { message: "requests the page started have ended", timeout: 60_000 }).toBe(0);
    const before = watch.started;
    await idleMoment();
    quiet = watch.started === before && watch.inFlight.size === 0 ? quiet + 1 : 0;
  }
}
