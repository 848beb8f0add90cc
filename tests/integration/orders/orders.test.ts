import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeOrderStatus, OrderTransitionError, orderHistory } from "~/modules/orders/orders.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrder, buildOrderIn, customer, paymentActor, staff } from "../../support/builders";

describe("order creation and status changes on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(20);
  });
  afterAll(async () => t.drop());

  it("creates 200 orders concurrently with 200 distinct order codes", async () => {
    const orders = await Promise.all(Array.from({ length: 200 }, () => buildOrder(t.db)));
    const codes = new Set(orders.map((order) => order.code));
    expect(codes.size).toBe(200);
    for (const order of orders) expect(order.code).toBe(order.id.slice(0, 4));
    const reserved = await t.db.selectFrom("order_codes").select("code").where("order_id", "in", orders.map((o) => o.id)).execute();
    expect(reserved).toHaveLength(200);
  });

  it("records who created the order and every change", async () => {
    const order = await buildOrderIn(t.db, "shipped");
    const history = await orderHistory(t.db, order.id);
    expect(history.map((row) => [row.from_status, row.to_status, row.actor])).toEqual([
      [null, "draft", customer.label],
      ["draft", "pending", customer.label],
      ["pending", "paid", paymentActor.label],
      ["paid", "processing", staff.label],
      ["processing", "shipped", staff.label],
    ]);
    expect(history.at(-1)?.tracking_number).toBe("RA000000001RU");
    expect(order.paid_at).toBeInstanceOf(Date);
  });

  it("refuses a transition the state machine does not allow and changes nothing", async () => {
    const order = await buildOrder(t.db);
    await expect(changeOrderStatus(t.db, order.id, "paid", paymentActor)).rejects.toBeInstanceOf(OrderTransitionError);
    await expect(changeOrderStatus(t.db, order.id, "pending", paymentActor)).rejects.toThrow(/actor_not_allowed/);
    const history = await orderHistory(t.db, order.id);
    expect(history).toHaveLength(1);
  });

  it("treats the same change twice as one (a webhook delivered twice)", async () => {
    const order = await buildOrderIn(t.db, "pending");
    const results = await Promise.all([
      changeOrderStatus(t.db, order.id, "paid", paymentActor),
      changeOrderStatus(t.db, order.id, "paid", paymentActor),
    ]);
    expect(results.filter((result) => result.changed)).toHaveLength(1);
    const history = await orderHistory(t.db, order.id);
    expect(history.filter((row) => row.to_status === "paid")).toHaveLength(1);
  });

  it("releases the code with a deleted order so it can be drawn again", async () => {
    const order = await buildOrder(t.db);
    await t.db.deleteFrom("orders").where("id", "=", order.id).execute();
    const code = await t.db.selectFrom("order_codes").selectAll().where("code", "=", order.code).executeTakeFirst();
    expect(code).toBeUndefined();
  });
});
