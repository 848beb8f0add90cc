import { describe, expect, it } from "vitest";
import { paymentFailureToast } from "./payments.server";

/** Paying from the cabinet speaks the staff-side catalogue's words (staff side §8 "Payment from the cabinet"). */
describe("cabinet payment failures", () => {
  it("use the staff-side texts", () => {
    expect(paymentFailureToast("no_url", "cabinet")).toEqual({ type: "error", title: "payments.errors.title", description: "failures.cabinetPayment.noUrl" });
    expect(paymentFailureToast("refused", "cabinet").description).toBe("failures.cabinetPayment.createError");
    expect(paymentFailureToast("no_provider", "cabinet").description).toBe("failures.cabinetPayment.createFailed");
  });
  it("leave the wizard's texts as they were", () => {
    expect(paymentFailureToast("no_url").description).toBe("payments.errors.noUrl");
  });
});
