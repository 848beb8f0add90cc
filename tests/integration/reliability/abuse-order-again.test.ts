import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo } from "~db/schema";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { MiB } from "../../support/abusive-bodies";
import { buildOrderIn, staff } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { binaryStl } from "../../support/stl-models";
import { type TestApp, startApp } from "../../support/app";
import { type Browser, rendered, signedInAs } from "../backoffice/support";

/**
 * "Заказать снова" charged as uploads are (issue 56; ADR 082), against the real server on
 * PostgreSQL over HTTP, with the files of the probe: three models of 100 MiB each, copied by the
 * storage. Fifteen posts at once from one clinic store only what its daily upload allowance pays
 * for — the rest are refused with 429, `Retry-After` and the reason on the page, and nothing of them
 * is stored (rows and objects checked) — and what all of a clinic's unpaid orders hold together is
 * bounded however many days it spreads its copies over, uploads included.
 */

/** Small allowances, so the probe passes them in seconds; the rules are those of 20 GiB and 10 GiB. */
const CLIENT_ALLOWANCE_MIB = 1536;
const CLINIC_BOUND_MIB = 1801;
/** What the probe's account had uploaded before it started: the three models, counted as they arrived. */
const UPLOADED_BEFORE_MIB = 301;
/** The largest binary STL under 100 MiB: 84 bytes of header and count, 50 a triangle. */
const TRIANGLES = Math.floor((100 * MiB - 84) / 50);
const MODEL_BYTES = 84 + 50 * TRIANGLES;
/** One order again copies three models: what its allowance is charged, in MiB rounded up. */
const COPY_MIB = Math.ceil((3 * MODEL_BYTES) / MiB);

let app: TestApp;
let t: TestDatabase;

beforeAll(async () => {
  app = await startApp({ env: { UPLOAD_VOLUME_CLIENT_PER_DAY: `${CLIENT_ALLOWANCE_MIB}MiB`, UNPAID_ORDER_BYTES_PER_CLINIC: `${CLINIC_BOUND_MIB}MiB` } });
  t = app.database;
});

afterAll(async () => {
  if (process.env.SHOW_APP_OUTPUT) console.log(app?.output().slice(-8000));
  await app?.close();
});

const storageRoot = () => path.join(app.dataDir, "storage", "orders");

/** A paid order of `email` with one patient holding three 100 MiB aligner models in storage. */
async function pastOrderWithModels(email: string) {
  const order = await buildOrderIn(t.db, "paid", { email, fullName: "Повторов Пётр", phone: "+7 900 555-00-11", address: "Самара, ул. Ленина, 3" });
  const folder = `${order.code}_1`;
  const model = Buffer.alloc(MODEL_BYTES);
  model.writeUInt32LE(TRIANGLES, 80);
  const files: FileInfo[] = [3, 4, 5].map((step) => {
    const key = `order_${order.id}/${folder}/aligners/step-${step}_1700000000000.stl`;
    fs.mkdirSync(path.dirname(path.join(storageRoot(), key)), { recursive: true });
    fs.writeFileSync(path.join(storageRoot(), key), model);
    return { originalName: `step-${step}.stl`, storagePath: key, url: `/files/orders/${key}`, type: "model/stl", size: MODEL_BYTES, triangles: TRIANGLES, jaw: "upper", stepNumber: step, confirmed: true };
  });
  const patient = await t.db
    .insertInto("orders_patients")
    .values({ order_id: order.id, patient_name: "Повторова Полина", folder_name: folder, material_type: "single_layer", cut_type: "wavy", matrix_type: "soft", matrix_files_info: "[]", aligner_files_info: JSON.stringify(files), retainer_files_info: "[]" })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { order, patient, files };
}

/** "Order again" of the three models as replacements, as the cabinet's form sends it. */
function orderAgain(browser: Browser, past: Awaited<ReturnType<typeof pastOrderWithModels>>) {
  const body = new URLSearchParams([["kind", "replacement"], ...past.files.map((file): [string, string] => ["files", file.storagePath])]);
  return fetch(`${app.url}/cabinet/again/${past.order.id}/${past.patient.id}`, { method: "POST", body, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" }).then(
    (response) => (browser.jar.store(response), response),
  );
}

/** What the clinic's new orders hold: their rows and queue entries, and the objects under their storage folders. */
async function newOrdersOf(email: string, pastOrderId: string) {
  const orders = await t.db.selectFrom("orders").select(["id", "status"]).where("email", "=", email).where("id", "<>", pastOrderId).execute();
  const ids = orders.map((order) => order.id);
  const patients = ids.length ? await t.db.selectFrom("orders_patients").select("aligner_files_info").where("order_id", "in", ids).execute() : [];
  const listed = patients.flatMap((patient) => patient.aligner_files_info);
  const queued = ids.length ? await t.db.selectFrom("ftp_uploads_queue").select("file_size").where("order_id", "in", ids).execute() : [];
  const everyOrder = new Set((await t.db.selectFrom("orders").select("id").execute()).map((order) => `order_${order.id}`));
  const folders = fs.readdirSync(storageRoot()).filter((name) => name.startsWith("order_"));
  const objects = folders.filter((folder) => ids.includes(folder.slice("order_".length))).flatMap((folder) =>
    (fs.readdirSync(path.join(storageRoot(), folder), { recursive: true }) as string[]).map((name) => path.join(storageRoot(), folder, name)).filter((file) => fs.statSync(file).isFile()),
  );
  return {
    orders: orders.length,
    listed: listed.length,
    queuedBytes: queued.reduce((sum, row) => sum + Number(row.file_size), 0),
    folders: folders.filter((folder) => ids.includes(folder.slice("order_".length))).length,
    // Folders of no order at all: what a refused or failed copy would leave behind.
    strayFolders: folders.filter((folder) => !everyOrder.has(folder)).length,
    objects: objects.length,
    objectBytes: objects.reduce((sum, file) => sum + fs.statSync(file).size, 0),
  };
}

async function usedMiB(email: string): Promise<number> {
  const row = await t.db.selectFrom("rate_limits").select("count").where("key", "=", `upload:account:${email}`).executeTakeFirst();
  return row?.count ?? 0;
}

async function setUsedMiB(email: string, mebibytes: number) {
  await t.db
    .insertInto("rate_limits")
    .values({ key: `upload:account:${email}`, count: mebibytes, window_started_at: sql`now()`, expires_at: sql`now() + interval '1 day'` })
    .onConflict((oc) => oc.column("key").doUpdateSet({ count: mebibytes }))
    .execute();
}

describe("order again under abuse", () => {
  it(`15 posts at once copying 3 × 100 MiB: copies stop at the clinic's upload allowance (${CLIENT_ALLOWANCE_MIB} MiB here), the rest are refused with 429 and the reason, nothing of them stored`, { timeout: 240_000 }, async () => {
    const email = "dr.probe@klinika-povtor.test";
    const past = await pastOrderWithModels(email);
    const clinic = await signedInAs(app, t.db, email);
    await setUsedMiB(email, UPLOADED_BEFORE_MIB);

    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 15 }, () => orderAgain(clinic, past)));
    const pages = await Promise.all(answers.map((answer) => answer.text()));
    const seconds = (performance.now() - started) / 1000;
    const accepted = answers.filter((answer) => answer.status === 302);
    const refused = answers.filter((answer) => answer.status === 429);
    const paid = Math.floor((CLIENT_ALLOWANCE_MIB - UPLOADED_BEFORE_MIB) / COPY_MIB);
    console.log(`order again ×15 at once: ${accepted.length} made, ${refused.length} refused in ${seconds.toFixed(1)} s; allowance ${CLIENT_ALLOWANCE_MIB} MiB, ${UPLOADED_BEFORE_MIB} MiB used before`);

    // Exactly what the allowance pays for, however many arrive at once; the others are refused, none fails.
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(paid).fill(302), ...Array(15 - paid).fill(429)]);
    for (const answer of accepted) expect(answer.headers.get("Location")).toBe("/order");
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 429) continue;
      const wait = Number(answer.headers.get("Retry-After"));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(24 * 3600);
      const page = rendered(pages[index]!);
      expect(page).toContain("Файлы в новом заказе считаются как загрузки");
      // The form is still there, to choose fewer files or come back tomorrow.
      expect(page).toContain("Продолжить оформление");
    }

    // Stored: the accepted orders' copies, every one whole and recorded; the refused left nothing.
    const stored = await newOrdersOf(email, past.order.id);
    expect(stored).toEqual({ orders: paid, listed: 3 * paid, queuedBytes: 3 * paid * MODEL_BYTES, folders: paid, strayFolders: 0, objects: 3 * paid, objectBytes: 3 * paid * MODEL_BYTES });
    // The account's counter says what was stored: the copies are charged, the refusals are not.
    expect(await usedMiB(email)).toBe(UPLOADED_BEFORE_MIB + paid * COPY_MIB);
    expect(app.output()).not.toMatch(/"level":(50|60)/);
  });

  it(`what a clinic's unpaid orders hold together is bounded (${CLINIC_BOUND_MIB} MiB here), day after day, uploads included; a paid or cancelled order no longer counts`, { timeout: 240_000 }, async () => {
    const email = "dr.patient@klinika-kazhdyj-den.test";
    const past = await pastOrderWithModels(email);
    const clinic = await signedInAs(app, t.db, email);
    const fits = Math.floor((CLINIC_BOUND_MIB * MiB) / (3 * MODEL_BYTES));

    // A new day before every post: the allowance never stops it, only the bound does.
    const statuses: number[] = [];
    let refusal = "";
    for (let day = 0; day <= fits; day++) {
      await setUsedMiB(email, 0);
      const answer = await orderAgain(clinic, past);
      statuses.push(answer.status);
      const page = await answer.text();
      if (answer.status !== 302) refusal = rendered(page);
    }
    expect(statuses).toEqual([...Array(fits).fill(302), 422]);
    expect(refusal).toContain("неоплаченные заказы вашей клиники вместе уже хранят почти столько файлов, сколько можно");
    const stored = await newOrdersOf(email, past.order.id);
    expect(stored).toMatchObject({ orders: fits, objects: 3 * fits, strayFolders: 0 });
    expect(stored.queuedBytes).toBeLessThanOrEqual(CLINIC_BOUND_MIB * MiB);
    // The refused copy was not charged.
    expect(await usedMiB(email)).toBe(0);

    // Uploads count against the same bound: the plain form and a resumable upload into the newest order are refused.
    const newest = await t.db.selectFrom("orders").select(["id"]).where("email", "=", email).where("status", "=", "draft").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    const patient = await t.db.selectFrom("orders_patients").select("id").where("order_id", "=", newest.id).executeTakeFirstOrThrow();
    const model = binaryStl(42_000);
    expect(model.length).toBeGreaterThan(CLINIC_BOUND_MIB * MiB - stored.queuedBytes);
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(model)]), "step-6.stl");
    form.append("intent", "upload");
    const upload = await fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: clinic.jar.header(), Origin: app.url }, redirect: "manual" });
    clinic.jar.store(upload);
    expect(upload.status).toBe(302);
    expect(rendered(await (await clinic.request("/order")).text())).toContain("Неоплаченные заказы вашей клиники вместе уже хранят столько файлов, сколько можно");
    const b64 = (value: string) => Buffer.from(value).toString("base64");
    const metadata = [`filename ${b64("step-6.stl")}`, `orderId ${b64(newest.id)}`, `patientId ${b64(patient.id)}`, `type ${b64("aligners")}`, `uploadKey ${b64(`key-${Date.now()}`)}`].join(",");
    const tus = await fetch(`${app.url}/uploads/tus`, {
      method: "POST",
      headers: { Cookie: clinic.jar.header(), Origin: app.url, "Tus-Resumable": "1.0.0", "Upload-Length": String(model.length), "Upload-Metadata": metadata },
      redirect: "manual",
    });
    expect(tus.status).toBe(422);
    expect(await tus.json()).toMatchObject({ ok: false, error: "clinic_quota", message: "неоплаченные заказы вашей клиники вместе уже хранят столько файлов, сколько можно" });
    expect(await newOrdersOf(email, past.order.id)).toEqual(stored);

    // An order that leaves the unpaid ones (cancelled here) no longer counts: the clinic orders again.
    await changeOrderStatus(t.db, newest.id, "cancelled", staff, { note: "Клиника попросила отменить" });
    await setUsedMiB(email, 0);
    expect((await orderAgain(clinic, past)).status).toBe(302);
  });
});
