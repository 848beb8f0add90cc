import { expect } from "vitest";
import type { browserFetch } from "./app-server";
import type { TestDatabase } from "./database";

type Browser = ReturnType<typeof browserFetch>;

/** Walks a fresh browser to step 5 with one patient; returns the order and patient ids. */
export async function toMatrixStep(t: TestDatabase, browser: Browser) {
  const email = `tus-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-01" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Смирнова Е." } });
  await browser.request("/order", { form: { intent: "next" } });
  const order = await t.db.selectFrom("orders").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
  expect(order.wizard_step).toBe(5);
  const patient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
  return { order, patient };
}
