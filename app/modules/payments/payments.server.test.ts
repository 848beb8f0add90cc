import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/modules/config/config.server";
import type { Language } from "~/modules/i18n/languages";
import { resources } from "~/modules/i18n/resources.server";
import { createTranslator } from "~/modules/i18n/translate";
import { canHavePaymentLink, isValidPaymentLinkToken, paymentLinkPath } from "./payment-links.server";
import { linesForAmount, paymentFailureToast } from "./payments.server";

const texts = (language: Language) => createTranslator(resources[language].common, (key) => { throw new Error(`Missing translation: ${key}`); }, language);
const ORDER_ID = "3f2a0c1e-0000-4000-8000-000000000001";
const config = (secret: string) =>
  loadConfig({ APP_ENV: "test", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "aligner-pay-unit-")), SESSION_SECRET: secret, BACKOFFICE_PASSWORD: "b", PACKER_PASSWORD: "p", CRON_SECRET: "c" });

describe("payment links", () => {
  it("carry a token that only this order and this secret accept", () => {
    const link = paymentLinkPath(config("one"), ORDER_ID);
    expect(link).toMatch(new RegExp(`^/pay/${ORDER_ID}\\?t=[A-Za-z0-9_-]{32}$`));
    const token = new URL(link, "http://x").searchParams.get("t");
    expect(isValidPaymentLinkToken(config("one"), ORDER_ID, token)).toBe(true);
    expect(isValidPaymentLinkToken(config("two"), ORDER_ID, token)).toBe(false);
    expect(isValidPaymentLinkToken(config("one"), "3f2a0c1e-0000-4000-8000-000000000002", token)).toBe(false);
    expect(isValidPaymentLinkToken(config("one"), ORDER_ID, null)).toBe(false);
    expect(isValidPaymentLinkToken(config("one"), ORDER_ID, "short")).toBe(false);
  });

  it("exist only for drafts and pending orders with a total", () => {
    expect(canHavePaymentLink({ status: "draft", total_cost: 100 })).toBe(true);
    expect(canHavePaymentLink({ status: "pending", total_cost: 100 })).toBe(true);
    expect(canHavePaymentLink({ status: "pending", total_cost: 0 })).toBe(false);
    expect(canHavePaymentLink({ status: "draft", total_cost: null })).toBe(false);
    expect(canHavePaymentLink({ status: "paid", total_cost: 100 })).toBe(false);
  });
});

describe("payment lines for an amount", () => {
  it("keeps lines that add up and replaces the rest by one line for the order", () => {
    const lines = [
      { description: "Матрицы твердые для Смирнова Е.", quantity: 2, price: 100_000 },
      { description: "Упаковка и доставка", quantity: 1, price: 150_000 },
    ];
    const ru = texts("ru");
    const whole = { key: "payments.orderDescription", values: { number: "3F2A0C" } };
    expect(linesForAmount(ORDER_ID, 350_000, lines, ru)).toBe(lines);
    expect(linesForAmount(ORDER_ID, 360_000, lines, ru)).toEqual([{ description: "Aligner order №3F2A0C", quantity: 1, price: 360_000, text: whole }]);
    expect(linesForAmount(ORDER_ID, 360_000, [], ru)).toEqual([{ description: "Aligner order №3F2A0C", quantity: 1, price: 360_000, text: whole }]);
  });

  it("words the one line in the order's language", () => {
    expect(linesForAmount(ORDER_ID, 1500, [], texts("es"))[0]!.description).toBe("Pedido de alineadores n.º 3F2A0C");
    expect(linesForAmount(ORDER_ID, 1500, [], texts("fr"))[0]!.description).toBe("Commande d'aligneurs n°\u00a03F2A0C");
  });
});

describe("payment failure messages", () => {
  it("say the spec's words, and ask to try again where that helps", () => {
    expect(paymentFailureToast("unavailable")).toEqual({ type: "error", title: "payments.errors.title", description: "payments.errors.unavailable" });
    expect(paymentFailureToast("refused")).toEqual({ type: "error", title: "payments.errors.title", description: "payments.errors.createFailed", lines: [{ key: "payments.errors.tryAgain" }] });
    expect(paymentFailureToast("no_url")).toMatchObject({ description: "payments.errors.noUrl", lines: [{ key: "payments.errors.tryAgain" }] });
    expect(paymentFailureToast("no_provider").description).toBe("payments.errors.failed");
  });
});
