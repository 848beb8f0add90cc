import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch, type AppServer, startAppServer } from "../../support/app-server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startedUpload as startedUploadOf, tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { largeStl } from "../../support/stl-models";

/**
 * Uploads go on while the doctor goes on (ADR 054), the server's side: an upload step moves on with
 * files chosen and on their way (the form names their tus uploads), never on another order's or
 * patient's upload, a skip with the step's upload on its way asks first, and payment refuses an
 * order while a passed upload step has no stored file.
 */

const SECRETS = { SESSION_SECRET: "background-test-session-secret-0123456789", BACKOFFICE_PASSWORD: "office", PACKER_PASSWORD: "packer", CRON_SECRET: "cron" };

describe("an upload step with files still going up", () => {
  let t: TestDatabase;
  let app: AppServer;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    app = await startAppServer({ DATABASE_URL: t.url, ...SECRETS });
  });
  afterAll(async () => {
    await app?.stop();
    await t?.drop();
  });

  type Browser = ReturnType<typeof browserFetch>;
  const startedUpload = (browser: Browser, metadata: Record<string, string>) => startedUploadOf({ base: app.url, cookie: browser.jar.header() }, metadata as never);
  const walkFromAligners = async (browser: Browser) => {
    await browser.request("/order", { form: { intent: "next", step: "7" } });
    await browser.request("/order", { form: { intent: "next", step: "8", material_type: "single_layer" } });
    await browser.request("/order", { form: { intent: "next", step: "9", cut_type: "wavy" } });
    await browser.request("/order", { form: { intent: "skip_retainers", step: "10" } });
  };
  const stepOf = async (orderId: string) => (await t.db.selectFrom("orders").select("wizard_step").where("id", "=", orderId).executeTakeFirstOrThrow()).wizard_step;

  it("moves on when the form names the step's upload on its way, not on another's; payment waits for the file to be stored", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const other = browserFetch(app);
    const elsewhere = await toMatrixStep(t, other);

    // Nothing chosen: refused as before.
    expect((await browser.request("/order", { form: { intent: "next", step: "5" } })).status).toBe(400);
    // Another order's upload, or this order's upload of another kind, is not this step's.
    const foreign = await startedUpload(other, { filename: "a.stl", orderId: elsewhere.order.id, patientId: elsewhere.patient.id, type: "matrix" });
    const aligner = await startedUpload(browser, { filename: "b.stl", orderId: order.id, patientId: patient.id, type: "aligners" });
    const forged = `tus-${order.id}-${"0".repeat(32)}`;
    for (const id of [foreign, aligner, forged]) expect((await browser.request("/order", { form: { intent: "next", step: "5", in_flight: id } })).status).toBe(400);
    expect(await stepOf(order.id)).toBe(5);

    // The matrix on its way: the step moves on.
    const matrix = await startedUpload(browser, { filename: "c.stl", orderId: order.id, patientId: patient.id, type: "matrix" });
    expect((await browser.request("/order", { form: { intent: "next", step: "5", in_flight: matrix } })).status).toBe(302);
    expect(await stepOf(order.id)).toBe(6);
    await browser.request("/order", { form: { intent: "next", step: "6", matrix_type: "hard" } });
    // The aligners are stored: the patient has files, but not the matrix its step was passed for.
    const aligners = await tusUpload({ base: app.url, origin: app.url, cookie: browser.jar.header(), file: largeStl(1), metadata: { filename: "e-upper-01.stl", orderId: order.id, patientId: patient.id, type: "aligners" } as never });
    expect(aligners.ok).toBe(true);
    await walkFromAligners(browser);
    expect(await stepOf(order.id)).toBe(11);

    // Payment refuses while the matrix is not stored, and sends the doctor to its step.
    const refused = await browser.request("/order", { form: { intent: "pay" } });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/order");
    expect(await stepOf(order.id)).toBe(5);
    expect((await t.db.selectFrom("payments").select("id").where("order_id", "=", order.id).execute()).length).toBe(0);

    // Once a matrix is stored, the order can be paid.
    const stored = await tusUpload({ base: app.url, origin: app.url, cookie: browser.jar.header(), file: largeStl(1), metadata: { filename: "d-upper.stl", orderId: order.id, patientId: patient.id, type: "matrix" } as never });
    expect(stored.ok).toBe(true);
    await browser.request("/order", { form: { intent: "next", step: "5" } });
    await browser.request("/order", { form: { intent: "next", step: "6", matrix_type: "hard" } });
    await walkFromAligners(browser);
    expect(await stepOf(order.id)).toBe(11);
    const paid = await browser.request("/order", { form: { intent: "pay" } });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).not.toBe("/order");
  });

  it("a skip sent while the step's file is on its way asks first, and skips when asked again (the page also holds step 10's skip meanwhile)", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    await browser.request("/order", { form: { intent: "skip_aligners", step: "7" } });
    expect(await stepOf(order.id)).toBe(10);
    const retainer = await startedUpload(browser, { filename: "r-upper.stl", orderId: order.id, patientId: patient.id, type: "retainer" });
    const asked = await browser.request("/order", { form: { intent: "skip_retainers", step: "10", in_flight: retainer } });
    expect(asked.status).toBe(400);
    expect(await asked.text()).toContain("На этом шаге уже есть файлы.");
    expect(await stepOf(order.id)).toBe(10);
    expect((await browser.request("/order", { form: { intent: "skip_retainers", step: "10", in_flight: retainer, confirm_skip: "yes" } })).status).toBe(302);
    expect(await stepOf(order.id)).toBe(11);
  });

  it("a step the doctor skipped and left takes no new upload (409, nothing stored); back on that step it does", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    await browser.request("/order", { form: { intent: "skip_matrix", step: "5" } });
    expect(await stepOf(order.id)).toBe(7);
    const upload = () => tusUpload({ base: app.url, origin: app.url, cookie: browser.jar.header(), file: largeStl(1), metadata: { filename: "late-upper.stl", orderId: order.id, patientId: patient.id, type: "matrix" } as never });
    const late = await upload();
    expect(late.ok).toBe(false);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ ok: false, error: "skipped" });
    const matrices = async () => ((await t.db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patient.id).executeTakeFirstOrThrow()).matrix_files_info as unknown[]).length;
    expect(await matrices()).toBe(0);
    // Back on the matrix step, the doctor's files are taken.
    await browser.request("/order", { form: { intent: "back", step: "7" } });
    expect(await stepOf(order.id)).toBe(5);
    expect((await upload()).ok).toBe(true);
    expect(await matrices()).toBe(1);
  });
});
