import { describe, expect, it } from "vitest";
import type { Order, Patient } from "~db/schema";
import { maskLogin, maskToken } from "./mask";
import { canSendToTracker, trackerRequestOf } from "./order-request.server";
import { createTaskTracker, DisabledTaskTracker, TrackerDisabledError } from "./tracker.server";

const order = {
  id: "3f2a0c1e-0000-4000-8000-000000000001",
  code: "3f2a",
  status: "paid",
  market: "domestic",
  currency: "rub",
  email: "info@clinic.ru",
  full_name: "Кузнецова Ольга",
  phone: "+7 495 000-00-00",
  address: "Москва",
  delivery_comment: null,
  additional_comments: "  ",
  material_type: "three_layer",
  cut_type: "wavy",
  matrix_type: null,
  total_cost: 1_234_550,
  created_at: new Date("2026-11-20T10:00:00Z"),
} as unknown as Order;

const file = (name: string, key: string) => ({ originalName: name, storagePath: key, url: `/files/orders/${key}`, type: "model/stl", size: 184 });
const patient = {
  id: "p1",
  patient_name: "Смирнова Е.",
  folder_name: "3f2a_1",
  material_type: "three_layer",
  cut_type: "wavy",
  matrix_type: "soft",
  additional_comments: "Аттачменты на 13",
  matrix_files_info: [file("Верх.stl", "order_x/3f2a_1/matrix/verh_1.stl")],
  aligner_files_info: [file("Шаг 01.stl", "order_x/3f2a_1/aligners/shag_01_1.stl")],
  retainer_files_info: [file("Ретейнер.stl", "order_x/3f2a_1/retainer/r_1.stl")],
  skip_matrix: false,
  skip_aligners: false,
  skip_retainers: true,
} as unknown as Patient;

describe("the tracker request", () => {
  it("is offered for paid and pending orders only", () => {
    expect((["draft", "pending", "paid", "processing", "shipped", "completed", "cancelled"] as const).filter(canSendToTracker)).toEqual(["pending", "paid"]);
  });

  it("is built from the order, its patients and absolute file links, without empty fields", () => {
    const request = trackerRequestOf(order, [patient], { formId: "42", origin: "https://aligner.example" });
    const fields = Object.fromEntries(request.fields.map((field) => [field.name, field.value]));
    expect(request.formId).toBe("42");
    expect(fields["Номер заказа"]).toBe("3F2A");
    expect(fields["Сумма"]).toBe(12_345.5);
    expect(fields["Материал"]).toBe("3-слойный");
    expect(fields["Тип обрезки"]).toBe("Волнистая");
    expect(fields["Тип матрицы"]).toBe("Мягкая");
    expect(fields["Статус оплаты"]).toBe("Оплачен");
    expect(fields["Дата заказа"]).toBe("2026-11-20");
    expect(fields).not.toHaveProperty("Комментарий к доставке");
    expect(fields).not.toHaveProperty("Комментарий к заказу");
    expect(fields["Пациенты"]).toContain("1. Смирнова Е. (папка 3f2a_1)");
    expect(fields["Пациенты"]).toContain("Ретейнеры (0): —");
    expect(String(fields["Ссылки на файлы"]).split("\n")).toEqual([
      "Смирнова Е. / Матрицы / Верх.stl: https://aligner.example/files/orders/order_x/3f2a_1/matrix/verh_1.stl",
      "Смирнова Е. / Элайнеры / Шаг 01.stl: https://aligner.example/files/orders/order_x/3f2a_1/aligners/shag_01_1.stl",
    ]);
  });
});

describe("the tracker without configuration", () => {
  it("refuses to send with a clear message and logs why the test cannot run", async () => {
    const tracker = createTaskTracker({ pyrus: null });
    expect(tracker).toBeInstanceOf(DisabledTaskTracker);
    await expect(tracker.send({ formId: null, fields: [] })).rejects.toBeInstanceOf(TrackerDisabledError);
    const steps: string[] = [];
    expect(await tracker.testConnection((step) => steps.push(step.key))).toEqual({ ok: false, maskedToken: null });
    expect(steps).toEqual(["notConfigured"]);
  });
});

describe("masks", () => {
  it("never show a whole token or login", () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.secret-part-of-the-token.sig0123";
    expect(maskToken(token)).toBe(`eyJh…0123 (${token.length})`);
    expect(maskToken("short")).toBe("••••• (5)");
    expect(maskLogin("bot@example.com")).toBe("bo…@example.com");
    expect(maskLogin("x@example.com")).toBe("x…@example.com");
  });
});
