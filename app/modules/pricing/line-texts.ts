import type { PriceLineKind } from "./calculate";

/** The wording of price and payment lines (customer-side §9): the receipt's texts, in Russian and English. */

export type PaymentLanguage = "ru" | "en";

/** YooKassa's limit on a receipt item's description. */
const MAX_DESCRIPTION_LENGTH = 128;

export const LINE_TEXTS: Readonly<
  Record<PaymentLanguage, Readonly<Record<PriceLineKind, string>>>
> = Object.freeze({
  ru: Object.freeze({
    aligners_single: "Элайнеры 1-слойные для {name}",
    aligners_three: "Элайнеры 3-слойные для {name}",
    matrices_soft: "Матрицы мягкие для {name}",
    matrices_hard: "Матрицы твердые для {name}",
    retainers: "Ретейнеры для {name}",
    delivery: "Упаковка и доставка",
    service_fee: "Сервисный сбор",
  }),
  en: Object.freeze({
    aligners_single: "Single-layer aligners for {name}",
    aligners_three: "Three-layer aligners for {name}",
    matrices_soft: "Soft matrices for {name}",
    matrices_hard: "Hard matrices for {name}",
    retainers: "Retainers for {name}",
    delivery: "Packaging and delivery",
    service_fee: "Service fee",
  }),
});

/** The wording of a line, with the patient's name filled in (at most 128 characters). */
export function lineText(
  kind: PriceLineKind,
  language: PaymentLanguage,
  patientName = ""
): string {
  const text = LINE_TEXTS[language][kind].replace("{name}", patientName.trim());
  const chars = Array.from(text);
  return chars.length > MAX_DESCRIPTION_LENGTH
    ? chars.slice(0, MAX_DESCRIPTION_LENGTH).join("")
    : text;
}

/** "Aligner order №" + the first 6 characters of the order id, upper-case (customer-side §9). */
export function paymentDescription(orderId: string): string {
  return `Aligner order №${orderId.slice(0, 6).toUpperCase()}`;
}
