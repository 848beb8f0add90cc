import { randomUUID } from "node:crypto";
import type { DB } from "~/modules/db/db.server";
import { createOrder, changeOrderStatus, type NewOrderInput } from "~/modules/orders/orders.server";
import type { Actor } from "~/modules/orders/status";
import type { OrderStatus } from "~db/schema";

/** Data builders for tests: each builds what it is asked for with realistic defaults. */

export const customer: Actor = { kind: "customer", label: "doctor@clinic.test" };
export const staff: Actor = { kind: "staff", label: "manager@aligner.test" };
export const paymentActor: Actor = { kind: "payment", label: "sandbox" };

export async function buildOrder(db: DB, overrides: Partial<NewOrderInput> = {}) {
  return createOrder(
    db,
    {
      market: "domestic",
      currency: "rub",
      email: `doctor-${randomUUID().slice(0, 8)}@clinic.test`,
      fullName: "Иванова Анна Сергеевна",
      phone: "+7 900 123-45-67",
      address: "Москва, ул. Тверская, 1",
      ...overrides,
    },
    customer,
  );
}

const PATH_TO: Record<OrderStatus, Array<[OrderStatus, Actor, { note?: string; trackingNumber?: string }?]>> = {
  draft: [],
  pending: [["pending", customer]],
  paid: [["pending", customer], ["paid", paymentActor]],
  processing: [["pending", customer], ["paid", paymentActor], ["processing", staff]],
  shipped: [["pending", customer], ["paid", paymentActor], ["processing", staff], ["shipped", staff, { trackingNumber: "RA000000001RU" }]],
  completed: [["pending", customer], ["paid", paymentActor], ["completed", staff]],
  cancelled: [["cancelled", staff]],
};

/** An order walked through the state machine to the given status, with its history. */
export async function buildOrderIn(db: DB, status: OrderStatus, overrides: Partial<NewOrderInput> = {}) {
  let order = await buildOrder(db, overrides);
  for (const [to, actor, details] of PATH_TO[status]) {
    if (to === "pending") await db.updateTable("orders").set({ total_cost: 1250000 }).where("id", "=", order.id).execute();
    order = (await changeOrderStatus(db, order.id, to, actor, details)).order;
  }
  return order;
}

export async function buildPatient(db: DB, orderId: string, name = "Петров Пётр") {
  const count = await db.selectFrom("orders_patients").select((eb) => eb.fn.countAll<number>().as("n")).where("order_id", "=", orderId).executeTakeFirstOrThrow();
  return db
    .insertInto("orders_patients")
    .values({ order_id: orderId, patient_name: name, folder_name: `${orderId.slice(0, 4)}_${Number(count.n) + 1}`, matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A card payment that succeeded for an order, with the one line its receipt printed. */
export async function buildPayment(db: DB, order: { id: string; code: string }, overrides: { amount?: number } = {}) {
  const amount = overrides.amount ?? 1250000;
  return db
    .insertInto("payments")
    .values({
      order_id: order.id,
      order_code: order.code,
      provider: "sandbox",
      amount,
      currency: "rub",
      status: "succeeded",
      idempotence_key: `test-${randomUUID()}`,
      lines: JSON.stringify([{ description: "Элайнеры", quantity: 1, price: amount }]),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
