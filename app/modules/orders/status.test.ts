import { describe, expect, it } from "vitest";
import {
  type ActorKind,
  ORDER_STATUSES,
  PAID_SET,
  EXISTING_CUSTOMER_SET,
  canPay,
  checkTransition,
  isEditable,
  nextStatuses,
} from "./status";

const ACTORS: ActorKind[] = ["customer", "staff", "payment", "system"];

/** The allowed transitions exactly as DESIGN §4.1 lists them, with who may make each. */
const ALLOWED: Record<string, ActorKind[]> = {
  "draft→pending": ["customer", "staff"],
  "pending→draft": ["customer", "staff"],
  "pending→paid": ["payment"],
  "paid→processing": ["staff"],
  "processing→shipped": ["staff"],
  "shipped→completed": ["staff"],
  "paid→completed": ["staff"],
  "processing→completed": ["staff"],
  "draft→cancelled": ["staff"],
  "pending→cancelled": ["staff"],
  "paid→cancelled": ["staff"],
  "processing→cancelled": ["staff"],
};

const fullDetails = { note: "клиент отказался", trackingNumber: "RA123456789RU" };

describe("order state machine", () => {
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      const allowedActors = ALLOWED[`${from}→${to}`];
      for (const actor of ACTORS) {
        const expected = allowedActors?.includes(actor) ?? false;
        it(`${expected ? "allows" : "refuses"} ${from} → ${to} by ${actor}`, () => {
          const result = checkTransition(from, to, actor, fullDetails);
          expect(result.ok).toBe(expected);
          if (!expected) {
            expect(result).toEqual({ ok: false, reason: allowedActors ? "actor_not_allowed" : "not_allowed" });
          }
        });
      }
    }
  }

  it("requires a tracking number to ship", () => {
    expect(checkTransition("processing", "shipped", "staff")).toEqual({ ok: false, reason: "tracking_required" });
    expect(checkTransition("processing", "shipped", "staff", { trackingNumber: "  " })).toEqual({ ok: false, reason: "tracking_required" });
    expect(checkTransition("processing", "shipped", "staff", { trackingNumber: "RA1" }).ok).toBe(true);
  });

  it("requires a note to cancel a paid or processing order, not a draft", () => {
    expect(checkTransition("paid", "cancelled", "staff")).toEqual({ ok: false, reason: "note_required" });
    expect(checkTransition("processing", "cancelled", "staff", { note: "" })).toEqual({ ok: false, reason: "note_required" });
    expect(checkTransition("draft", "cancelled", "staff").ok).toBe(true);
    expect(checkTransition("pending", "cancelled", "staff").ok).toBe(true);
  });

  it("offers staff the next statuses of a paid order", () => {
    expect(nextStatuses("paid", "staff").sort()).toEqual(["cancelled", "completed", "processing"]);
    expect(nextStatuses("completed", "staff")).toEqual([]);
    expect(nextStatuses("cancelled", "staff")).toEqual([]);
  });
});

describe("status sets", () => {
  it("counts paid, processing, shipped and completed as paid", () => {
    expect([...PAID_SET].sort()).toEqual(["completed", "paid", "processing", "shipped"]);
  });
  it("treats pending as an existing customer for the new-customer discount", () => {
    expect([...EXISTING_CUSTOMER_SET].sort()).toEqual(["completed", "paid", "pending", "processing", "shipped"]);
  });
  it("lets only drafts change composition", () => {
    expect(ORDER_STATUSES.filter(isEditable)).toEqual(["draft"]);
  });
  it("shows the pay button only for pending orders with a total above 0", () => {
    expect(canPay("pending", 1)).toBe(true);
    expect(canPay("pending", 0)).toBe(false);
    expect(canPay("pending", null)).toBe(false);
    for (const status of ORDER_STATUSES.filter((s) => s !== "pending")) expect(canPay(status, 100000)).toBe(false);
  });
});
