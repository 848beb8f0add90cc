import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { binaryStl } from "../../support/stl-models";
import { toMatrixStep } from "../../support/wizard-walk";
import { SECRETS, type TestApp, startApp } from "../../support/app";

/**
 * A step's files are filed under the step their form was sent from (ADR 057): a form of a step the
 * order has left — sent late, from another tab, or forged — stores nothing and says why (409), in
 * the reader's language; the same form on the order's own step stores its files.
 */
describe("uploads bound to their step", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  const uploadForm = (step: number) => {
    const form = new FormData();
    form.append("step", String(step));
    form.append("intent", "upload");
    form.append("files", new Blob([new Uint8Array(binaryStl(30))]), "upper.stl");
    return form;
  };
  const post = (browser: ReturnType<typeof browserFetch>, form: FormData) =>
    fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
  const filesOf = async (patientId: string) => {
    const row = await t.db.selectFrom("orders_patients").select(["matrix_files_info", "aligner_files_info"]).where("id", "=", patientId).executeTakeFirstOrThrow();
    return { matrix: (row.matrix_files_info as unknown[]).length, aligners: (row.aligner_files_info as unknown[]).length };
  };

  it("a matrix step's form sent after the order moved on to the aligners stores nothing and answers 409", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    expect((await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } })).status).toBe(302);
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step).toBe(7);

    const late = await post(browser, uploadForm(5));
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Шаг заказа уже сменился");
    expect(await filesOf(patient.id)).toEqual({ matrix: 0, aligners: 0 });
    const folder = path.join(app.dataDir, "storage", "orders", `order_${order.id}`);
    expect(fs.existsSync(folder) ? fs.readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith(".stl")) : []).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", order.id).execute()).toEqual([]);

    // The same files sent from the order's own step are stored there.
    const own = await post(browser, uploadForm(7));
    expect(own.status).toBe(302);
    expect(await filesOf(patient.id)).toEqual({ matrix: 0, aligners: 1 });
  });

  it("each file's jaw and step: prefilled from its name, a name without them must be confirmed before payment, and the bag labels print what was declared", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    const form = new FormData();
    form.append("step", "7");
    form.append("intent", "upload");
    // One name that says both, one that says neither (the specification's rule printed "ВЧ" for it).
    form.append("files", new Blob([new Uint8Array(binaryStl(30))]), "Шаг 03 нижняя.stl");
    form.append("files", new Blob([new Uint8Array(binaryStl(30))]), "scan.stl");
    expect((await post(browser, form)).status).toBe(302);
    const listed = async () =>
      ((await t.db.selectFrom("orders_patients").select("aligner_files_info").where("id", "=", patient.id).executeTakeFirstOrThrow()).aligner_files_info as Array<{ originalName: string; storagePath: string; jaw: string | null; stepNumber: number | null; confirmed: boolean }>).map(
        ({ originalName, storagePath, jaw, stepNumber, confirmed }) => ({ originalName, storagePath, jaw, stepNumber, confirmed }),
      );
    const [named, unnamed] = await listed();
    expect(named).toMatchObject({ originalName: "Шаг 03 нижняя.stl", jaw: "lower", stepNumber: 3, confirmed: true });
    expect(unnamed).toMatchObject({ originalName: "scan.stl", jaw: null, stepNumber: null, confirmed: false });

    // The step shows both, the unnamed one marked.
    const page = await (await browser.request("/order")).text();
    expect(page).toContain("Укажите челюсть и шаг");

    // Material and cut chosen, the order goes to payment: refused until the file is declared.
    await browser.request("/order", { form: { intent: "next", step: "7", file_path: named!.storagePath, file_jaw: "lower", file_step: "3" } });
    await browser.request("/order", { form: { intent: "next", step: "8", material_type: "single_layer" } });
    await browser.request("/order", { form: { intent: "next", step: "9", cut_type: "wavy" } });
    await browser.request("/order", { form: { intent: "skip_retainers", step: "10" } });
    const refused = await browser.request("/order", { form: { intent: "pay" } });
    expect(refused.status).toBe(302);
    expect((await t.db.selectFrom("orders").select(["wizard_step", "status"]).where("id", "=", order.id).executeTakeFirstOrThrow())).toEqual({ wizard_step: 7, status: "draft" });
    expect(await (await browser.request("/order")).text()).toContain("Укажите челюсть и номер шага для каждого файла");

    // Declared on the step's form (as its fields are sent with any button), the order can be paid.
    const declare = new URLSearchParams([
      ["intent", "next"],
      ["step", "7"],
      ["file_path", named!.storagePath],
      ["file_jaw", "lower"],
      ["file_step", "3"],
      ["file_path", unnamed!.storagePath],
      ["file_jaw", "upper"],
      ["file_step", "12"],
    ]);
    const declared = await fetch(`${app.url}/order`, { method: "POST", body: declare, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
    expect(declared.status).toBe(302);
    expect((await listed())[1]).toMatchObject({ jaw: "upper", stepNumber: 12, confirmed: true });
    await t.db.updateTable("orders").set({ wizard_step: 11 }).where("id", "=", order.id).execute();
    expect((await browser.request("/order", { form: { intent: "pay" } })).headers.get("location")).not.toBe("/order");

    // The packer's labels print the declared jaws and steps.
    const packer = browserFetch(app);
    await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
    const labels = await (await packer.request(`/packer/bags/${order.id}`)).text();
    const text = labels.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toMatch(/НЧ Шаг 03/);
    expect(text).toMatch(/ВЧ Шаг 12/);
  });

  it("skipping a step that holds files asks once, and skips when asked again", async () => {
    const browser = browserFetch(app);
    const { order } = await toMatrixStep(t, browser);
    expect((await post(browser, uploadForm(5))).status).toBe(302);
    const asked = await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    expect(asked.status).toBe(400);
    const page = await asked.text();
    expect(page).toContain("На этом шаге уже есть файлы. Если пропустить шаг, они не войдут в заказ.");
    // The page sends the next "Пропустить" confirmed.
    expect(page).toMatch(/name="confirm_skip" value="yes"/);
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step).toBe(5);
    const skipped = await browser.request("/order", { form: { intent: "skip_matrix", step: "5", confirm_skip: "yes" } });
    expect(skipped.status).toBe(302);
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step).toBe(7);
  });

  it("a skipped step the doctor comes back to and gives files goes on as not skipped: its choice is asked and its files billed", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const stepOf = async () => (await t.db.selectFrom("orders").select("wizard_step").where("id", "=", order.id).executeTakeFirstOrThrow()).wizard_step;
    const skipMatrix = async () => (await t.db.selectFrom("orders_patients").select("skip_matrix").where("id", "=", patient.id).executeTakeFirstOrThrow()).skip_matrix;
    await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    expect([await stepOf(), await skipMatrix()]).toEqual([7, true]);
    // Back from the aligners passes over the matrix type to the matrix upload.
    await browser.request("/order", { form: { intent: "back", step: "7" } });
    expect(await stepOf()).toBe(5);
    // A file, then "next": the matrix type is asked, and the matrix counts again.
    const form = uploadForm(5);
    form.set("intent", "next");
    expect((await post(browser, form)).status).toBe(302);
    expect([await stepOf(), await skipMatrix()]).toEqual([6, false]);
  });

  it("the summary's 'изменить' opens a step, for its patient, and the step's 'next' leads back to the summary; a forged one opens nothing", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const state = async () => await t.db.selectFrom("orders").select(["wizard_step", "wizard_returns", "current_patient_id"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    const form = uploadForm(5);
    form.set("intent", "next");
    await post(browser, form);
    await browser.request("/order", { form: { intent: "next", step: "6", matrix_type: "hard" } });
    await browser.request("/order", { form: { intent: "skip_aligners", step: "7" } });
    await browser.request("/order", { form: { intent: "skip_retainers", step: "10" } });
    const summary = await (await browser.request("/order")).text();
    expect((await state()).wizard_step).toBe(11);
    expect(summary).toContain('value="change:contacts"');
    expect(summary).toContain(`value="change:matrix:${patient.id}"`);
    // Each file with the jaw (and step) its bag label prints.
    expect(summary.replace(/<!-- -->/g, "")).toContain("upper.stl — Верхняя (ВЧ)");

    // The contacts: the step says where it leads, and goes back to the summary.
    await browser.request("/order", { form: { intent: "change:contacts", step: "11" } });
    expect(await state()).toMatchObject({ wizard_step: 2, wizard_returns: true });
    expect(await (await browser.request("/order")).text()).toContain("Сохранить и вернуться к сводке");
    await browser.request("/order", { form: { intent: "next", step: "2", email: "changed@clinic.ru", phone: "+7 900 000-00-02" } });
    expect(await state()).toMatchObject({ wizard_step: 11, wizard_returns: false });
    expect((await t.db.selectFrom("orders").select("email").where("id", "=", order.id).executeTakeFirstOrThrow()).email).toBe("changed@clinic.ru");

    // The matrix: its files, then its type, then the summary.
    await browser.request("/order", { form: { intent: `change:matrix:${patient.id}`, step: "11" } });
    expect(await state()).toMatchObject({ wizard_step: 5, wizard_returns: true, current_patient_id: patient.id });
    await browser.request("/order", { form: { intent: "next", step: "5" } });
    expect(await state()).toMatchObject({ wizard_step: 6, wizard_returns: true });
    await browser.request("/order", { form: { intent: "next", step: "6", matrix_type: "soft" } });
    expect(await state()).toMatchObject({ wizard_step: 11, wizard_returns: false });

    // "Назад" on an opened step ends the way back: the wizard goes on as usual.
    await browser.request("/order", { form: { intent: "change:delivery", step: "11" } });
    await browser.request("/order", { form: { intent: "back", step: "3" } });
    expect(await state()).toMatchObject({ wizard_step: 2, wizard_returns: false });
    await browser.request("/order", { form: { intent: "next", step: "2", email: "changed@clinic.ru", phone: "+7 900 000-00-02" } });
    expect((await state()).wizard_step).toBe(3);
    await t.db.updateTable("orders").set({ wizard_step: 11 }).where("id", "=", order.id).execute();

    // Forged: the summary itself, a step the table does not have, another order's patient.
    const other = await toMatrixStep(t, browserFetch(app));
    for (const intent of ["change:summary", "change:info", "change:nowhere", `change:matrix:${other.patient.id}`, "change:matrix"]) {
      expect((await browser.request("/order", { form: { intent, step: "11" } })).status).toBe(302);
      expect(await state(), intent).toMatchObject({ wizard_step: 11, wizard_returns: false, current_patient_id: patient.id });
    }
  });
});
