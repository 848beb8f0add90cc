import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo } from "~db/schema";
import { buildOrder, buildOrderIn } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { binaryStl } from "../../support/stl-models";
import { type TestApp, startApp } from "../../support/app";
import { type Browser, follow, rendered, signedInAs } from "../backoffice/support";

/**
 * "Заказать снова" over HTTP (ADR 071): a clinic's patient of a past order starts a new order with
 * contacts, delivery, the patient and the choices filled in and the chosen files copied by the
 * storage — bytes identical, jaw and step kept, counted in the order's cap (ORDER_MAX_FILES is 2
 * here) — and the wizard opens where the doctor is needed. Another clinic's order, patient or file
 * is refused and changes nothing.
 */
const CLINIC = "dr.again@klinika-snova.test";
const OTHER = "dr.other@klinika-drugaya.test";

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("ordering again from a patient", () => {
  let app: TestApp;
  let t: TestDatabase;
  let clinic: Browser;
  let other: Browser;
  const stored = (key: string) => path.join(app.dataDir, "storage", "orders", ...key.split("/"));

  /** A paid order of `email` with one patient whose files are stored: three aligners and a retainer, declared. */
  async function pastOrder(email: string) {
    const order = await buildOrderIn(t.db, "paid", { email, fullName: "Снова Светлана Сергеевна", phone: "+7 900 111-22-33", address: "Казань, ул. Баумана, 5" });
    await t.db.updateTable("orders").set({ delivery_comment: "Звонить за час" }).where("id", "=", order.id).execute();
    const folder = `${order.code}_1`;
    const file = (type: string, name: string, jaw: "upper" | "lower", step: number | null, triangles: number) => {
      const key = `order_${order.id}/${folder}/${type}/${name.replace(".stl", "")}_1700000000000.stl`;
      const bytes = binaryStl(triangles);
      fs.mkdirSync(path.dirname(stored(key)), { recursive: true });
      fs.writeFileSync(stored(key), bytes);
      const info: FileInfo = { originalName: name, storagePath: key, url: `/files/orders/${key}`, type: "model/stl", size: bytes.length, triangles, jaw, stepNumber: step, confirmed: true };
      return { info, hash: sha(bytes) };
    };
    // Names that say nothing of jaw or step: what the copies carry is the doctor's declaration.
    const aligners = [file("aligners", "scan-a.stl", "upper", 3, 5), file("aligners", "scan-b.stl", "lower", 3, 6), file("aligners", "scan-c.stl", "upper", 4, 7)];
    const retainer = file("retainer", "final.stl", "lower", null, 8);
    const patient = await t.db
      .insertInto("orders_patients")
      .values({
        order_id: order.id,
        patient_name: "Повторова Полина",
        folder_name: folder,
        material_type: "three_layer",
        cut_type: "straight",
        matrix_type: "hard",
        additional_comments: "Обрезка по десне",
        matrix_files_info: "[]",
        aligner_files_info: JSON.stringify(aligners.map((item) => item.info)),
        retainer_files_info: JSON.stringify([retainer.info]),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { order, patient, aligners, retainer };
  }

  const postAgain = (browser: Browser, orderId: string, patientId: string, entries: Array<[string, string]>) =>
    fetch(`${app.url}/cabinet/again/${orderId}/${patientId}`, {
      method: "POST",
      body: new URLSearchParams(entries),
      headers: { Cookie: browser.jar.header(), Origin: app.url },
      redirect: "manual",
    }).then((response) => (browser.jar.store(response), response));

  const ordersOf = async (email: string) => (await t.db.selectFrom("orders").select("id").where("email", "=", email).execute()).length;
  const storedFiles = () => (fs.readdirSync(path.join(app.dataDir, "storage", "orders"), { recursive: true }) as string[]).filter((name) => name.endsWith(".stl")).sort();

  beforeAll(async () => {
    app = await startApp({ env: { ORDER_MAX_FILES: "2" } });
    t = app.database;
    clinic = await signedInAs(app, t.db, CLINIC);
    other = await signedInAs(app, t.db, OTHER);
    // The clinic's conditions: three-layer aligners at 6 000 ₽, 10 % off.
    await t.db.insertInto("client_settings").values({ email: CLINIC, aligner_three_layer_price: 600_000, discount_percentage: "10" }).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("replacement of two aligners: a new order with those two files copied byte for byte, jaw and step kept, opened on the aligners' step, priced by the clinic's conditions", async () => {
    const past = await pastOrder(CLINIC);
    const page = await clinic.request(`/cabinet/again/${past.order.id}/${past.patient.id}`);
    expect(page.status).toBe(200);
    const html = rendered(await page.text());
    expect(html).toContain("Заказать снова: Повторова Полина");
    for (const name of ["scan-a.stl", "scan-b.stl", "scan-c.stl", "final.stl"]) expect(html).toContain(name);

    const before = storedFiles().length;
    const chosen = [past.aligners[0]!, past.aligners[1]!];
    const response = await postAgain(clinic, past.order.id, past.patient.id, [["kind", "replacement"], ...chosen.map((file) => ["files", file.info.storagePath] as [string, string])]);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/order");

    const draft = await t.db.selectFrom("orders").selectAll().where("email", "=", CLINIC).where("status", "=", "draft").executeTakeFirstOrThrow();
    expect(draft).toMatchObject({ full_name: "Снова Светлана Сергеевна", phone: "+7 900 111-22-33", address: "Казань, ул. Баумана, 5", delivery_comment: "Звонить за час", wizard_step: 7, market: "domestic" });
    const patient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", draft.id).executeTakeFirstOrThrow();
    expect(patient).toMatchObject({ patient_name: "Повторова Полина", folder_name: `${draft.code}_1`, material_type: "three_layer", cut_type: "straight", matrix_type: "hard", additional_comments: "Обрезка по десне", skip_matrix: true, skip_aligners: false, skip_retainers: true });
    expect(draft.current_patient_id).toBe(patient.id);

    const copies = patient.aligner_files_info as unknown as FileInfo[];
    expect(copies.map((file) => [file.originalName, file.jaw, file.stepNumber, file.confirmed])).toEqual([
      ["scan-a.stl", "upper", 3, true],
      ["scan-b.stl", "lower", 3, true],
    ]);
    expect(patient.retainer_files_info).toEqual([]);
    copies.forEach((copy, index) => {
      expect(copy.storagePath.startsWith(`order_${draft.id}/${draft.code}_1/aligners/`)).toBe(true);
      expect(sha(fs.readFileSync(stored(copy.storagePath)))).toBe(chosen[index]!.hash);
      expect(copy.size).toBe(chosen[index]!.info.size);
    });
    // Two new objects, the originals untouched, and the copies counted in the order's cap as its queue entries.
    expect(storedFiles().length).toBe(before + 2);
    for (const file of past.aligners) expect(sha(fs.readFileSync(stored(file.info.storagePath)))).toBe(file.hash);
    const queue = await t.db.selectFrom("ftp_uploads_queue").select(["file_path", "file_size", "file_type"]).where("order_id", "=", draft.id).orderBy("file_path").execute();
    expect(queue.map((row) => [row.file_type, Number(row.file_size)])).toEqual(chosen.map((file) => ["aligners", file.info.size]).sort());

    // The wizard opens on the aligners' step with the copies listed, and the toast says where they came from.
    const wizard = rendered(await follow(clinic, response));
    expect(wizard).toContain("Новый заказ создан");
    expect(wizard).toContain("scan-a.stl");
    expect(wizard).toContain("scan-b.stl");
    expect(wizard).not.toContain("scan-c.stl");

    // Through the same steps to payment: material, cut, retainers (skipped), summary, pay.
    for (const step of ["7", "8", "9", "10"]) expect((await clinic.request("/order", { form: { intent: "next", step } })).status).toBe(302);
    expect((await t.db.selectFrom("orders").select("wizard_step").where("id", "=", draft.id).executeTakeFirstOrThrow()).wizard_step).toBe(11);
    const pay = await clinic.request("/order", { form: { intent: "pay", step: "11" } });
    expect(pay.status).toBe(302);
    expect(pay.headers.get("Location")).toMatch(/\/payment\/sandbox\//);
    const priced = await t.db.selectFrom("orders").select(["status", "total_cost"]).where("id", "=", draft.id).executeTakeFirstOrThrow();
    // 2 × 6 000 ₽ − 10 % + 1 500 ₽ delivery = 12 300 ₽.
    expect(priced).toEqual({ status: "pending", total_cost: 1_230_000 });
  });

  it("is offered on the order's own cabinet page, and its page states the minimum order with the totals to expect before the doctor confirms", async () => {
    const past = await pastOrder(OTHER);
    const orderPage = rendered(await (await other.request(`/cabinet/orders/${past.order.id}`)).text());
    expect(orderPage).toContain(`href="/cabinet/again/${past.order.id}/${past.patient.id}"`);
    expect(orderPage).toContain("Заказать снова");

    const html = rendered(await (await other.request(`/cabinet/again/${past.order.id}/${past.patient.id}`)).text());
    expect(html).toMatch(/Минимальная сумма заказа — 10\s000\s₽ вместе с доставкой/);
    // Base three-layer aligners, not a new customer: 2 × 1 000 + 1 500 delivery = 3 500 → 10 000 ₽, 6 500 ₽ of it the fee.
    expect(html).toMatch(/Элайнеры, 2 шт\.: итог 10\s000\s₽, из них сервисный сбор 6\s500\s₽\./);
    // 8 × 1 000 + 1 500 = 9 500 is still topped up; 9 aligners pass the minimum.
    expect(html).toMatch(/Если элайнеров не больше 8, итог — 10\s000\s₽\./);
    // The statement comes before the button that confirms.
    expect(html.indexOf("Минимальная сумма заказа")).toBeLessThan(html.indexOf("Продолжить оформление"));

    // The clinic's own conditions price the estimate: 2 × 6 000 = 12 000 − 10 % = 10 800 + 1 500 = 12 300 ₽, no fee.
    const mine = await pastOrder(CLINIC);
    const priced = rendered(await (await clinic.request(`/cabinet/again/${mine.order.id}/${mine.patient.id}`)).text());
    expect(priced).toMatch(/Элайнеры, 2 шт\.: итог 12\s300\s₽\./);
    // One aligner (6 000 − 600 + 1 500 = 6 900 ₽) is still topped up to the minimum.
    expect(priced).toMatch(/Если элайнеров не больше 1, итог — 10\s000\s₽\./);
  });

  it("a retainer copies the chosen model into the retainers; a new stage copies nothing and opens on the scans", async () => {
    const past = await pastOrder(CLINIC);
    const retainer = await postAgain(clinic, past.order.id, past.patient.id, [["kind", "retainer"], ["files", past.aligners[2]!.info.storagePath]]);
    expect(retainer.status).toBe(302);
    const draft = await t.db.selectFrom("orders").selectAll().where("email", "=", CLINIC).where("status", "=", "draft").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(draft.wizard_step).toBe(10);
    const patient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", draft.id).executeTakeFirstOrThrow();
    expect(patient).toMatchObject({ skip_matrix: true, skip_aligners: true, skip_retainers: false, material_type: null, cut_type: null });
    const copies = patient.retainer_files_info as unknown as FileInfo[];
    expect(copies.map((file) => [file.originalName, file.jaw, file.confirmed])).toEqual([["scan-c.stl", "upper", true]]);
    expect(sha(fs.readFileSync(stored(copies[0]!.storagePath)))).toBe(past.aligners[2]!.hash);

    const before = storedFiles().length;
    const stage = await postAgain(clinic, past.order.id, past.patient.id, [["kind", "new_stage"], ["files", past.aligners[0]!.info.storagePath]]);
    expect(stage.status).toBe(302);
    const next = await t.db.selectFrom("orders").selectAll().where("email", "=", CLINIC).where("status", "=", "draft").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(next.wizard_step).toBe(5);
    const stagePatient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", next.id).executeTakeFirstOrThrow();
    expect(stagePatient).toMatchObject({ material_type: "three_layer", cut_type: "straight", skip_matrix: false, skip_aligners: false, skip_retainers: false, aligner_files_info: [], matrix_files_info: [] });
    expect(storedFiles().length).toBe(before);
  });

  it("the copies count in the order's file cap: three files where an order holds two are refused, nothing made", async () => {
    const past = await pastOrder(CLINIC);
    const orders = await ordersOf(CLINIC);
    const files = storedFiles();
    const response = await postAgain(clinic, past.order.id, past.patient.id, [["kind", "replacement"], ...past.aligners.map((file) => ["files", file.info.storagePath] as [string, string])]);
    expect(response.status).toBe(400);
    expect(rendered(await response.text())).toContain("Отмеченные файлы не помещаются в один заказ");
    expect(await ordersOf(CLINIC)).toBe(orders);
    expect(storedFiles()).toEqual(files);
  });

  it("refuses another clinic's order, patient and file, a draft and ids that are no ids: 404, or the form's message, and nothing changes", async () => {
    const mine = await pastOrder(CLINIC);
    const theirs = await pastOrder(OTHER);
    const draft = await buildOrder(t.db, { email: CLINIC });
    const orders = await t.db.selectFrom("orders").select("id").execute();
    const files = storedFiles();
    const replacement = (path: string): Array<[string, string]> => [["kind", "replacement"], ["files", path]];

    // Another clinic's order, opened or posted to by its id: as if it did not exist.
    expect((await clinic.request(`/cabinet/again/${theirs.order.id}/${theirs.patient.id}`)).status).toBe(404);
    expect((await postAgain(clinic, theirs.order.id, theirs.patient.id, replacement(theirs.aligners[0]!.info.storagePath))).status).toBe(404);
    expect((await other.request(`/cabinet/again/${mine.order.id}/${mine.patient.id}`)).status).toBe(404);
    // Another clinic's patient under one's own order.
    expect((await postAgain(clinic, mine.order.id, theirs.patient.id, replacement(theirs.aligners[0]!.info.storagePath))).status).toBe(404);
    // A draft is no past order; ids that are no ids.
    expect((await clinic.request(`/cabinet/again/${draft.id}/${mine.patient.id}`)).status).toBe(404);
    expect((await clinic.request(`/cabinet/again/not-a-uuid/${mine.patient.id}`)).status).toBe(404);
    // Another clinic's file on one's own patient: the form says so.
    const forged = await postAgain(clinic, mine.order.id, mine.patient.id, replacement(theirs.aligners[0]!.info.storagePath));
    expect(forged.status).toBe(400);
    expect(rendered(await forged.text())).toContain("Такого файла нет среди файлов пациента");
    // Signed out: the sign-in page first.
    const anonymous = await fetch(`${app.url}/cabinet/again/${mine.order.id}/${mine.patient.id}`, { redirect: "manual" });
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);

    expect((await t.db.selectFrom("orders").select("id").execute()).length).toBe(orders.length);
    expect(storedFiles()).toEqual(files);
  });

  it("a file no longer in storage is refused with the doctor's words, and the form keeps what was chosen", async () => {
    const past = await pastOrder(CLINIC);
    fs.rmSync(stored(past.aligners[1]!.info.storagePath));
    const orders = await ordersOf(CLINIC);
    const response = await postAgain(clinic, past.order.id, past.patient.id, [["kind", "replacement"], ["files", past.aligners[0]!.info.storagePath], ["files", past.aligners[1]!.info.storagePath]]);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(rendered(html)).toContain("Файл из этого заказа больше не хранится");
    const ticked = (html.match(/<input type="checkbox" name="files" checked=""[^>]*>/g) ?? []).map((input) => /value="([^"]+)"/.exec(input)![1]);
    expect(ticked).toEqual([past.aligners[0]!.info.storagePath, past.aligners[1]!.info.storagePath]);
    expect(await ordersOf(CLINIC)).toBe(orders);
  });

  it("a form without a kind is refused in the reader's language", async () => {
    const past = await pastOrder(CLINIC);
    const ru = await postAgain(clinic, past.order.id, past.patient.id, []);
    expect(ru.status).toBe(400);
    expect(rendered(await ru.text())).toContain("Выберите, что нужно изготовить");
    const english = await signedInAs(app, t.db, CLINIC);
    expect((await english.request("/language", { form: { lng: "en", redirectTo: "/" } })).status).toBe(302);
    const en = await postAgain(english, past.order.id, past.patient.id, [["kind", "crown"]]);
    expect(en.status).toBe(400);
    expect(rendered(await en.text())).toContain("Choose what should be made");
  });
});
