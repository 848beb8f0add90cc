import type { Translate } from "~/modules/i18n/translate";
import { isGoodsLine, type PriceBreakdown } from "./calculate";
import { lineText, lineTextKey } from "./line-texts";

/** The payment provider's lines of a price breakdown: the discount spread so the receipt adds up. */

/** A line of what the order sends its payment provider; amounts in minor units (DESIGN §4.11). */
export interface PaymentLine {
  /** The line's wording as sent to the provider, in the order's language (ADR 043). */
  description: string;
  quantity: number;
  /** Unit price in minor units. */
  price: number;
  /** The locale key and values the description was made from, so a page can word it in its reader's language. */
  text?: LineTextRef;
}

/** A text by locale key: `payments.lines.delivery`, `{ name: "Anna" }`. */
export interface LineTextRef {
  key: string;
  values?: Record<string, string>;
}

/**
 * The discount share of each goods line, by the largest-remainder method: floor(amount × D / G)
 * each, then the leftover kopecks one by one to the largest remainders (earlier line on a tie).
 * No share exceeds its line's amount, and the shares add up to D exactly.
 */
function spreadDiscount(
  amounts: readonly number[],
  discount: number
): number[] {
  const subtotal = amounts.reduce((sum, amount) => sum + amount, 0);
  if (discount === 0 || subtotal === 0) return amounts.map(() => 0);
  const G = BigInt(subtotal);
  const D = BigInt(discount);
  const shares = amounts.map((amount) => {
    const exact = BigInt(amount) * D;
    return { share: Number(exact / G), remainder: exact % G };
  });
  let leftover = discount - shares.reduce((sum, s) => sum + s.share, 0);
  const order = shares
    .map((s, index) => ({ index, remainder: s.remainder }))
    .sort((a, b) =>
      a.remainder === b.remainder
        ? a.index - b.index
        : a.remainder > b.remainder
        ? -1
        : 1
    );
  for (const { index } of order) {
    if (leftover === 0) break;
    shares[index]!.share += 1;
    leftover -= 1;
  }
  return shares.map((s) => s.share);
}

/**
 * The lines for the payment provider: `price × quantity` add up exactly to `breakdown.total`.
 * The discount is spread over the goods lines; a line whose discounted amount does not divide by
 * its quantity becomes (q − 1) × p and 1 × (p + remainder). Delivery and the service fee are never
 * discounted. Every price is an integer ≥ 0 and no line has a zero amount. The wording comes from
 * `t` (the order's language for the provider); each line keeps its key so a page can reword it.
 */
export function paymentLines(
  breakdown: PriceBreakdown,
  t: Translate
): PaymentLine[] {
  const goods = breakdown.lines.filter(isGoodsLine);
  const shares = spreadDiscount(
    goods.map((line) => line.amount),
    breakdown.discountAmount
  );
  const result: PaymentLine[] = [];
  let text: PaymentLine["text"];
  const push = (description: string, quantity: number, price: number) => {
    if (quantity > 0 && price > 0)
      result.push({ description, quantity, price, text });
  };
  let goodsIndex = 0;
  for (const line of breakdown.lines) {
    const description = lineText(line.kind, t, line.patientName);
    text = { key: lineTextKey(line.kind), values: { name: (line.patientName ?? "").trim() } };
    if (!isGoodsLine(line)) {
      push(description, line.quantity, line.unitPrice);
      continue;
    }
    const net = line.amount - shares[goodsIndex++]!;
    const price = Math.floor(net / line.quantity);
    const remainder = net - price * line.quantity;
    if (remainder === 0) {
      push(description, line.quantity, price);
    } else {
      push(description, line.quantity - 1, price);
      push(description, 1, price + remainder);
    }
  }
  return result;
}
