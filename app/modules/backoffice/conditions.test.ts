import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { checkInBrowser } from "~/modules/validation/browser";
import { BAD_CHARACTERS } from "~/modules/validation/text";
import { conditionsFormDefaults } from "./conditions";
import { conditionsSchema } from "./conditions-forms";
import { toConditionsValues } from "./conditions.server";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return parseWithZod(data, { schema: conditionsSchema });
}

describe("the conditions form", () => {
  it("shows stored minor units as major units and falls back to the general aligner price", () => {
    expect(
      conditionsFormDefaults(
        {
          currency: "eur",
          aligner_price: 1290,
          aligner_single_layer_price: null,
          aligner_three_layer_price: 1390,
          matrix_price: null,
          retainer_standard_price: 90_000,
          retainer_premium_price: null,
          discount_percentage: "7.50",
          personal_comment: null,
        },
        "rub",
      ),
    ).toEqual({
      currency: "eur",
      alignerPrice: "12.90",
      alignerSingleLayerPrice: "12.90",
      alignerThreeLayerPrice: "13.90",
      matrixPrice: "",
      retainerStandardPrice: "900",
      retainerPremiumPrice: "",
      discountPercentage: "7.5",
      personalComment: "",
      internalComment: "",
    });
    expect(conditionsFormDefaults(null, "eur").currency).toBe("eur");
  });

  it("saves empty, zero and missing numbers as null and parses strings as numbers", () => {
    const submission = form({ email: " Clinic@Example.RU ", currency: "rub", alignerPrice: "0", alignerSingleLayerPrice: "850", matrixPrice: "12.5", discountPercentage: "0", personalComment: "  " });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.email).toBe("clinic@example.ru");
    expect(toConditionsValues(submission.value)).toEqual({
      currency: "rub",
      aligner_price: null,
      aligner_single_layer_price: 85_000,
      aligner_three_layer_price: null,
      matrix_price: 1_250,
      retainer_standard_price: null,
      retainer_premium_price: null,
      discount_percentage: null,
      personal_comment: null,
      internal_comment: null,
    });
  });

  it.each([
    [{ alignerPrice: "-1" }, "alignerPrice", "bo.conditions.errors.negative"],
    [{ matrixPrice: "abc" }, "matrixPrice", "bo.conditions.errors.number"],
    [{ discountPercentage: "100.5" }, "discountPercentage", "bo.conditions.errors.discountMax"],
    [{ discountPercentage: "-0.5" }, "discountPercentage", "bo.conditions.errors.negative"],
    [{ retainerStandardPrice: "10.005" }, "retainerStandardPrice", "bo.conditions.errors.decimals"],
    [{ currency: "usd" }, "currency", "bo.conditions.errors.currency"],
  ])("refuses %o", (values, field, message) => {
    const submission = form({ email: "clinic@example.ru", currency: "rub", ...values });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.[field]).toEqual([message]);
  });

  it("accepts the limits: 0 and 100 % discount, cents", () => {
    expect(form({ email: "a@b.ru", currency: "eur", discountPercentage: "100", alignerPrice: "12.99" }).status).toBe("success");
  });

  it.each([
    ["matrixPrice", { matrixPrice: "1e300" }, "bo.conditions.errors.tooLarge"],
    ["discountPercentage", { discountPercentage: "NaN" }, "bo.conditions.errors.number"],
    ["alignerPrice", { alignerPrice: "0x10" }, "bo.conditions.errors.number"],
    ["personalComment", { personalComment: "x".repeat(2001) }, "bo.conditions.errors.commentLength"],
    ["personalComment", { personalComment: "VIP\u0000" }, BAD_CHARACTERS],
    ["email", { email: "not-an-address" }, "bo.conditions.errors.email"],
    ["email", { email: "" }, "bo.conditions.errors.email"],
  ])("refuses a bad %s with one message", (field, values, message) => {
    const submission = form({ email: "clinic@example.ru", currency: "rub", ...values });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.[field]).toEqual([message]);
  });

  it("reads prices as typed in Russian: spaces between thousands, a decimal comma, the currency sign", () => {
    const submission = form({ email: "a@b.ru", currency: "rub", alignerPrice: "1 290,50", matrixPrice: "850 ₽", discountPercentage: "7,5 %" });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(toConditionsValues(submission.value)).toMatchObject({ aligner_price: 129_050, matrix_price: 85_000, discount_percentage: 7.5 });
  });

  it.each([
    ["four bad fields", { alignerPrice: "-1", discountPercentage: "150", matrixPrice: "abc", personalComment: "x".repeat(2001) }],
    ["a bad e-mail and currency", { email: "not-an-address", currency: "usd" }],
    ["no e-mail, three decimals", { email: "", retainerStandardPrice: "10.005" }],
    ["a good form", { alignerPrice: "1 290,50", discountPercentage: "0", personalComment: "  VIP  " }],
  ])("says in the browser what the server says: %s", (_name, values) => {
    const data = new FormData();
    for (const [name, value] of Object.entries({ email: "clinic@example.ru", currency: "rub", ...values })) data.append(name, value);
    const server = parseWithZod(data, { schema: conditionsSchema });
    const browser = checkInBrowser(data, conditionsSchema);
    expect(browser.status).toBe(server.status);
    expect(browser.status === "success" ? browser.value : browser.error).toEqual(server.status === "success" ? server.value : server.error);
  });
});

describe("the base price beside each field", () => {
  it("names the prices the order's pricing falls back to, in the conditions' currency", async () => {
    const { basePriceHint } = await import("./conditions");
    const { calculateOrderPrice } = await import("~/modules/pricing/calculate");
    const base = calculateOrderPrice({ currency: "rub", conditions: null, isNewCustomer: false, patients: [] }).unitPrices;
    const rub = (minor: number) => `${new Intl.NumberFormat("ru-RU", { maximumFractionDigits: 0 }).format(minor / 100)}\u00a0₽`;
    expect(basePriceHint("alignerSingleLayerPrice", "rub", "ru")).toEqual({ key: "bo.conditions.hints.layerPrice", values: { price: rub(base.singleLayer) } });
    expect(basePriceHint("alignerPrice", "rub", "ru").values).toEqual({ single: rub(base.singleLayer), three: rub(base.threeLayer) });
    expect(basePriceHint("matrixPrice", "rub", "ru").values).toEqual({ price: rub(base.matrix) });
    expect(basePriceHint("retainerStandardPrice", "eur", "en").values).toEqual({ price: "€14.90" });
    expect(basePriceHint("retainerPremiumPrice", "rub", "ru")).toEqual({ key: "bo.conditions.hints.retainerPremium" });
  });
});
