import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo, FileType } from "~db/schema";
import { declareFiles, prefilledDeclaration } from "~/modules/orders/files.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { browserFetch } from "../../support/app-server";
import { buildOrder, buildPatient, customer, paymentActor } from "../../support/builders";
import { SECRETS, startApp, type TestApp } from "../../support/app";
import { type Browser, gatePassed, rendered, signedInAs } from "./support";

/**
 * Each file's declared jaw and step after the wizard (ADR 058), over real HTTP: staff's files page
 * and the packer's list show them and mark what is still only guessed from the name; staff correct
 * one with a plain form (POST-redirect-GET, a toast), recorded in the order's history of its files
 * with who made it; and the bag labels print what was declared and corrected.
 */

/** The text a reader sees in a piece of markup. */
const textOf = (html: string) => rendered(html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();
/** The text of inline markup, where tags separate no words. */
const inlineText = (html: string) => rendered(html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
/** The list item of a file on staff's files page, by its name. */
const fileItem = (html: string, name: string) => textOf([...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1]!).find((item) => item.includes(`>${name}</a>`)) ?? "");
const toastOf = (html: string) => textOf(/<div class="toast[\s\S]*?<\/div>/.exec(html)?.[0] ?? "");

describe("declared jaw and step for staff and packers", () => {
  let app: TestApp;
  let manager: Browser;
  let office: Browser;
  let packer: Browser;
  let order: { id: string; code: string };
  let patient: { id: string; folder_name: string };
  const paths: Record<string, string> = {};
  let stored = 0;

  /** A file as the wizard records it: prefilled from its name (appendFiles), or as recorded before declarations existed. */
  const recorded = (type: FileType, name: string, { before = false } = {}): FileInfo => {
    const storagePath = `order_${order.id}/${patient.folder_name}/${type}/file_${++stored}.stl`;
    paths[name] = storagePath;
    return { originalName: name, storagePath, url: `/files/orders/${storagePath}`, type: "model/stl", size: 184, ...(before ? {} : prefilledDeclaration(name, type)) };
  };
  const filesUrl = () => `/backoffice/orders/${order.id}/files?back=${encodeURIComponent("/backoffice")}`;
  const correct = (browser: Browser, type: FileType, name: string, jaw: string, step: string) =>
    browser.request(filesUrl(), { form: { patientId: patient.id, type, path: paths[name]!, jaw, step } });

  beforeAll(async () => {
    app = await startApp();
    const db = app.database.db;
    order = await buildOrder(db, { fullName: "Декларова Дина Дмитриевна", email: "declared@clinic.test" });
    patient = await buildPatient(db, order.id, "Заявленная З.");
    await db
      .updateTable("orders_patients")
      .set({
        aligner_files_info: JSON.stringify([recorded("aligners", "Шаг 01 верх.stl"), recorded("aligners", "Шаг 01 низ.stl"), recorded("aligners", "scan_final.stl")]),
        // A retainer recorded before declarations: no jaw, step or confirmation at all.
        retainer_files_info: JSON.stringify([recorded("retainer", "retainer_old.stl", { before: true })]),
      })
      .where("id", "=", patient.id)
      .execute();
    // The doctor declares on the upload step what the name does not say: lower jaw, step 3.
    await declareFiles(db, order, patient, "aligners", [{ storagePath: paths["scan_final.stl"]!, jaw: "lower", stepNumber: 3 }]);
    await db.updateTable("orders").set({ total_cost: 1_250_000 }).where("id", "=", order.id).execute();
    await changeOrderStatus(db, order.id, "pending", customer);
    await changeOrderStatus(db, order.id, "paid", paymentActor);

    manager = await signedInAs(app, db, "manager@aligner.test", ["manager"]);
    office = await gatePassed(app);
    packer = browserFetch(app);
    expect((await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD } })).status).toBe(302);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("staff's files page shows each file's jaw and step, and marks those only guessed from the name", async () => {
    const html = await (await office.request(filesUrl())).text();
    expect(fileItem(html, "Шаг 01 верх.stl")).toMatch(/^Шаг 01 верх\.stl .+? ВЧ, шаг 01 Исправить/);
    expect(fileItem(html, "scan_final.stl")).toMatch(/ НЧ, шаг 03 Исправить/);
    expect(fileItem(html, "retainer_old.stl")).toMatch(/ ВЧ по имени файла Исправить/);
    expect(textOf(html)).toContain("«По имени файла» — челюсть и шаг прочитаны из имени файла");
    // Each file's form carries its current values, so a press of "Сохранить" alone changes nothing.
    const form = /<form method="post" action="([^"]+)" class="bo-file-form"[^>]*>([\s\S]*?)<\/form>/.exec(html.slice(html.indexOf(">scan_final.stl</a>")))!;
    expect(form[1]).toBe(filesUrl().replace(/&/g, "&amp;"));
    expect(form[2]).toContain(`name="path" value="${paths["scan_final.stl"]}"`);
    expect(form[2]).toMatch(/<option value="lower" selected="">/);
    expect(form[2]).toMatch(/name="step"[^>]*value="3"/);
  });

  it("staff correct a file's jaw and step with a plain form: back on the page with a toast, recorded with who made the change", async () => {
    const response = await correct(manager, "aligners", "Шаг 01 низ.stl", "lower", "2");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${filesUrl()}#files-${patient.folder_name}`);
    const page = await (await manager.request(response.headers.get("Location")!.replace(/#.*/, ""))).text();
    expect(toastOf(page)).toBe("Челюсть и шаг исправлены Шаг 01 низ.stl: НЧ, шаг 01 → НЧ, шаг 02");
    expect(fileItem(page, "Шаг 01 низ.stl")).toMatch(/ НЧ, шаг 02 Исправить/);
    const history = textOf(/<section class="bo-file-history"[\s\S]*?<\/section>/.exec(page)![0]);
    expect(history).toMatch(new RegExp(`^Исправления челюсти и шага .+? Шаг 01 низ\\.stl: НЧ, шаг 01 → НЧ, шаг 02 · ${patient.folder_name} · manager@aligner\\.test$`));

    // An older file's guess, confirmed as another jaw by the back-office password's holder.
    const older = await correct(office, "retainer", "retainer_old.stl", "lower", "");
    expect(toastOf(await (await office.request(older.headers.get("Location")!.replace(/#.*/, ""))).text())).toBe("Челюсть и шаг исправлены retainer_old.stl: ВЧ → НЧ");

    const rows = await app.database.db.selectFrom("order_file_corrections").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
    expect(rows.map(({ file_type, storage_path, original_name, from_jaw, from_step, from_guessed, to_jaw, to_step, actor }) => ({ file_type, storage_path, original_name, from_jaw, from_step, from_guessed, to_jaw, to_step, actor }))).toEqual([
      { file_type: "aligners", storage_path: paths["Шаг 01 низ.stl"], original_name: "Шаг 01 низ.stl", from_jaw: "lower", from_step: 1, from_guessed: false, to_jaw: "lower", to_step: 2, actor: "manager@aligner.test" },
      { file_type: "retainer", storage_path: paths["retainer_old.stl"], original_name: "retainer_old.stl", from_jaw: "upper", from_step: null, from_guessed: true, to_jaw: "lower", to_step: null, actor: expect.stringMatching(/^back-office password \(/) },
    ]);
    const stored = await app.database.db.selectFrom("orders_patients").select(["aligner_files_info", "retainer_files_info"]).where("id", "=", patient.id).executeTakeFirstOrThrow();
    expect(stored.aligner_files_info.find((file) => file.originalName === "Шаг 01 низ.stl")).toMatchObject({ jaw: "lower", stepNumber: 2, confirmed: true });
    expect(stored.retainer_files_info[0]).toMatchObject({ jaw: "lower", stepNumber: null, confirmed: true });

    // The same values again change nothing and say so.
    const again = await correct(manager, "aligners", "Шаг 01 низ.stl", "lower", "02");
    expect(toastOf(await (await manager.request(again.headers.get("Location")!.replace(/#.*/, ""))).text())).toBe("Без изменений У файла Шаг 01 низ.stl уже эти челюсть и шаг.");
    expect(await app.database.db.selectFrom("order_file_corrections").select("id").where("order_id", "=", order.id).execute()).toHaveLength(2);

    // The order's history lists them beside the status changes: on its own page all of it, on the
    // dashboard's card the latest entry and a link there with the count (ADR 100).
    const statusChanges = await app.database.db.selectFrom("order_status_history").select("id").where("order_id", "=", order.id).execute();
    const dashboard = await (await manager.request(`/backoffice?q=${order.id.slice(0, 8)}&empty=1`)).text();
    const folded = /<div class="bo-history bo-history-folded">([\s\S]*?)<\/div>/.exec(dashboard)![1]!;
    expect(textOf(folded)).toMatch(new RegExp(`retainer_old\\.stl: ВЧ → НЧ · ${patient.folder_name} · общий пароль панели \\([^)]+\\) История \\(${statusChanges.length + 2}\\)$`));
    expect(folded).toContain(`href="/backoffice/orders/${order.id}#history"`);
    const orderPage = await (await manager.request(`/backoffice/orders/${order.id}`)).text();
    const cardHistory = /<details class="bo-history" id="history" open="">([\s\S]*?)<\/details>/.exec(orderPage)![1]!;
    expect(textOf(cardHistory)).toContain(`История (${statusChanges.length + 2})`);
    expect(textOf(cardHistory)).toMatch(new RegExp(`Шаг 01 низ\\.stl: НЧ, шаг 01 → НЧ, шаг 02 · ${patient.folder_name} · manager@aligner\\.test .+? retainer_old\\.stl: ВЧ → НЧ · ${patient.folder_name} · общий пароль панели`));

    // An aligner needs its step: refused with the reason, nothing stored.
    const noStep = await correct(manager, "aligners", "scan_final.stl", "upper", "");
    expect(toastOf(await (await manager.request(noStep.headers.get("Location")!.replace(/#.*/, ""))).text())).toBe("Челюсть и шаг не изменены Для элайнера укажите номер шага");
    expect(await app.database.db.selectFrom("order_file_corrections").select("id").where("order_id", "=", order.id).execute()).toHaveLength(2);
  });

  it("the packer's list and the bag labels read the declared and corrected values", async () => {
    const list = await (await packer.request("/packer")).text();
    const card = inlineText(list.slice(list.indexOf(`id="o-${order.id}"`), list.indexOf("</article>", list.indexOf(`id="o-${order.id}"`))));
    expect(card).toContain("Элайнеры: Шаг 01 верх.stl (ВЧ, шаг 01), Шаг 01 низ.stl (НЧ, шаг 02), scan_final.stl (НЧ, шаг 03)");
    expect(card).toContain("Ретейнеры: retainer_old.stl (НЧ)");
    expect(card).not.toContain("по имени файла");

    const html = await (await packer.request(`/packer/bags/${order.id}`)).text();
    const labels = [...html.matchAll(/<section class="bag-label"[^>]*>([\s\S]*?)<\/section>/g)].map((match) => textOf(match[1]!));
    const number = order.id.slice(0, 4).toUpperCase();
    const folder = patient.folder_name;
    // Each label's bag code, printed under its QR code (ADR 103).
    const codes = [...html.matchAll(/<div class="bag-code">([^<]+)<\/div>/g)].map((match) => match[1]!);
    expect(labels).toEqual([
      `Элайнеры ${number} Заявленная З. ${codes[0]} ВЧ Шаг 01 ${order.code}/${folder} Шаг 01 верх.stl`,
      // Named "Шаг 01", corrected by staff to step 2.
      `Элайнеры ${number} Заявленная З. ${codes[1]} НЧ Шаг 02 ${order.code}/${folder} Шаг 01 низ.stl`,
      // Named with neither jaw nor step: printed as the doctor declared it.
      `Элайнеры ${number} Заявленная З. ${codes[2]} НЧ Шаг 03 ${order.code}/${folder} scan_final.stl`,
      // Recorded before declarations (the guess said upper), corrected by staff to the lower jaw.
      `Ретейнеры ${number} Заявленная З. ${codes[3]} НЧ ${order.code}/${folder} retainer_old.stl`,
    ]);
  });
});
