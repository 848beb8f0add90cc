import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo } from "~db/schema";
import { PyrusError, PyrusTaskTracker } from "~/modules/tracker/pyrus.server";
import type { TestDatabase } from "../../support/database";
import { buildOrder, buildOrderIn, buildPatient } from "../../support/builders";
import { startPyrusDouble, type PyrusDouble } from "../../support/pyrus-double";
import { follow, gatePassed, rendered, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

const request = {
  formId: null,
  fields: [
    { name: "Номер заказа", value: "3F2A" },
    { name: "Сумма", value: 12_500 },
    { name: "Материал", value: "3-слойный" },
    { name: "Тип обрезки", value: "волнистая" },
    { name: "Статус оплаты", value: "Оплачен" },
    { name: "Поле, которого нет в форме", value: "x" },
  ],
};

describe("the Pyrus client against the local double", () => {
  let pyrus: PyrusDouble;
  const config = () => ({ login: pyrus.login, securityKey: pyrus.securityKey, formId: String(pyrus.formId), apiUrl: pyrus.apiUrl });

  beforeAll(async () => {
    pyrus = await startPyrusDouble();
  });
  afterAll(async () => pyrus?.stop());

  it("authenticates with the login and key, resolves field ids and catalogue items, and creates the task", async () => {
    const tracker = new PyrusTaskTracker(config());
    const result = await tracker.send(request);
    expect(result.body).toEqual({
      form_id: pyrus.formId,
      fields: [
        { id: 1, value: "3F2A" },
        { id: 10, value: 12_500 },
        { id: 13, value: { item_id: 502 } },
        { id: 14, value: { item_id: 601 } },
        { id: 12, value: { choice_ids: [1] } },
      ],
    });
    expect(result.catalogItems.map((item) => [item.field, item.itemId])).toEqual([
      ["Материал", 502],
      ["Тип обрезки", 601],
      ["Статус оплаты", 1],
    ]);
    expect(result.skipped).toEqual(["Поле, которого нет в форме"]);
    expect(result.task.url).toBe(`https://pyrus.com/t#id${result.task.id}`);
    expect(pyrus.tasks.has(Number(result.task.id))).toBe(true);
    const auth = pyrus.calls.filter((call) => call.path === "/v4/auth");
    expect(auth.at(-1)?.body).toEqual({ login: pyrus.login, security_key: pyrus.securityKey });
  });

  it("authenticates again once when the token expired", async () => {
    const tracker = new PyrusTaskTracker(config());
    await tracker.authenticate();
    pyrus.expireTokens();
    const before = pyrus.calls.filter((call) => call.path === "/v4/auth").length;
    await tracker.send(request);
    expect(pyrus.calls.filter((call) => call.path === "/v4/auth").length).toBe(before + 1);
  });

  it("gives up after one retry when Pyrus keeps refusing the token", async () => {
    let calls = 0;
    const refusing: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/auth")) return fetch(input, init);
      calls++;
      return Response.json({ error: "Token is expired or invalid", error_code: "expired_token" }, { status: 401 });
    };
    const tracker = new PyrusTaskTracker(config(), refusing);
    await expect(tracker.send(request)).rejects.toMatchObject({ name: "PyrusError", status: 401, code: "expired_token" });
    expect(calls).toBe(2);
  });

  it("reports wrong credentials with Pyrus's message", async () => {
    const tracker = new PyrusTaskTracker({ ...config(), securityKey: "wrong" });
    await expect(tracker.authenticate()).rejects.toBeInstanceOf(PyrusError);
    const steps: string[] = [];
    const outcome = await tracker.testConnection((step) => steps.push(step.key));
    expect(outcome).toEqual({ ok: false, maskedToken: null });
    expect(steps).toEqual(["config", "request", "failed"]);
  });
});

describe("send to tracker and the connection test over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let pyrus: PyrusDouble;
  let staff: Browser;

  beforeAll(async () => {
    pyrus = await startPyrusDouble();
    app = await startApp({
      env: {
        PUBLIC_URL_DOMESTIC: "https://aligner.example",
        PYRUS_LOGIN: pyrus.login,
        PYRUS_SECURITY_KEY: pyrus.securityKey,
        PYRUS_FORM_ID: String(pyrus.formId),
        PYRUS_API_URL: pyrus.apiUrl,
      },
    });
    t = app.database;
    staff = await gatePassed(app);
  });
  afterAll(async () => {
    await app?.close();
    await pyrus?.stop();
  });

  it("tests the connection and shows only a masked token", async () => {
    const idle = rendered(await (await staff.request("/backoffice/test")).text());
    expect(idle).toContain("Получить токен");
    expect(pyrus.calls).toHaveLength(0);
    const raw = await (await staff.request("/backoffice/test?run=1")).text();
    const html = rendered(raw);
    expect(html).toContain("Подключение работает");
    const token = pyrus.issued.at(-1)!;
    expect(html).toContain(`Токен получен: ${token.slice(0, 4)}…${token.slice(-4)} (${token.length})`);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(pyrus.securityKey);
    expect(html).toContain("bo…@aligner.test");
  });

  it("shows the dry run without calling Pyrus, sends after confirmation and shows request, response and catalogue items", async () => {
    const order = await buildOrderIn(t.db, "paid", { fullName: "Кузнецова Ольга" });
    const patient = await buildPatient(t.db, order.id, "Смирнова Е.");
    const storagePath = `order_${order.id}/${patient.folder_name}/aligners/step1_1.stl`;
    const aligner: FileInfo = { originalName: "Шаг 01 верх.stl", storagePath, url: `/files/orders/${storagePath}`, type: "model/stl", size: 184 };
    await t.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify([aligner]), material_type: "single_layer", cut_type: "straight" }).where("id", "=", patient.id).execute();
    const callsBefore = pyrus.calls.length;

    const dryRun = rendered(await (await staff.request(`/backoffice/orders/${order.id}/tracker`)).text());
    expect(pyrus.calls.length).toBe(callsBefore);
    expect(dryRun).toContain("пробный запуск");
    expect(dryRun).toContain('"name": "Номер заказа"');
    expect(dryRun).toContain(`https://aligner.example/files/orders/${storagePath}`);

    const sent = await staff.request(`/backoffice/orders/${order.id}/tracker?back=%2Fbackoffice`, { form: {} });
    expect(sent.status).toBe(302);
    const location = sent.headers.get("Location")!;
    expect(location).toMatch(/\?task=\d+&sig=[\w-]+&back=%2Fbackoffice$/);
    const result = rendered(await follow(staff, sent));
    expect(toastOf(result)?.[0]).toBe("Отправлено");
    const taskId = new URL(location, app.url).searchParams.get("task")!;
    expect(result).toContain(`Создана задача №${taskId}.`);
    expect(result).toContain("Найденные элементы справочников");
    expect(result).toContain("1-слойный · Однослойный материал");
    expect(result).toContain('"item_id": 602');
    expect(result).toContain(`"id": ${taskId}`);
    const created = pyrus.tasks.get(Number(taskId)) as { fields: Array<{ name: string; value: unknown }> };
    expect(created.fields.find((field) => field.name === "Клиент")?.value).toBe("Кузнецова Ольга");

    // A forged task id in the link shows the dry run, not someone else's task.
    const forged = rendered(await (await staff.request(`/backoffice/orders/${order.id}/tracker?task=${taskId}&sig=forged`)).text());
    expect(forged).toContain("пробный запуск");
  });

  it("offers sending only for paid or pending orders", async () => {
    const draft = await buildOrder(t.db);
    const page = await staff.request(`/backoffice/orders/${draft.id}/tracker`);
    expect(page.status).toBe(409);
    expect(rendered(await page.text())).toContain("В трекер отправляются только оплаченные заказы и заказы, ожидающие оплаты.");
    const tasks = pyrus.tasks.size;
    const refused = await staff.request(`/backoffice/orders/${draft.id}/tracker`, { form: {} });
    expect(refused.status).toBe(302);
    expect(pyrus.tasks.size).toBe(tasks);
    expect((await staff.request("/backoffice/orders/00000000-0000-4000-8000-000000000000/tracker")).status).toBe(404);
  });

  it("tells staff when Pyrus refuses the task", async () => {
    const order = await buildOrderIn(t.db, "pending");
    pyrus.expireTokens();
    await pyrus.stop();
    const failed = await staff.request(`/backoffice/orders/${order.id}/tracker`, { form: {} });
    expect(failed.status).toBe(302);
    const page = await follow(staff, failed);
    expect(toastOf(page)?.[0]).toBe("Не удалось отправить данные в Pyrus...");
    pyrus = await startPyrusDouble({ port: new URL(pyrus.url).port ? Number(new URL(pyrus.url).port) : undefined });
  });
});
