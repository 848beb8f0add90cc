import type { Translate } from "~/modules/i18n/translate";
import type { PriceLineKind } from "./calculate";

/**
 * The wording of price and payment lines (customer-side §9) comes from the locale files
 * (`payments.lines.*`, `payments.orderDescription`), in the reader's language on pages and in the
 * order's recorded language for what is sent to the payment provider (ADR 043). This module only
 * fills in the names and keeps the provider's length limit; it holds no sentence of its own.
 */

/** YooKassa's limit on a receipt item's description. */
const MAX_DESCRIPTION_LENGTH = 128;

/** The locale key of a line's wording. */
export const lineTextKey = (kind: PriceLineKind) => `payments.lines.${kind}`;

function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length > MAX_DESCRIPTION_LENGTH ? chars.slice(0, MAX_DESCRIPTION_LENGTH).join("") : text;
}

/** The wording of a line, with the patient's name filled in (at most 128 characters). */
export function lineText(kind: PriceLineKind, t: Translate, patientName = ""): string {
  return clip(t(lineTextKey(kind), { name: patientName.trim() }));
}

/** The order's 6-character number in the payment description (customer-side §9: "Aligner order №…"). */
export const paymentNumber = (orderId: string) => orderId.slice(0, 6).toUpperCase();

/** The payment's description: "Aligner order №3F2A9C" in the spec's Russian, the reader's words elsewhere. */
export function paymentDescription(orderId: string, t: Translate): string {
  return clip(t("payments.orderDescription", { number: paymentNumber(orderId) }));
}
