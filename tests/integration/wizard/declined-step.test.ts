import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo } from "~db/schema";
import { claimDueEntries } from "~/modules/orders/production-queue.server";
import { entrySendable } from "~/modules/orders/production-queue.server";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { binaryStl, largeStl } from "../../support/stl-models";
import { startedUpload, tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { SECRETS, type TestApp, startApp } from "../../support/app";

/**
 * A declined step stays declined (ADR 087): a confirmed skip sets the step's files aside — kept,
 * listed as not in the order, not billed, not checked before payment, not labelled, packed or sent —
 * and only "Вернуть в заказ" or a file uploaded on that step after the skip brings the step back,
 * which the summary then says. What stops payment is named on the summary with its way there and
 * back; the consent stays while the delivery step is edited; an order left at the checkout is offered
 * again by `/order` and the landing.
 */
describe("a declined step", () => {
  let t: TestDatabase;
  let app: TestApp;
  type Browser = ReturnType<typeof browserFetch>;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  const withFiles = (step: number, intent: string, names: string[]) => {
    const form = new FormData();
    form.append("step", String(step));
    form.append("intent", intent);
    for (const name of names) form.append("files", new Blob([new Uint8Array(binaryStl(30))]), name);
    return form;
  };
  const post = (browser: Browser, body: FormData | URLSearchParams) => fetch(`${app.url}/order`, { method: "POST", body, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
  const patientRow = (id: string) => t.db.selectFrom("orders_patients").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const retainers = async (id: string) => (await patientRow(id)).retainer_files_info as unknown as Array<FileInfo>;
  const orderRow = (id: string) => t.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const page = async (browser: Browser, url = "/order") => (await (await browser.request(url)).text()).replace(/<!-- -->/g, "");
  /** What a page says, without its markup. */
  const said = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").replace(/ ([:,.])/g, "$1");

  /** One hard matrix named with its jaw; the aligners skipped; at step 10 a retainer whose name gives no jaw. */
  async function toRetainers(browser: Browser) {
    const walked = await toMatrixStep(t, browser);
    expect((await post(browser, withFiles(5, "next", ["m-upper.stl"]))).status).toBe(302);
    await browser.request("/order", { form: { intent: "next", step: "6", matrix_type: "hard" } });
    await browser.request("/order", { form: { intent: "skip_aligners", step: "7" } });
    expect((await post(browser, withFiles(10, "upload", ["scan.stl"]))).status).toBe(302);
    expect(await retainers(walked.patient.id)).toMatchObject([{ originalName: "scan.stl", confirmed: false }]);
    return walked;
  }

  /** "Пропустить", asked, then confirmed: the summary. */
  async function skipRetainers(browser: Browser, orderId: string) {
    expect((await browser.request("/order", { form: { intent: "skip_retainers", step: "10" } })).status).toBe(400);
    expect((await browser.request("/order", { form: { intent: "skip_retainers", step: "10", confirm_skip: "yes" } })).status).toBe(302);
    expect((await orderRow(orderId)).wizard_step).toBe(11);
  }

  it("a confirmed skip sets the step's files aside: listed as not in the order, not billed, nothing of them stops payment, and none is labelled or sent", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toRetainers(browser);
    await skipRetainers(browser, order.id);

    // Kept on the list and in storage, marked set aside; its queue entry held.
    const [file] = await retainers(patient.id);
    expect(file).toMatchObject({ originalName: "scan.stl", setAside: true });
    const entries = await t.db.selectFrom("ftp_uploads_queue").select(["id", "file_type", "set_aside_at", "status"]).where("order_id", "=", order.id).execute();
    expect(entries.find((entry) => entry.file_type === "retainer")!.set_aside_at).not.toBeNull();
    expect(entries.find((entry) => entry.file_type === "matrix")!.set_aside_at).toBeNull();
    expect((await t.db.selectFrom("orders_patients").select("skip_retainers_at").where("id", "=", patient.id).executeTakeFirstOrThrow()).skip_retainers_at).not.toBeNull();

    // The summary lists it as not in the order, with the way back, and names nothing still to do.
    const summary = await page(browser);
    expect(summary).toContain("Ретейнеры: пропущено");
    expect(said(summary)).toContain("Не входят в заказ (отложены при пропуске), файлов: 1: scan.stl");
    expect(summary).toContain(`value="unskip:retainer:${patient.id}"`);
    expect(summary).not.toContain("Перед оплатой осталось");
    expect(summary).not.toContain("Ретейнеры для");

    // Payment goes through, and bills only the matrix.
    const pay = await browser.request("/order", { form: { intent: "pay" } });
    expect(pay.status).toBe(302);
    expect(pay.headers.get("location")).toMatch(/\/payment\/sandbox\/sbx_/);
    expect((await orderRow(order.id)).status).toBe("pending");
    const [attempt] = await t.db.selectFrom("payments").select("lines").where("order_id", "=", order.id).execute();
    const lines = (typeof attempt!.lines === "string" ? JSON.parse(attempt!.lines) : attempt!.lines) as Array<{ description: string }>;
    expect(lines.map((line) => line.description).join("\n")).toMatch(/Матрицы твердые для Смирнова Е\./);
    expect(lines.map((line) => line.description).join("\n")).not.toMatch(/Ретейнер/);

    // Paid: the matrix is due for the factory, the retainer never (not by the workers, not by staff's "send now").
    await t.db.updateTable("orders").set({ status: "paid", paid_at: new Date() }).where("id", "=", order.id).execute();
    const claimed = await claimDueEntries(t.db, "declined-test", 50, { leaseSeconds: 30, maxAttempts: 3 });
    const retainerEntry = entries.find((entry) => entry.file_type === "retainer")!;
    expect(claimed.map((entry) => entry.id)).toContain(entries.find((entry) => entry.file_type === "matrix")!.id);
    expect(claimed.map((entry) => entry.id)).not.toContain(retainerEntry.id);
    expect(await entrySendable(t.db, retainerEntry.id)).toBe("not_due");

    // The packer's card and the bag labels show the matrix only.
    const packer = browserFetch(app);
    await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
    const labels = await (await packer.request(`/packer/bags/${order.id}`)).text();
    expect(labels).toContain("m-upper.stl");
    expect(labels).not.toContain("scan.stl");
    const cards = await (await packer.request(`/packer?view=all&q=${order.code}`)).text();
    expect(cards).toContain("m-upper.stl");
    expect(cards).not.toContain("scan.stl");
  });

  it("only 'Вернуть в заказ' brings the files back: 'Далее' on the skipped step keeps them aside; once restored the summary says so and names the file to declare, and its link goes there and back", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toRetainers(browser);
    await skipRetainers(browser, order.id);

    // Opened from the summary and passed with "Далее", as the old refusal asked: still declined.
    await browser.request("/order", { form: { intent: `change:retainers:${patient.id}`, step: "11" } });
    expect(await page(browser)).toContain("Не входят в заказ: 1");
    await browser.request("/order", { form: { intent: "next", step: "10" } });
    expect(await orderRow(order.id)).toMatchObject({ wizard_step: 11, wizard_returns: false });
    expect(await patientRow(patient.id)).toMatchObject({ skip_retainers: true });
    expect((await retainers(patient.id))[0]).toMatchObject({ setAside: true });

    // "Вернуть в заказ": the file is in the order again, its queue entry due with the order.
    const restored = await browser.request("/order", { form: { intent: `unskip:retainer:${patient.id}`, step: "11" } });
    expect(restored.status).toBe(302);
    expect(await patientRow(patient.id)).toMatchObject({ skip_retainers: false, skip_retainers_at: null });
    expect((await patientRow(patient.id)).unskip_retainers_at).not.toBeNull();
    expect((await retainers(patient.id))[0]!.setAside).toBeUndefined();
    expect((await t.db.selectFrom("ftp_uploads_queue").select("set_aside_at").where("order_id", "=", order.id).where("file_type", "=", "retainer").executeTakeFirstOrThrow()).set_aside_at).toBeNull();

    // The summary says the step came back, bills it, and names the file still to declare, with its way there.
    const summary = await page(browser);
    expect(summary).toContain("Ретейнеры: шаг был пропущен и снова в заказе — проверьте файлы и сумму перед оплатой");
    expect(summary).toContain("Ретейнеры для Смирнова Е.");
    expect(summary).toContain("Перед оплатой осталось");
    expect(said(summary)).toContain("Смирнова Е.: Укажите челюсть и номер шага для каждого файла, отмеченного «Укажите челюсть и шаг» Файлы: scan.stl");
    expect(summary).toContain(`value="change:retainers:${patient.id}"`);

    // Payment refused: back on the step, with the file named, and its button leads back to the summary.
    const refused = await browser.request("/order", { form: { intent: "pay" } });
    expect(refused.headers.get("location")).toBe("/order");
    expect(await orderRow(order.id)).toMatchObject({ status: "draft", wizard_step: 10, wizard_returns: true, current_patient_id: patient.id });
    const step = await page(browser);
    expect(step).toContain("Заказ не заполнен");
    expect(step).toContain("Файлы: scan.stl");
    expect(step).toContain("Сохранить и вернуться к сводке");
    const [file] = await retainers(patient.id);
    const declared = new URLSearchParams([
      ["intent", "next"],
      ["step", "10"],
      ["file_path", file!.storagePath],
      ["file_jaw", "upper"],
      ["file_step", ""],
    ]);
    expect((await post(browser, declared)).status).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({ wizard_step: 11, wizard_returns: false });
    expect(await page(browser)).not.toContain("Перед оплатой осталось");
    expect((await browser.request("/order", { form: { intent: "pay" } })).headers.get("location")).toMatch(/\/payment\/sandbox\/sbx_/);
  });

  it("an upload started before the confirmed skip lands set aside; one started on the step after it brings the step back, the earlier files still aside", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    await browser.request("/order", { form: { intent: "skip_aligners", step: "7" } });
    const upload = (filename: string, uploadUrl?: string) =>
      tusUpload({ base: app.url, origin: app.url, cookie: browser.jar.header(), file: largeStl(7), uploadUrl, metadata: { filename, orderId: order.id, patientId: patient.id, type: "retainer" } });
    // On its way when the skip is confirmed, stored after it.
    const early = await startedUpload({ base: app.url, cookie: browser.jar.header() }, { filename: "early-upper.stl", orderId: order.id, patientId: patient.id, type: "retainer" });
    expect((await browser.request("/order", { form: { intent: "skip_retainers", step: "10", in_flight: early, confirm_skip: "yes" } })).status).toBe(302);
    expect((await upload("early-upper.stl", `${app.url}/uploads/tus/${early}`)).ok).toBe(true);
    expect(await patientRow(patient.id)).toMatchObject({ skip_retainers: true, unskip_retainers_at: null });
    expect(await retainers(patient.id)).toMatchObject([{ originalName: "early-upper.stl", setAside: true }]);
    expect((await t.db.selectFrom("ftp_uploads_queue").select("set_aside_at").where("order_id", "=", order.id).executeTakeFirstOrThrow()).set_aside_at).not.toBeNull();

    // Back on the step, a new file: the step is in the order again, the declined file still aside.
    await browser.request("/order", { form: { intent: `change:retainers:${patient.id}`, step: "11" } });
    expect((await upload("late-upper.stl")).ok).toBe(true);
    expect(await patientRow(patient.id)).toMatchObject({ skip_retainers: false });
    expect((await patientRow(patient.id)).unskip_retainers_at).not.toBeNull();
    expect((await retainers(patient.id)).map(({ originalName, setAside }) => ({ originalName, setAside }))).toEqual([
      { originalName: "early-upper.stl", setAside: true },
      { originalName: "late-upper.stl", setAside: undefined },
    ]);
    await browser.request("/order", { form: { intent: "next", step: "10" } });
    const summary = await page(browser);
    expect(summary).toContain("Ретейнеры: шаг был пропущен и снова в заказе");
    expect(summary).toContain("Ретейнеры для Смирнова Е.");
    expect(said(summary)).toContain("Не входят в заказ (отложены при пропуске), файлов: 1: early-upper.stl");
  });

  it("the consent stays ticked while the delivery step is opened again from the summary, and goes when unticked", async () => {
    const browser = browserFetch(app);
    const { order } = await toRetainers(browser);
    expect((await orderRow(order.id)).data_consent_at).not.toBeNull();
    await skipRetainers(browser, order.id);
    await browser.request("/order", { form: { intent: "change:delivery", step: "11" } });
    const step = await page(browser);
    expect(step).toMatch(/<input[^>]*name="consent"[^>]*checked=""/);
    expect(step).toContain("Сохранить и вернуться к сводке");
    // Sent as the page sends it (the box still ticked), the summary again.
    await browser.request("/order", { form: { intent: "next", step: "3", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 2", consent: "on" } });
    expect(await orderRow(order.id)).toMatchObject({ wizard_step: 11, address: "Москва, ул. Ленина, 2" });
    // Unticked: refused, and no longer given.
    await browser.request("/order", { form: { intent: "change:delivery", step: "11" } });
    expect((await browser.request("/order", { form: { intent: "next", step: "3", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 2" } })).status).toBe(400);
    expect((await orderRow(order.id)).data_consent_at).toBeNull();
    expect(await page(browser)).not.toMatch(/<input[^>]*name="consent"[^>]*checked=""/);
  });

  it("an order left at the checkout is offered by /order and the landing of the browser that made it, to pay or open; nobody else's", async () => {
    const browser = browserFetch(app);
    const { order } = await toRetainers(browser);
    await skipRetainers(browser, order.id);
    expect((await browser.request("/order", { form: { intent: "pay" } })).headers.get("location")).toMatch(/\/payment\/sandbox\//);
    expect(browser.jar.has("current_order")).toBe(false);

    const number = order.id.slice(0, 6).toUpperCase();
    const wizard = await page(browser);
    expect(wizard).toContain(`Заказ ${number} ожидает оплаты`);
    expect(wizard).toContain(`href="/pay/${order.id}"`);
    expect(wizard).toContain(`href="/order?id=${order.id}"`);
    expect(wizard).toContain("Чтобы начать новый заказ, нажмите «Далее».");
    const landing = await browser.request("/");
    expect(landing.headers.get("cache-control") ?? "").not.toMatch(/public/);
    expect(await landing.text()).toContain(`href="/pay/${order.id}"`);
    // "Открыть" makes it the wizard's order again: its summary.
    const opened = await page(browser, `/order?id=${order.id}`);
    expect(opened).toContain("Заказ ожидает оплаты.");

    // A draft the doctor cleared with "Сбросить заказ" is offered to continue.
    const cleared = browserFetch(app);
    const draft = await toMatrixStep(t, cleared);
    expect((await cleared.request("/order/new", { form: { reason: "clear" } })).status).toBe(302);
    const fresh = await page(cleared);
    expect(fresh).toContain(`Заказ ${draft.order.id.slice(0, 6).toUpperCase()} не оформлен до конца`);
    expect(fresh).toContain(`href="/order?id=${draft.order.id}"`);
    expect(fresh).not.toContain("/pay/");

    const stranger = browserFetch(app);
    expect(await page(stranger)).not.toContain("ожидает оплаты");
    expect(await page(stranger, "/")).not.toContain("/pay/");
  });
});
