import { describe, expect, it } from "vitest";
import { canOpenOrder, type OrderViewer } from "./access";

const order = { id: "3f2a0c1e-0000-4000-8000-000000000001", email: "clinic@example.ru" };
const stranger: OrderViewer = { browserOrderIds: [], userEmail: null, isStaff: false };

describe("who may open an order", () => {
  it("lets the browser that created the order open it", () => {
    expect(canOpenOrder(order, { ...stranger, browserOrderIds: ["other", order.id] })).toBe(true);
  });
  it("lets a signed-in user with the order's e-mail open it, ignoring case and spaces", () => {
    expect(canOpenOrder(order, { ...stranger, userEmail: " Clinic@Example.RU " })).toBe(true);
  });
  it("lets staff open any order", () => {
    expect(canOpenOrder(order, { ...stranger, isStaff: true })).toBe(true);
  });
  it("refuses anyone else", () => {
    expect(canOpenOrder(order, stranger)).toBe(false);
    expect(canOpenOrder(order, { ...stranger, userEmail: "other@example.ru", browserOrderIds: ["x"] })).toBe(false);
  });
  it("never matches an order without e-mail to a signed-in user", () => {
    expect(canOpenOrder({ ...order, email: null }, { ...stranger, userEmail: "clinic@example.ru" })).toBe(false);
    expect(canOpenOrder({ ...order, email: "" }, { ...stranger, userEmail: "" })).toBe(false);
  });
});
