import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postMessage } from "~/modules/messages/thread.server";
import type { ExportedOrder } from "~/modules/orders/data-export.server";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn, buildPatient, buildPayment } from "../../support/builders";
import { type TestApp, startApp } from "../../support/app";
import { signedInAs } from "../backoffice/support";

/**
 * A clinic downloads its own data (ADR 078), over HTTP against the real app and its folder storage:
 * the archive's data.json says what the database holds of the clinic's orders and nothing of
 * another's, and with files asked the stored models come byte for byte.
 */

function binaryStl(triangles: number, fill: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles, fill);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

interface Archive {
  exportedAt: string;
  account: { email: string };
  orders: ExportedOrder[];
}

describe("a clinic's data export", () => {
  let app: TestApp;
  const email = `export-${Date.now()}@clinic.ru`;
  const model = binaryStl(6, 7);
  let orderId: string;
  let paidId: string;

  beforeAll(async () => {
    app = await startApp();
    // An order through the wizard, with one stored model.
    const browser = browserFetch(app);
    await browser.request("/order", { form: { intent: "next" } });
    await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-02" } });
    await browser.request("/order", { form: { intent: "next", full_name: "Соколова Мария", address: "Казань, ул. Баумана, 2", consent: "on" } });
    await browser.request("/order", { form: { intent: "add_patient", patient_name: "Орлов К." } });
    await browser.request("/order", { form: { intent: "next" } });
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(model)]), "orlov-upper.stl");
    form.append("intent", "next");
    const upload = await fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
    browser.jar.store(upload);
    orderId = (await app.database.db.selectFrom("orders").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    // A second, paid order of the same clinic, and another clinic's order.
    const paid = await buildOrderIn(app.database.db, "paid", { email });
    await buildPatient(app.database.db, paid.id, "Лебедев А.");
    const other = await buildOrderIn(app.database.db, "paid", { email: "someone-else@clinic.ru" });
    await buildPatient(app.database.db, other.id, "Чужой Пациент");
    // Each paid order's card payment; the other clinic's must not travel with this clinic's data.
    await buildPayment(app.database.db, paid);
    await buildPayment(app.database.db, other, { amount: 990000 });
    // The paid order's thread (ADR 104): a question, the answer, and a note for the lab only.
    await postMessage(app.database.db, { orderId: paid.id, side: "lab", author: "lab@aligner.test", body: "Какой шаг верхний?", asks: true });
    await postMessage(app.database.db, { orderId: paid.id, side: "clinic", author: email, body: "Шаг 2." });
    await postMessage(app.database.db, { orderId: paid.id, side: "lab", author: "lab@aligner.test", body: "Заметка лаборатории для экспорта", labOnly: true });
    paidId = paid.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  const download = async (query: string) => {
    const clinic = await signedInAs(app, app.database.db, email);
    const response = await clinic.request(`/cabinet/data${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="aligner-data-\d{4}-\d{2}-\d{2}(-with-files)?\.zip"$/);
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const archive = JSON.parse(new TextDecoder().decode(entries["data.json"])) as Archive;
    return { entries, archive };
  };

  it("holds every order of the clinic as the database does, and none of another clinic's", async () => {
    const { entries, archive } = await download("");
    expect(Object.keys(entries)).toEqual(["data.json"]);
    expect(archive.account.email).toBe(email);
    const db = app.database.db;
    const orders = await db.selectFrom("orders").select(["id", "status", "full_name", "total_cost"]).where("email", "=", email).orderBy("created_at").orderBy("id").execute();
    expect(orders).toHaveLength(2);
    expect(archive.orders.map((order) => [order.id, order.status, order.contacts.fullName, order.total])).toEqual(orders.map((order) => [order.id, order.status, order.full_name, order.total_cost === null ? null : Number(order.total_cost)]));
    for (const order of archive.orders) {
      const patients = await db.selectFrom("orders_patients").select("patient_name").where("order_id", "=", order.id).orderBy("created_at").orderBy("id").execute();
      expect(order.patients.map((patient) => patient.name)).toEqual(patients.map((patient) => patient.patient_name));
      const history = await db.selectFrom("order_status_history").select("to_status").where("order_id", "=", order.id).orderBy("created_at").orderBy("id").execute();
      expect(order.history.map((change) => change.to)).toEqual(history.map((change) => change.to_status));
    }
    const payments = await db.selectFrom("payments").select(["order_id", "provider", "status", "amount", "currency"]).where("order_id", "in", orders.map((order) => order.id)).orderBy("created_at").execute();
    expect(payments).toHaveLength(1);
    expect(archive.orders.flatMap((order) => order.payments.map((payment) => [order.id, payment.provider, payment.status, payment.amount, payment.currency]))).toEqual(
      payments.map((payment) => [payment.order_id, payment.provider, payment.status, Number(payment.amount), payment.currency]),
    );
    expect(JSON.stringify(archive)).not.toContain("990000");
    expect(JSON.stringify(archive)).not.toContain("Чужой Пациент");
    expect(JSON.stringify(archive)).not.toContain("someone-else@clinic.ru");
    // Without files asked, each file is listed with its address and no place in the archive.
    const [file] = archive.orders.find((order) => order.id === orderId)!.patients[0]!.files;
    expect(file).toMatchObject({ kind: "matrix", name: "orlov-upper.stl", size: model.length, inArchive: null });
    expect(file!.url).toMatch(new RegExp(`^/files/orders/order_${orderId}/`));
  });

  it("holds the order's messages with the lab, never a lab note", async () => {
    const { archive } = await download("");
    const paid = archive.orders.find((order) => order.id === paidId)!;
    expect(paid.messages.map((message) => [message.from, message.text])).toEqual([
      ["lab", "Какой шаг верхний?"],
      ["clinic", "Шаг 2."],
    ]);
    expect(JSON.stringify(archive)).not.toContain("Заметка лаборатории для экспорта");
    expect(JSON.stringify(archive)).not.toContain("lab@aligner.test");
  });

  it("carries the stored models byte for byte when asked", async () => {
    const { entries, archive } = await download("?files=1");
    const [file] = archive.orders.find((order) => order.id === orderId)!.patients[0]!.files;
    expect(file!.inArchive).toMatch(/^files\/order_/);
    expect(Buffer.from(entries[file!.inArchive!]!).equals(model)).toBe(true);
    expect(Object.keys(entries).sort()).toEqual(["data.json", file!.inArchive!].sort());
  });

  it("sends anyone not signed in to sign in first", async () => {
    const response = await browserFetch(app).request("/cabinet/data?files=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent("/cabinet/data?files=1")}`);
  });
});
