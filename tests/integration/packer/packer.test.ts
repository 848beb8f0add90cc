import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrder, buildOrderIn } from "../../support/builders";
import { addPatient, patientFiles } from "./fixtures";
import { SECRETS, startApp, type TestApp } from "../../support/app";
import { bagCode, groupedBagCode } from "~/modules/packer/bag-code";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/><script>alert(1)</script></svg>';
const toastOf = (html: string) => /<div class="toast toast-(\w+)" role="\w+"><strong>([^<]*)<\/strong>(?:<p>([^<]*)<\/p>)?(?:<ul><li>([^<]*)<\/li><\/ul>)?/.exec(html)?.slice(1);
/** The rendered page up to the end of its content, without the texts and data Remix adds for the browser. */
const markup = (html: string) => html.slice(0, html.indexOf("</main>"));

type Browser = ReturnType<typeof browserFetch>;

/** Packer station over real HTTP against the real server (staff-partner-packer §2, §5, §9; DESIGN §4.25, §4.28). */
describe("the packer station over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let packer: Browser;
  let paid: Awaited<ReturnType<typeof buildOrderIn>>;
  let noEmail: Awaited<ReturnType<typeof buildOrderIn>>;
  let noPatients: Awaited<ReturnType<typeof buildOrderIn>>;
  let draft: Awaited<ReturnType<typeof buildOrder>>;

  async function uploadLogo(browser: Browser, orderId: string, file: { name: string; content: Buffer | string }, back = "") {
    const form = new FormData();
    form.append("logo", new Blob([typeof file.content === "string" ? file.content : new Uint8Array(file.content)]), file.name);
    const response = await fetch(`${app.url}/packer/logo?order=${orderId}${back ? `&back=${encodeURIComponent(back)}` : ""}`, {
      method: "POST",
      body: form,
      headers: { Cookie: browser.jar.header(), Origin: app.url },
      redirect: "manual",
    });
    browser.jar.store(response);
    return response;
  }

  async function follow(browser: Browser, response: Response) {
    expect(response.status).toBe(302);
    return (await browser.request(response.headers.get("Location")!.replace(/#.*/, ""))).text();
  }

  beforeAll(async () => {
    app = await startApp();
    t = app.database;

    paid = await buildOrderIn(t.db, "paid", { email: "info@ulybka-dental.ru", fullName: "Кузнецова Ольга Викторовна", address: "Москва, ул. Профсоюзная, д. 56", phone: "+7 495 214-37-80" });
    // Patients added out of folder order: _10 before _2 before _1.
    await addPatient(t.db, paid, "Десятый Д.", 10, patientFiles(paid.id, `${paid.code}_10`, 2, false));
    await addPatient(t.db, paid, "Второй В.", 2, patientFiles(paid.id, `${paid.code}_2`, 3, true));
    await addPatient(t.db, paid, "Первый П.", 1, patientFiles(paid.id, `${paid.code}_1`, 1, false));
    noEmail = await buildOrderIn(t.db, "processing", { email: null, fullName: "Без почты", address: "Казань, ул. Баумана, 1" });
    await addPatient(t.db, noEmail, "Сидоров С.", 1, patientFiles(noEmail.id, `${noEmail.code}_1`, 1, false));
    noPatients = await buildOrderIn(t.db, "shipped", { fullName: "Пустой заказ", email: "empty@clinic.ru" });
    draft = await buildOrder(t.db, { fullName: "Черновой Клиент", email: "draft@clinic.ru" });
    await addPatient(t.db, draft, "Скрытый Пациент", 1, patientFiles(draft.id, `${draft.code}_1`, 1, false));
    // Newest first: make the order of creation unambiguous.
    for (const [index, order] of [noPatients, noEmail, paid].entries()) {
      await t.db.updateTable("orders").set({ created_at: sql`now() - make_interval(hours => ${index + 1})` }).where("id", "=", order.id).execute();
    }

    packer = browserFetch(app);
    const signIn = await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
    expect(signIn.status).toBe(302);
    expect(packer.jar.has("packer_gate")).toBe(true);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe("gate", () => {
    it("shows only the gate without the cookie: no orders, no names", async () => {
      const response = await browserFetch(app).request("/packer");
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      const html = await response.text();
      expect(markup(html)).toContain('<section class="gate"><h1>Упаковка заказов</h1>');
      expect(html).toContain('name="password"');
      for (const secret of ["pk-card", paid.id, "Кузнецова", "info@ulybka-dental.ru", "Первый П."]) expect(html).not.toContain(secret);
      // The shell around it is hidden too (staff-partner-packer §2 "Global layout rules").
      for (const part of ["site-header", "site-footer", "guarantee-banner", "cookie-notice", "messenger-button"]) expect(markup(html)).not.toContain(part);
    });

    it("says «Неверный пароль» for a wrong password and sets no cookie", async () => {
      const browser = browserFetch(app);
      const response = await browser.request("/packer", { form: { password: SECRETS.BACKOFFICE_PASSWORD } });
      expect(response.status).toBe(401);
      expect(browser.jar.has("packer_gate")).toBe(false);
      expect(markup(await response.text())).toContain('<p id="gate-error" class="field-error" role="alert">Неверный пароль</p>');
    });

    it("guards every packer page, resource and form", async () => {
      const stranger = browserFetch(app);
      for (const page of [`/packer/box/${paid.id}`, `/packer/bags/${paid.id}`]) {
        const response = await stranger.request(page);
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe(`/packer?redirectTo=${encodeURIComponent(page)}`);
      }
      expect((await stranger.request("/packer/logos/info_40ulybka-dental_ru-12345678")).status).toBe(403);
      const upload = await uploadLogo(stranger, paid.id, { name: "logo.png", content: PNG });
      expect(upload.status).toBe(302);
      expect(upload.headers.get("Location")).toBe("/packer");
      expect(fs.readdirSync(path.join(app.dataDir, "storage", "logos"))).toEqual([]);
      // The back-office pass opens nothing here, and the packer pass nothing there.
      const staff = browserFetch(app);
      await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } });
      expect(await (await staff.request("/packer")).text()).not.toContain("pk-card");
      expect((await packer.request("/backoffice")).status).toBe(302);
    });

    it("returns to the label page asked for after the password", async () => {
      const browser = browserFetch(app);
      const response = await browser.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: `/packer/box/${paid.id}` } });
      expect(response.headers.get("Location")).toBe(`/packer/box/${paid.id}`);
      const elsewhere = await browserFetch(app).request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/backoffice" } });
      expect(elsewhere.headers.get("Location")).toBe("/packer");
    });

    it("signs out", async () => {
      const browser = browserFetch(app);
      await browser.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD } });
      expect(await (await browser.request("/packer")).text()).toContain("pk-card");
      const out = await browser.request("/packer/logout", { form: {} });
      expect(out.status).toBe(302);
      expect(browser.jar.has("packer_gate")).toBe(false);
      expect(await (await browser.request("/packer")).text()).not.toContain("pk-card");
    });
  });

  describe("order cards", () => {
    it("lists non-draft orders newest first with 4-character numbers, client, address, patients in folder order and their files", async () => {
      // Every non-draft order: the specification's list, one click from the orders to pack.
      const html = markup(await (await packer.request("/packer?view=all")).text());
      const numbers = [...html.matchAll(/<article id="o-([^"]+)" class="pk-card"><div class="pk-head"><h2>(\w{4})<\/h2>/g)].map((match) => [match[1], match[2]]);
      expect(numbers).toEqual([noPatients, noEmail, paid].map((order) => [order.id, order.id.slice(0, 4).toUpperCase()]));
      expect(html).not.toContain(draft.id);
      expect(html).not.toContain("Скрытый Пациент");

      const card = html.slice(html.indexOf(`id="o-${paid.id}"`));
      expect(card).toContain("Кузнецова Ольга Викторовна");
      expect(card).toContain("Москва, ул. Профсоюзная, д. 56");
      const folders = [...card.matchAll(/<code>([^<]+)<\/code>/g)].map((match) => match[1]).slice(0, 3);
      expect(folders).toEqual([`${paid.code}_1`, `${paid.code}_2`, `${paid.code}_10`]);
      // Each file with the jaw and step its labels print; these were recorded before declarations (ADR 058), so guessed from the name.
      const files = card.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");
      // A few files are listed by name; more fold into each jaw's steps, with how many are read from their names (ADR 098).
      expect(files).toContain("Элайнеры: Шаг 01 верх.stl (ВЧ, шаг 01 · по имени файла), Шаг 01 низ.stl (НЧ, шаг 01 · по имени файла)");
      expect(files).toContain("Элайнеры: 6 файлов — ВЧ: шаги 01–03; НЧ: шаги 01–03 (по имени файла: 6)");
      expect(files).not.toContain("Subsetup1_Upper.stl");
      expect(files).toContain("Матрица: Верхняя челюсть.stl (ВЧ · по имени файла), Нижняя челюсть.stl (НЧ · по имени файла)");
      expect(card).toContain("Верхняя челюсть.stl");
      expect(card).toContain("Ретейнер верх.stl");
    });

    it("never exposes prices, payments, phones or back-office data, in the page or in its data", async () => {
      const secrets = ["12 500", "12500", "1250000", "₽", "+7 495 214-37-80", "+7 900 123-45-67", "RA000000001RU", "total_cost", "payment", "tracking", "discount", "storagePath", `order_${paid.id}`];
      const pages: Array<[string, string]> = [
        ["/packer", "routes/packer"],
        [`/packer/bags/${paid.id}`, "routes/packer_.bags.$orderId"],
        [`/packer/box/${paid.id}`, "routes/packer_.box.$orderId"],
        [`/packer/bags/${noPatients.id}`, "routes/packer_.bags.$orderId"],
      ];
      for (const [page, route] of pages) {
        // What the page shows, and the route's own data as the browser receives it (the shell's interface texts aside).
        const shown = markup(await (await packer.request(page)).text());
        const data = await (await packer.request(`${page}.data?_routes=${encodeURIComponent(route)}`)).text();
        expect(data).toContain(route);
        for (const secret of secrets) {
          expect(shown.includes(secret), `${page} shows ${secret}`).toBe(false);
          expect(data.includes(secret), `${page} sends ${secret}`).toBe(false);
        }
      }
    });

    it("searches by order number, client and patient, and filters by status", async () => {
      const cards = async (query: string) => [...markup(await (await packer.request(`/packer${query}`)).text()).matchAll(/id="o-([^"]+)"/g)].map((match) => match[1]);
      expect(await cards(`?q=${paid.id.slice(0, 4).toUpperCase()}`)).toEqual([paid.id]);
      expect(await cards(`?q=${encodeURIComponent("кузнецова")}`)).toEqual([paid.id]);
      expect(await cards(`?q=${encodeURIComponent("ulybka-dental")}`)).toEqual([paid.id]);
      expect(await cards(`?q=${encodeURIComponent("Сидоров")}`)).toEqual([noEmail.id]);
      expect(await cards(`?q=${encodeURIComponent("Скрытый")}`)).toEqual([]);
      expect(await cards("?q=%25")).toEqual([]);
      expect(await cards("?view=all&status=shipped")).toEqual([noPatients.id]);
      expect(await cards("?view=all&status=draft")).toHaveLength(3);
      // The status filter belongs to the list of all orders; the orders to pack ignore it.
      expect(await cards("?status=shipped")).toEqual([noEmail.id, paid.id]);
      expect(markup(await (await packer.request("?q=nothing-like-this".replace("?", "/packer?"))).text())).toContain("Заказы отсутствуют");
    });

    it("shows «Нет пациентов» and «Нет e‑mail» where they apply", async () => {
      const html = markup(await (await packer.request("/packer?view=all")).text());
      const cardOf = (id: string) => html.slice(html.indexOf(`id="o-${id}"`), html.indexOf("</article>", html.indexOf(`id="o-${id}"`)));
      expect(cardOf(noPatients.id)).toContain("Нет пациентов");
      expect(cardOf(noPatients.id)).not.toContain("/packer/bags/");
      expect(cardOf(noEmail.id)).toContain("Нет e‑mail");
      expect(cardOf(noEmail.id)).not.toContain('type="file"');
      expect(cardOf(paid.id)).toContain('src="/packer-logo.svg"');
    });
  });

  describe("client logos", () => {
    it("stores a logo per client e-mail, serves it for an hour to the packer only, and replaces it", async () => {
      const stored = await uploadLogo(packer, paid.id, { name: "Logo.PNG", content: PNG }, "?view=all&status=paid");
      expect(stored.headers.get("Location")).toBe(`/packer?view=all&status=paid#o-${paid.id}`);
      expect(toastOf(await follow(packer, stored))).toEqual(["success", "Логотип обновлён", undefined, undefined]);

      const html = markup(await (await packer.request("/packer")).text());
      const src = new RegExp(`id="o-${paid.id}"[\\s\\S]*?<img class="pk-logo" src="([^"]+)"`).exec(html)?.[1];
      expect(src).toMatch(/^\/packer\/logos\/info_40ulybka-dental_ru-[0-9a-f]{8}\?v=\d+$/);
      const folder = src!.slice("/packer/logos/".length, src!.indexOf("?"));
      expect(fs.readdirSync(path.join(app.dataDir, "storage", "logos", folder))).toEqual(["info_40ulybka-dental_ru"]);

      const png = await packer.request(src!);
      expect(png.status).toBe(200);
      expect(png.headers.get("Content-Type")).toBe("image/png");
      expect(png.headers.get("Cache-Control")).toBe("private, max-age=3600");
      expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);
      expect((await browserFetch(app).request(src!)).status).toBe(403);

      // The same client's other orders show the same logo; an SVG replaces the PNG and cannot run script.
      const replaced = await uploadLogo(packer, paid.id, { name: "logo.svg", content: SVG });
      expect(toastOf(await follow(packer, replaced))?.[1]).toBe("Логотип обновлён");
      expect(fs.readdirSync(path.join(app.dataDir, "storage", "logos", folder))).toEqual(["info_40ulybka-dental_ru"]);
      const newSrc = new RegExp(`id="o-${paid.id}"[\\s\\S]*?<img class="pk-logo" src="([^"]+)"`).exec(markup(await (await packer.request("/packer")).text()))?.[1];
      const svg = await packer.request(newSrc!);
      expect(svg.headers.get("Content-Type")).toBe("image/svg+xml");
      expect(svg.headers.get("Content-Security-Policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(svg.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(svg.headers.get("Cache-Control")).toBe("private, max-age=3600");
      expect(await svg.text()).toBe(SVG);
    });

    it("refuses a wrong type, a renamed file, an empty choice and a file over 2 MiB, keeping the logo there was", async () => {
      const cases: Array<[{ name: string; content: Buffer | string }, string]> = [
        [{ name: "logo.gif", content: "GIF89a" }, "Допустимы только файлы png, jpg, jpeg, webp и svg"],
        [{ name: "logo.png", content: "<html>not a png</html>" }, "Содержимое файла не соответствует его типу"],
        [{ name: "logo.png", content: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) }, "Файл больше 2 МБ"],
      ];
      for (const [file, reason] of cases) {
        const response = await uploadLogo(packer, paid.id, file);
        expect(toastOf(await follow(packer, response))).toEqual(["error", "Ошибка", "Ошибка загрузки логотипа", reason]);
      }
      const none = await fetch(`${app.url}/packer/logo?order=${paid.id}`, { method: "POST", body: new FormData(), headers: { Cookie: packer.jar.header(), Origin: app.url }, redirect: "manual" });
      packer.jar.store(none);
      const noneToast = toastOf(await follow(packer, none));
      expect(noneToast).toEqual(["error", "Ошибка", "Ошибка загрузки логотипа", "Выберите файл логотипа"]);
      const folder = fs.readdirSync(path.join(app.dataDir, "storage", "logos")).find((name) => name.startsWith("info_40ulybka"))!;
      expect(fs.readFileSync(path.join(app.dataDir, "storage", "logos", folder, "info_40ulybka-dental_ru"), "utf8")).toBe(SVG);
    });

    it("says «Нет e‑mail» for an order without one, and refuses foreign sites and unknown orders", async () => {
      const response = await uploadLogo(packer, noEmail.id, { name: "logo.png", content: PNG });
      expect(toastOf(await follow(packer, response))).toEqual(["error", "Ошибка", "Ошибка загрузки логотипа", "Нет e‑mail"]);
      const crossSite = await fetch(`${app.url}/packer/logo?order=${paid.id}`, { method: "POST", body: new FormData(), headers: { Cookie: packer.jar.header(), Origin: "https://evil.example" }, redirect: "manual" });
      expect(crossSite.status).toBe(403);
      expect((await uploadLogo(packer, draft.id, { name: "logo.png", content: PNG })).status).toBe(404);
      expect((await packer.request("/packer/logos/..%2F..%2Fsecrets.json")).status).toBe(404);
      expect((await packer.request("/packer/logos/nobody_40clinic_ru-0000abcd")).status).toBe(404);
    });
  });

  describe("labels", () => {
    it("prints a 400×600 px box label with logo, number, client, address and patient count", async () => {
      const response = await packer.request(`/packer/box/${paid.id}`);
      expect(response.status).toBe(200);
      const html = markup(await response.text());
      expect(html).toContain("@page{size:400px 600px;margin:0}");
      expect(html).toContain(`<div class="box-number">${paid.id.slice(0, 4).toUpperCase()}</div>`);
      expect(html).toContain("<dd>Кузнецова Ольга Викторовна</dd>");
      expect(html).toContain("<dd>Москва, ул. Профсоюзная, д. 56</dd>");
      expect(html).toContain("<dt>Пациентов</dt><dd>3</dd>");
      expect(html).toMatch(/<img src="\/packer\/logos\/info_40ulybka-dental_ru-[0-9a-f]{8}\?v=\d+"/);
      expect(html).toMatch(/<script nonce="[A-Za-z0-9+/=]+">addEventListener\("afterprint",function\(\)\{if\(window\.name==="label-print"\)window\.close\(\)\}\);setTimeout\(function\(\)\{window\.print\(\)\},300\)<\/script>/);
      const plain = markup(await (await packer.request(`/packer/box/${noEmail.id}`)).text());
      expect(plain).toContain('<img src="/packer-logo.svg"');
    });

    it("prints one 80×80 mm bag label per step and jaw, with a QR code of its bag code and the patient folder's path", async () => {
      const html = markup(await (await packer.request(`/packer/bags/${paid.id}`)).text());
      expect(html).toContain("@page{size:80mm 80mm;margin:0}");
      const labels = [...html.matchAll(/<section class="bag-label"[^>]*>([\s\S]*?)<\/section>/g)].map((match) => match[1]!);
      // Patient _1: matrix 2 + 1 step × 2 + retainer 1; _2: 2 + 3 × 2 + 1; _10: 2 + 2 × 2 + 1.
      expect(labels).toHaveLength(5 + 9 + 7);
      const text = (label: string) => label.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
      const number = paid.id.slice(0, 4).toUpperCase();
      const grouped = (label: string) => /<div class="bag-code">([^<]+)<\/div>/.exec(label)![1]!;
      expect(text(labels[0]!)).toBe(`Матрица ${number} Первый П. ${grouped(labels[0]!)} ВЧ ${paid.code}/${paid.code}_1 Верхняя челюсть.stl`);
      expect(text(labels[2]!)).toBe(`Элайнеры ${number} Первый П. ${grouped(labels[2]!)} ВЧ Шаг 01 ${paid.code}/${paid.code}_1 Шаг 01 верх.stl`);
      expect(text(labels[3]!)).toBe(`Элайнеры ${number} Первый П. ${grouped(labels[3]!)} НЧ Шаг 01 ${paid.code}/${paid.code}_1 Шаг 01 низ.stl`);
      expect(text(labels[4]!)).toBe(`Ретейнеры ${number} Первый П. ${grouped(labels[4]!)} ВЧ ${paid.code}/${paid.code}_1 Ретейнер верх.stl`);
      expect(text(labels[7]!)).toBe(`Элайнеры ${number} Второй В. ${grouped(labels[7]!)} ВЧ Шаг 01 ${paid.code}/${paid.code}_2 Subsetup1_Upper.stl`);
      expect(text(labels[12]!)).toBe(`Элайнеры ${number} Второй В. ${grouped(labels[12]!)} НЧ Шаг 03 ${paid.code}/${paid.code}_2 Subsetup3_Lower.stl`);
      expect(text(labels[14]!)).toContain(`Десятый Д. ${grouped(labels[14]!)} ВЧ ${paid.code}/${paid.code}_10`);
      // One QR symbol per bag, carrying its bag code (ADR 103), printed under it in groups too.
      expect(html.match(/<symbol /g)).toHaveLength(21);
      const code = bagCode(paid.id, { patient: 1, kind: "matrix", jaw: "upper", step: null });
      expect(labels[0]).toContain(`aria-label="QR-код: ${code}"`);
      expect(labels[0]).toContain('<use href="#qr0">');
      expect(labels[0]).toContain(`<div class="bag-code">${groupedBagCode(code)}</div>`);
      expect(html).toMatch(/<script nonce="[A-Za-z0-9+/=]+">addEventListener\("afterprint",function\(\)\{if\(window\.name==="label-print"\)window\.close\(\)\}\);setTimeout\(function\(\)\{window\.print\(\)\},300\)<\/script>/);
    });

    it("says «Нет пациентов» instead of labels, and 404 for drafts and unknown orders", async () => {
      const html = markup(await (await packer.request(`/packer/bags/${noPatients.id}`)).text());
      expect(html).toContain('<p class="empty" role="alert">Нет пациентов</p>');
      expect(html).not.toContain("bag-label");
      expect(html).not.toContain("window.print");
      for (const page of [`/packer/bags/${draft.id}`, `/packer/box/${draft.id}`, "/packer/box/not-an-id", `/packer/bags/${crypto.randomUUID()}`]) {
        expect((await packer.request(page)).status).toBe(404);
      }
    });
  });

  describe("the packer's day (ADR 068)", () => {
    const cardIds = async (query: string) => [...markup(await (await packer.request(`/packer${query}`)).text()).matchAll(/id="o-([^"]+)"/g)].map((match) => match[1]);
    async function pack(browser: Browser, orderId: string, back = "") {
      const response = await fetch(`${app.url}/packer/packed/${orderId}`, {
        method: "POST",
        body: new URLSearchParams({ back }),
        headers: { Cookie: browser.jar.header(), Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
      browser.jar.store(response);
      return response;
    }
    const packingsOf = (orderId: string) => t.db.selectFrom("order_packings").selectAll().where("order_id", "=", orderId).execute();

    it("opens on the orders to pack: paid and in work, not yet packed; packed and all orders one click away", async () => {
      const pending = await buildOrderIn(t.db, "pending", { fullName: "Ждёт оплаты" });
      const completed = await buildOrderIn(t.db, "completed", { fullName: "Завершённый" });
      const html = markup(await (await packer.request("/packer")).text());
      expect(html).toMatch(/<a href="\/packer" aria-current="page">К упаковке<\/a>/);
      expect(html).toContain('<a href="/packer?view=packed">Упакованы</a>');
      expect(html).toContain('<a href="/packer?view=all">Все заказы</a>');
      const badges = [...html.matchAll(/<span class="badge badge-(\w+)">/g)].map((match) => match[1]);
      expect(new Set(badges)).toEqual(new Set(["paid", "processing"]));
      expect(await cardIds("")).not.toContain(pending.id);
      expect(await cardIds("")).not.toContain(completed.id);
      const all = await cardIds("?view=all");
      for (const order of [pending, completed, paid, noEmail, noPatients]) expect(all).toContain(order.id);
      expect(all).not.toContain(draft.id);
      // Every order to pack has its "Упаковано"; an order of another status has none.
      const allHtml = markup(await (await packer.request("/packer?view=all")).text());
      // An order with bags is packed from its page, once they are scanned (ADR 103).
      expect(allHtml).toContain(`href="/packer/order/${paid.id}"`);
      expect(allHtml).not.toContain(`action="/packer/packed/${paid.id}"`);
      expect(allHtml).not.toContain(`action="/packer/packed/${completed.id}"`);
      await t.db.deleteFrom("orders").where("id", "in", [pending.id, completed.id]).execute();
    });

    it("marks a paid order packed: a history row with who and when, the status moves to В работе, staff see it on the card", async () => {
      const order = await buildOrderIn(t.db, "paid", { fullName: "Упаковочная клиника", email: "pack@clinic.ru" });
      const response = await pack(packer, order.id, "?q=pack");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/packer?q=pack");
      const answered = await follow(packer, response);
      expect(toastOf(answered)?.slice(0, 2)).toEqual(["success", "Упаковано"]);
      expect(answered).toContain(`<li>Заказ ${order.id.slice(0, 4).toUpperCase()} отмечен упакованным</li><li>Статус заказа: В работе</li>`);
      const [mark] = await packingsOf(order.id);
      expect(mark).toMatchObject({ from_status: "paid", to_status: "processing" });
      expect(mark!.actor).toMatch(/^packer \(.*127\.0\.0\.1\)$/);
      expect(Date.now() - mark!.created_at.getTime()).toBeLessThan(60_000);
      const now = await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
      expect(now.status).toBe("processing");
      const change = await t.db.selectFrom("order_status_history").selectAll().where("order_id", "=", order.id).orderBy("created_at", "desc").orderBy("id", "desc").executeTakeFirstOrThrow();
      expect(change).toMatchObject({ from_status: "paid", to_status: "processing", actor: mark!.actor });

      // It leaves the orders to pack and waits among the packed ones, saying when.
      expect(await cardIds("")).not.toContain(order.id);
      expect(await cardIds("?view=packed")).toEqual([order.id]);
      const packedHtml = markup(await (await packer.request("/packer?view=packed")).text());
      expect(packedHtml).toMatch(/<p class="pk-packed">Упакован \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}<\/p>/);
      expect(packedHtml).not.toContain(`action="/packer/packed/${order.id}"`);

      // Staff see the mark in the order's history on its card.
      const staff = browserFetch(app);
      await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
      // The order's page holds the whole history (the dashboard's card only its latest entry, ADR 100).
      const card = (await (await staff.request(`/backoffice/orders/${order.id}`)).text()).replace(/<!-- -->/g, "");
      expect(card).toMatch(new RegExp(`<time dateTime="${mark!.created_at.toISOString()}">[^<]+</time> Упаковано<span class="muted"> · упаковщик \\(`));
      expect(card).toContain("Оплачен → В работе");

      // Twice is once.
      const again = await pack(packer, order.id);
      expect(toastOf(await follow(packer, again))).toEqual(["error", "Ошибка", "Заказ уже отмечен упакованным", undefined]);
      expect(await packingsOf(order.id)).toHaveLength(1);
    });

    it("marks an order in work packed without a status change: no status means packed and shipping needs a tracking number", async () => {
      const order = await buildOrderIn(t.db, "processing", { fullName: "В работе" });
      const historyBefore = await t.db.selectFrom("order_status_history").select("id").where("order_id", "=", order.id).execute();
      const response = await pack(packer, order.id);
      expect(toastOf(await follow(packer, response))?.slice(0, 2)).toEqual(["success", "Упаковано"]);
      expect(await packingsOf(order.id)).toMatchObject([{ from_status: "processing", to_status: null }]);
      expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("processing");
      expect(await t.db.selectFrom("order_status_history").select("id").where("order_id", "=", order.id).execute()).toHaveLength(historyBefore.length);
    });

    it("refuses an order that is not to pack, a forged or unknown order, and anyone without the packer's password", async () => {
      const shipped = await buildOrderIn(t.db, "shipped", { fullName: "Уже отправлен" });
      const refused = await pack(packer, shipped.id);
      expect(toastOf(await follow(packer, refused))).toEqual(["error", "Ошибка", "Упаковать можно только оплаченный заказ или заказ в работе", undefined]);
      expect(await packingsOf(shipped.id)).toEqual([]);

      expect((await pack(packer, "not-an-order")).status).toBe(400);
      expect((await pack(packer, "1' or '1'='1")).status).toBe(400);
      expect((await pack(packer, crypto.randomUUID())).status).toBe(404);
      expect((await pack(packer, draft.id)).status).toBe(404);
      expect(await packingsOf(draft.id)).toEqual([]);

      const order = await buildOrderIn(t.db, "paid", { fullName: "Чужой запрос" });
      const stranger = browserFetch(app);
      const staff = browserFetch(app);
      await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
      for (const browser of [stranger, staff]) {
        const response = await pack(browser, order.id);
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/packer");
      }
      // A cross-site form never reaches the action.
      const evil = await fetch(`${app.url}/packer/packed/${order.id}`, { method: "POST", body: new URLSearchParams({}), headers: { Cookie: packer.jar.header(), Origin: "https://evil.example" }, redirect: "manual" });
      expect(evil.status).toBe(403);
      expect(await packingsOf(order.id)).toEqual([]);
      expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("paid");
    });

    it("opens every label in the one named print window, without noopener so the window is found again", async () => {
      const html = markup(await (await packer.request("/packer?view=all")).text());
      const links = [...html.matchAll(/<a class="button button-small" href="(\/packer\/(?:box|bags)\/[^"]+)"([^>]*)>/g)];
      expect(links.length).toBeGreaterThan(3);
      for (const [, , attributes] of links) expect(attributes).toBe(' target="label-print"');
    });
  });
});
