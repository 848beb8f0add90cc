import type { OrderStatus } from "~db/schema";
import type { FileCorrectionEntry } from "~/modules/orders/files.server";
import type { PackingEntry } from "~/modules/packer/packing.server";

/** What of an order makes its history: its status changes, staff's file corrections and the packer's mark. */
interface OrderHistory {
  history: DashboardHistoryEntry[];
  fileCorrections: FileCorrectionEntry[];
  packing: PackingEntry | null;
}

export interface DashboardHistoryEntry {
  id: string;
  at: string;
  from: OrderStatus | null;
  to: OrderStatus;
  actor: string;
  note: string | null;
  trackingNumber: string | null;
  carrier: string | null;
  /** This change undid an earlier one (ADR 062). */
  undoes: string | null;
  /** A later change undid this one. */
  undone: boolean;
  /** The order's latest change, made by staff, still undoable now (ADR 062). */
  undoable: boolean;
}

/**
 * An order's history as staff read it: status changes, staff's corrections of the files' jaw and
 * step (ADR 058) and the packer's "Упаковано" (ADR 068), oldest first. The order's own page shows
 * all of it; a dashboard card only its latest entry and how many there are (ADR 100).
 */
export function historyOf(order: OrderHistory) {
  const items = [
    ...order.history.map((entry) => ({ kind: "status" as const, at: entry.at, entry })),
    ...order.fileCorrections.map((entry) => ({ kind: "file" as const, at: entry.at, entry })),
    ...(order.packing ? [{ kind: "packed" as const, at: order.packing.at, entry: order.packing }] : []),
  ];
  // Stable: entries of one moment keep their kind's order.
  return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

export type HistoryItem = ReturnType<typeof historyOf>[number];

/** A card's history folded to its latest entry: what the dashboard sends and renders of it. */
export interface FoldedHistory {
  count: number;
  latest: HistoryItem | null;
}

/** The card with its history folded: the lists emptied (not sent to the browser), their count and latest entry kept. */
export function foldHistory<Card extends OrderHistory>(card: Card): Card & { folded: FoldedHistory } {
  const items = historyOf(card);
  return { ...card, history: [], fileCorrections: [], folded: { count: items.length, latest: items.at(-1) ?? null } };
}
