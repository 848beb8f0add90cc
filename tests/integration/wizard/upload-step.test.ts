import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { binaryStl } from "../../support/stl-models";
import { toMatrixStep } from "../../support/wizard-walk";
import { type TestApp, startApp } from "../../support/app";

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
});
