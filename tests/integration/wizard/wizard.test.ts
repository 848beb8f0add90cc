import fs from "node:fs";
import path from "node:path";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn } from "../../support/builders";
import { startApp, type TestApp } from "../../support/app";

/** A binary STL of `triangles` facets (content check: 84 + 50 × n bytes). */
function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("binary stl", 0);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

type Browser = ReturnType<typeof browserFetch>;

async function upload(browser: Browser, files: Array<{ name: string; content: Buffer | Blob }>, intent = "upload") {
  const form = new FormData();
  for (const file of files) form.append("files", file.content instanceof Blob ? file.content : new Blob([new Uint8Array(file.content)]), file.name);
  form.append("intent", intent);
  const response = await fetch(`${browser.app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: browser.app.url }, redirect: "manual" });
  browser.jar.store(response);
  return response;
}

describe("the order wizard over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  const newBrowser = () => browserFetch(app);

  /** Walks a fresh browser to step 5 with one patient; returns the order id. */
  async function toMatrixStep(browser: Browser, email = `doctor-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`) {
    expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-01" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "add_patient", patient_name: "Смирнова Е." } })).status).toBe(302);
    expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
    const order = await t.db.selectFrom("orders").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(order.wizard_step).toBe(5);
    return order;
  }

  const storedFiles = (orderId: string) => {
    const dir = path.join(app.dataDir, "storage", "orders", `order_${orderId}`);
    if (!fs.existsSync(dir)) return [];
    return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(".stl"));
  };

  const patientOf = (orderId: string) => t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();

  it("creates no order for a GET, only for step 1's POST", async () => {
    const before = await t.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const browser = newBrowser();
    const page = await browser.request("/order");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Шаг 1 из 11");
    await browser.request("/order?step=2");
    const after = await t.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    await browser.request("/order", { form: { intent: "next" } });
    const created = await t.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(created.n)).toBe(Number(before.n) + 1);
  });

  it("shows the spec's messages for missing contacts and keeps the step", async () => {
    const browser = newBrowser();
    await browser.request("/order", { form: { intent: "next" } });
    const refused = await browser.request("/order", { form: { intent: "next", email: "", phone: "" } });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Пожалуйста, укажите email");
    expect(html).toContain("Пожалуйста, укажите номер телефона");
    expect(html).toContain('aria-invalid="true"');
    const invalid = await (await browser.request("/order", { form: { intent: "next", email: "doctor@clinic", phone: "1" } })).text();
    expect(invalid).toContain("Пожалуйста, укажите корректный email");
    expect(await (await browser.request("/order")).text()).toContain("Шаг 2 из 11");
  });

  it("stores STL files, refuses a text file renamed .stl by its content, and lists the rest", async () => {
    const browser = newBrowser();
    const order = await toMatrixStep(browser);
    const response = await upload(browser, [
      { name: "Верх.stl", content: binaryStl(20) },
      { name: "notes.stl", content: Buffer.from("this is a text file, not a model\n") },
      { name: "photo.png", content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    expect(response.status).toBe(302);
    const patient = await patientOf(order.id);
    const files = patient.matrix_files_info as unknown as Array<{ originalName: string; storagePath: string; size: number; triangles: number }>;
    expect(files.map((file) => file.originalName)).toEqual(["Верх.stl"]);
    expect(files[0]!.triangles).toBe(20);
    expect(files[0]!.storagePath).toMatch(new RegExp(`^order_${order.id}/${order.code}_1/matrix/Verkh_\\d+\\.stl$`));
    expect(storedFiles(order.id)).toHaveLength(1);
    const queue = await t.db.selectFrom("ftp_uploads_queue").selectAll().where("order_id", "=", order.id).execute();
    expect(queue.map((entry) => [entry.file_type, entry.status, entry.destination_path])).toEqual([["matrix", "pending", `/AlignersFactory/${order.code}/${order.code}_1/matrix`]]);
    const page = await (await browser.request("/order")).text();
    expect(page).toContain("Верх.stl");
    expect(page).toContain("Ожидает отправки на FTP");
  });

  it("refuses a 101 MiB file without storing it", async () => {
    const browser = newBrowser();
    const order = await toMatrixStep(browser);
    const big = new Blob([new Uint8Array(binaryStl(0).subarray(0, 84)), new Uint8Array(101 * 1024 * 1024)]);
    const response = await upload(browser, [{ name: "huge.stl", content: big }]);
    expect(response.status).toBe(302);
    expect((await patientOf(order.id)).matrix_files_info).toEqual([]);
    expect(storedFiles(order.id)).toEqual([]);
    const page = await (await browser.request("/order")).text();
    expect(page).toContain("1 файл превышает максимальный размер (100 МБ)");
  });

  it("keeps both files when two uploads to one patient arrive at once", async () => {
    const browser = newBrowser();
    const order = await toMatrixStep(browser);
    const [first, second] = await Promise.all([upload(browser, [{ name: "a.stl", content: binaryStl(5) }]), upload(browser, [{ name: "b.stl", content: binaryStl(6) }])]);
    expect([first.status, second.status]).toEqual([302, 302]);
    const names = ((await patientOf(order.id)).matrix_files_info as unknown as Array<{ originalName: string }>).map((file) => file.originalName).sort();
    expect(names).toEqual(["a.stl", "b.stl"]);
  });

  it("hides an order from another browser (404) and shows it to its own", async () => {
    const owner = newBrowser();
    const order = await toMatrixStep(owner);
    const stranger = newBrowser();
    expect((await stranger.request(`/order?id=${order.id}`)).status).toBe(404);
    expect((await stranger.request(`/order?id=not-a-uuid`)).status).toBe(404);
    expect((await owner.request(`/order?id=${order.id}`)).status).toBe(200);
  });

  it("freezes a pending order's files and lets the customer return it to draft", async () => {
    const browser = newBrowser();
    const order = await toMatrixStep(browser);
    await upload(browser, [{ name: "m-upper.stl", content: binaryStl(3) }], "next");
    await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
    await browser.request("/order", { form: { intent: "skip_aligners" } });
    await browser.request("/order", { form: { intent: "skip_retainers" } });
    const pay = await browser.request("/order", { form: { intent: "pay" } });
    expect(pay.status).toBe(302);
    expect(pay.headers.get("Location")).toMatch(/^\/payment\/sandbox\/sbx_/);
    const pending = await t.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(pending.status).toBe("pending");
    expect(Number(pending.total_cost)).toBe(1_000_000);

    // The current-order cookie is gone after hand-off; the order is reopened by id.
    await browser.request(`/order?id=${order.id}`);
    await t.db.updateTable("orders").set({ wizard_step: 5 }).where("id", "=", order.id).execute();
    await upload(browser, [{ name: "late.stl", content: binaryStl(3) }]);
    const files = (await patientOf(order.id)).matrix_files_info as unknown as Array<{ originalName: string }>;
    expect(files.map((file) => file.originalName)).toEqual(["m-upper.stl"]);
    expect(storedFiles(order.id)).toHaveLength(1);

    await browser.request("/order", { form: { intent: "edit" } });
    expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("draft");
    const payment = await t.db.selectFrom("payments").select("status").where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(payment.status).toBe("canceled");
  });

  it("applies a clinic's personal prices only when signed in with its e-mail", async () => {
    const email = "vip@clinic.ru";
    await t.db
      .insertInto("client_settings")
      .values({ email, currency: "rub", aligner_price: 50_000, matrix_price: 40_000, discount_percentage: "10", personal_comment: "VIP" })
      .execute();
    // An earlier paid order: not a new customer.
    const priced = async (browser: Browser) => {
      const order = await toMatrixStep(browser, email);
      await upload(browser, Array.from({ length: 20 }, (_, i) => ({ name: `m${i}.stl`, content: binaryStl(2) })), "next");
      await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
      await browser.request("/order", { form: { intent: "skip_aligners" } });
      await browser.request("/order", { form: { intent: "skip_retainers" } });
      await browser.request("/order");
      return t.db.selectFrom("orders").select(["total_cost", "id"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    };

    const anonymous = await priced(newBrowser());
    // Base prices: 20 × 1000 ₽ = 20 000; new customer −3 % = 600; + 1 500 delivery = 20 900 ₽.
    expect(Number(anonymous.total_cost)).toBe(2_090_000);

    const user = await t.db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow();
    const signedIn = newBrowser();
    signedIn.jar.set("__session", (await createUserSession(t.db, user.id)).split(";")[0]!.split("=").slice(1).join("="));
    const personal = await priced(signedIn);
    // Personal: 20 × 400 ₽ = 8 000; 10 % + 3 % (still new) = 1 040; + 1 500 = 8 460 → minimum 10 000 ₽.
    expect(Number(personal.total_cost)).toBe(1_000_000);
    const page = await (await signedIn.request("/order")).text();
    expect(page).toContain("VIP");
    expect(page).toContain("Скидка 13%");
    const anonymousPage = await (await newBrowser().request(`/order`)).text();
    expect(anonymousPage).not.toContain("VIP");
  });

  it("shows a signed-in clinic its own prices from step 1 and on the landing, as the summary charges them", async () => {
    const email = "own-prices@clinic.ru";
    await t.db
      .insertInto("client_settings")
      .values({ email, currency: "rub", aligner_price: 50_000, matrix_price: 40_000, retainer_standard_price: 70_000, discount_percentage: "0" })
      .execute();
    const user = await t.db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow();
    const signedIn = newBrowser();
    signedIn.jar.set("__session", (await createUserSession(t.db, user.id)).split(";")[0]!.split("=").slice(1).join("="));

    const base = await (await newBrowser().request("/order")).text();
    expect(base).toContain("Базовые цены");
    expect(base).not.toContain("Ваши цены");
    expect(base).toMatch(/900\s₽/);

    const step1 = await (await signedIn.request("/order")).text();
    expect(step1).toContain("Ваши цены");
    expect(step1).not.toContain("Базовые цены");
    // Both aligners at the general 500 ₽, matrices at 400 ₽, the retainer at 700 ₽; delivery stays 1 500 ₽.
    expect(step1).toMatch(/500\s₽/);
    expect(step1).toMatch(/400\s₽/);
    expect(step1).toMatch(/700\s₽/);
    expect(step1).not.toMatch(/>900\s₽</);

    const landing = await (await signedIn.request("/")).text();
    expect(landing).toMatch(/<h2 id="pricing-title">Ваши цены<\/h2>/);
    expect(landing).toMatch(/400\s₽/);
    const anonymousLanding = await (await newBrowser().request("/")).text();
    expect(anonymousLanding).toMatch(/<h2 id="pricing-title">Цены<\/h2>/);

    // The summary charges the same unit price step 1 showed: 3 matrices × 400 ₽.
    const order = await toMatrixStep(signedIn, email);
    await upload(signedIn, Array.from({ length: 3 }, (_, i) => ({ name: `m${i}.stl`, content: binaryStl(2) })), "next");
    await signedIn.request("/order", { form: { intent: "next", matrix_type: "hard" } });
    await signedIn.request("/order", { form: { intent: "skip_aligners" } });
    await signedIn.request("/order", { form: { intent: "skip_retainers" } });
    const summary = await (await signedIn.request("/order")).text();
    expect(summary).toMatch(/400\s₽/);
    expect(order.email).toBe(email);
  });

  it("does not show a discount the minimum-order fee cancels as a saving, and the fee as it actually tops the order up", async () => {
    const browser = newBrowser();
    await toMatrixStep(browser);
    // 2 hard matrices × 1 000 ₽ = 2 000; −3 % (first order) = 60; + 1 500 delivery → topped up to 10 000 ₽.
    await upload(browser, [{ name: "m-upper.stl", content: binaryStl(2) }, { name: "m-lower.stl", content: binaryStl(2) }], "next");
    await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
    await browser.request("/order", { form: { intent: "skip_aligners" } });
    await browser.request("/order", { form: { intent: "skip_retainers" } });
    const page = await (await browser.request("/order")).text();
    expect(page).toContain("Скидка 3% не снижает итог: действует минимальная сумма заказа 10");
    expect(page).not.toMatch(/−60\s₽/);
    // The fee tops 3 500 ₽ up to 10 000 ₽ without the cancelled discount: 6 500 ₽, not 6 560 ₽.
    expect(page).toMatch(/6\s500\s₽/);
    expect(page).not.toMatch(/6\s560\s₽/);
    expect(page).toMatch(/10\s000\s₽/);
  });

  it("tells a visitor nothing about an e-mail they are not signed in with: the summary is the same for an address with conditions and orders as for a fresh one", async () => {
    const known = "known-clinic@clinic.ru";
    await t.db
      .insertInto("client_settings")
      .values({ email: known, currency: "rub", aligner_price: 50_000, matrix_price: 40_000, discount_percentage: "10", personal_comment: "Особые условия клиники" })
      .execute();
    // An earlier paid order: the address has ordered before, so it is not a new customer's.
    await buildOrderIn(t.db, "paid", { email: known });

    /** The summary as its page shows it, and the data the page carries, with what differs by order alone taken out. */
    const summaryFor = async (email: string) => {
      const browser = newBrowser();
      const order = await toMatrixStep(browser, email);
      // Named so that their jaw is read from the name (nothing left to declare before payment), and
      // enough of them for the order to pass the minimum order, so that a discount changes the amount.
      await upload(browser, Array.from({ length: 16 }, (_, i) => ({ name: `${i % 2 ? "Нижняя" : "Верхняя"} челюсть ${i}.stl`, content: binaryStl(2) })), "next");
      await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
      await browser.request("/order", { form: { intent: "skip_aligners" } });
      await browser.request("/order", { form: { intent: "skip_retainers" } });
      const html = await (await browser.request("/order")).text();
      expect(html).toContain("Шаг 11 из 11");
      const response = await fetch(`${app.url}/order.data`, { headers: { Cookie: browser.jar.header() } });
      const decoded = await decode(response.body!);
      await decoded.done;
      const data = (decoded.value as Record<string, { data?: Record<string, unknown> }>)["routes/order"]!.data!;
      const stored = await t.db.selectFrom("orders").select(["total_cost", "additional_comments"]).where("id", "=", order.id).executeTakeFirstOrThrow();
      const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
      const shown = [...main.matchAll(/<table class="price-table">[\s\S]*?<\/table>|<p class="note">[\s\S]*?<\/p>/g)].map((part) => part[0]);
      const price = data.price as { lines: Array<{ patientId?: string }> };
      return { browser, orderId: order.id, main, shown, price: { ...price, lines: price.lines.map(({ patientId: _patient, ...line }) => line) }, priceInput: { ...(data.priceInput as object), patients: undefined }, personalOffer: data.personalOffer, stored: { total: Number(stored.total_cost), comment: stored.additional_comments } };
    };

    const withHistory = await summaryFor(known);
    const fresh = await summaryFor(`fresh-${Date.now()}@clinic.ru`);
    // No personal price, discount or comment of the known address: base prices and a first order's 3 %.
    expect(withHistory.main).not.toContain("Особые условия клиники");
    expect(withHistory.main).toContain("Скидка 3%");
    expect(withHistory.priceInput).toMatchObject({ conditions: null, isNewCustomer: true });
    // Both addresses get the same page: prices, discount, notes (the offer to sign in included), the stored total.
    expect(withHistory.shown.length).toBeGreaterThan(1);
    expect(withHistory.shown).toEqual(fresh.shown);
    expect(withHistory.price).toEqual(fresh.price);
    expect(withHistory.priceInput).toEqual(fresh.priceInput);
    expect(withHistory.personalOffer).toBe(true);
    expect(fresh.personalOffer).toBe(true);
    expect(withHistory.stored).toEqual(fresh.stored);
    // The summary says the first-order discount is confirmed at payment; the amount handed off follows
    // the address's history whoever typed it: the known address is charged without the 3 %, the fresh one with it.
    expect(withHistory.main).toContain("Скидка на первый заказ подтверждается при переходе к оплате");
    const handedOff = async (summary: typeof fresh) => {
      const response = await summary.browser.request("/order", { form: { intent: "pay" } });
      expect(response.status).toBe(302);
      const order = await t.db.selectFrom("orders").select(["status", "total_cost"]).where("id", "=", summary.orderId).executeTakeFirstOrThrow();
      expect(order.status).toBe("pending");
      return Number(order.total_cost);
    };
    expect(await handedOff(fresh)).toBe(fresh.stored.total);
    expect(await handedOff(withHistory)).toBeGreaterThan(withHistory.stored.total);
  });

  /** The data of a page's own POST (`/order.data`), decoded as Remix's client decodes it. */
  async function readAction(response: Response): Promise<any> {
    expect(response.headers.get("content-type")).toContain("text/x-script");
    const decoded = await decode(response.body!);
    await decoded.done;
    return (decoded.value as { data?: unknown }).data;
  }

  it("answers the page's own POST with the next page in one round trip, the toast inside it (ADR 035)", async () => {
    const browser = newBrowser();
    const email = `in-place-${Date.now()}@clinic.ru`;
    // Step 1 creates the order: the answer carries step 2 of it and the cookie that names it.
    const created = await browser.request("/order.data", { form: { intent: "next" } });
    expect(created.status).toBe(200);
    expect(created.headers.get("location")).toBeNull();
    const first = await readAction(created);
    expect(first.inPlace.page.step).toBe(2);
    const order = await t.db.selectFrom("orders").selectAll().where("id", "=", first.inPlace.page.order.id).executeTakeFirstOrThrow();
    expect(order.wizard_step).toBe(2);
    // The same browser's next page, asked for plainly, is that order's step 2.
    expect(await (await browser.request("/order")).text()).toContain("Шаг 2 из 11");

    const contacts = await readAction(await browser.request("/order.data", { form: { intent: "next", email, phone: "+7 900 000-00-02" } }));
    expect(contacts.inPlace.page.step).toBe(3);
    expect(contacts.inPlace.page.order.email).toBe(email);
    expect(contacts.inPlace.toast).toBeNull();

    // A refused step is answered as every form is (ADR 053): 400, the messages at their fields, nothing moved.
    const refused = await browser.request("/order.data", { form: { intent: "next", full_name: "", address: "" } });
    expect(refused.status).toBe(400);
    const errors = await readAction(refused);
    expect(errors.inPlace).toBeUndefined();
    expect(Object.keys(errors.error)).toEqual(expect.arrayContaining(["full_name", "address"]));
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step).toBe(3);

    await browser.request("/order.data", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } });
    const added = await browser.request("/order.data", { form: { intent: "add_patient", patient_name: "Смирнова Е." } });
    const withPatient = await readAction(added);
    expect(withPatient.inPlace.page.patients.map((patient: { name: string }) => patient.name)).toEqual(["Смирнова Е."]);
    // The toast the redirect would have left in a cookie is in the answer, and no cookie keeps it for a later page.
    expect(withPatient.inPlace.toast).toMatchObject({ type: "success" });
    expect(added.headers.getSetCookie().some((cookie) => cookie.startsWith("toast="))).toBe(false);
    expect(await (await browser.request("/order")).text()).not.toContain("добавлен в заказ");

    await browser.request("/order.data", { form: { intent: "next" } });
    const skipped = await readAction(await browser.request("/order.data", { form: { intent: "skip_matrix" } }));
    expect(skipped.inPlace.page.step).toBe(7);
    expect(skipped.inPlace.toast).toMatchObject({ title: "wizard.toasts.skippedTitle", description: "wizard.toasts.skippedMatrix" });
  });

  it("refuses a page's own POST naming another browser's order, and changes nothing of it", async () => {
    const owner = newBrowser();
    const order = await toMatrixStep(owner);
    const stranger = newBrowser();
    const answer = await stranger.request(`/order.data?id=${order.id}`, { form: { intent: "back" } });
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain(order.email!);
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step).toBe(5);
  });
});
