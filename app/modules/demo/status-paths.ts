import type { MarketColumn, OrderStatus } from "~db/schema";
import { DEMO, type Path } from "./data";
import { DAY, HOUR, MINUTE, type Random } from "./random";

/**
 * The status paths of the demo orders: each planned path (`demo/data.json`) as the steps an order
 * takes through the state machine, with who takes each and how long after the one before.
 */

export interface Step {
  to: OrderStatus;
  actor: "customer" | "payment" | "staff";
  /** Time after the previous step. */
  after: number;
  note?: string;
  tracking?: boolean;
}
export function stepsFor(path: Path, random: Random): Step[] {
  const toPending = (): Step => ({ to: "pending", actor: "customer", after: random.int(20, 120) * MINUTE });
  const toPaid = (): Step => ({ to: "paid", actor: "payment", after: random.int(2, 15) * MINUTE });
  const toProcessing = (): Step => ({ to: "processing", actor: "staff", after: random.int(2, 20) * HOUR });
  const toShipped = (): Step => ({ to: "shipped", actor: "staff", after: random.int(24, 48) * HOUR, tracking: true });
  const toCompleted = (): Step => ({ to: "completed", actor: "staff", after: random.int(2, 5) * DAY });
  switch (path) {
    case "draft":
      return [];
    case "returned":
      return [toPending(), { to: "draft", actor: "customer", after: random.int(5, 40) * MINUTE }];
    case "pending":
      return [toPending()];
    case "paid":
    case "paid_retry":
      return [toPending(), toPaid()];
    case "processing":
      return [toPending(), toPaid(), toProcessing()];
    case "shipped":
      return [toPending(), toPaid(), toProcessing(), toShipped()];
    case "completed_shipped":
      return [toPending(), toPaid(), toProcessing(), toShipped(), toCompleted()];
    case "completed_paid":
      return [toPending(), toPaid(), { to: "completed", actor: "staff", after: random.int(3, 6) * DAY }];
    case "completed_processing":
      return [toPending(), toPaid(), toProcessing(), { to: "completed", actor: "staff", after: random.int(2, 4) * DAY }];
    case "cancelled_draft":
      return [{ to: "cancelled", actor: "staff", after: random.int(3, 10) * DAY, note: DEMO.cancelNotes.draft }];
    case "cancelled_pending":
      return [toPending(), { to: "cancelled", actor: "staff", after: random.int(2, 6) * DAY, note: DEMO.cancelNotes.pending }];
    case "cancelled_paid":
      return [toPending(), toPaid(), { to: "cancelled", actor: "staff", after: random.int(3, 12) * HOUR, note: DEMO.cancelNotes.paid }];
    case "cancelled_processing":
      return [toPending(), toPaid(), toProcessing(), { to: "cancelled", actor: "staff", after: random.int(4, 20) * HOUR, note: DEMO.cancelNotes.processing }];
  }
}

/** A tracking number of the market's carriers, for a shipped step. */
export function trackingNumber(random: Random, market: MarketColumn): string {
  if (market === "international") return `JJD0000${random.int(100_000_000, 999_999_999)}`; // DHL
  if (random.chance(0.5)) return `RA${random.int(100_000_000, 999_999_999)}RU`; // Russian Post
  return `${random.int(1_000_000_000, 9_999_999_999)}`; // CDEK waybill
}
