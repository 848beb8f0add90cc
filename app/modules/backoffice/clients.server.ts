import { sql } from "kysely";
import type { ClientSettings, Currency } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { clientPage, clientSummaryPage } from "~/modules/orders/client-list.server";
import { latestOrderCurrency } from "~/modules/orders/customers.server";
import * as z from "zod/mini";
import { CLIENTS_PAGE_SIZE } from "./client-list";
import { EMAIL_MAX } from "~/modules/validation/email";
import { type Cursor, flag, listQuerySchema, readQuery } from "~/modules/http/request/list-query";

/**
 * The clients screen (staff side §2 "/backoffice/clients"): clients are the e-mails of orders,
 * trimmed and lower-cased; a client "with payments" has an order in the paid set (DESIGN §4.2).
 */

/** The paid-last-30-days sum counts orders of the paid set paid within this many days. */
export const PAID_WINDOW_DAYS = 30;

export interface ClientFilter {
  /** Substring of the e-mail or of a name on the client's orders, any case. */
  search: string;
  /** Off: only clients with payments. Ignored while a search text is present (it searches everyone). */
  showAll: boolean;
  page: number;
  /** Keyset cursors of the pager's links (ADR 091). */
  after?: Cursor | null;
  before?: Cursor | null;
}

export interface ClientRow {
  email: string;
  name: string | null;
  orders: number;
  everPaid: boolean;
  /** Sums of the paid set paid in the last 30 days, per currency, in minor units. */
  paidLast30: Array<{ currency: Currency; amount: number }>;
  lastOrderAt: Date;
  hasConditions: boolean;
}

/** The clients list's address (ADR 067): the kit's page and search, the "all clients" switch and the open conditions dialog. */
export const clientsQuery = listQuerySchema({}, { all: flag, client: z.pipe(z.unknown(), z.transform((value) => (typeof value === "string" && value.length <= EMAIL_MAX ? value : null))) });

export function parseClientFilter(source: Request | URL | URLSearchParams): ClientFilter & { client: string | null } {
  const query = readQuery(source, clientsQuery);
  return { search: query.q, showAll: query.all, page: query.page, after: query.after, before: query.before, client: query.client };
}

/** The page of clients the filter names, its summaries and cursors alone (an old `?page=N` address's walk, ADR 091). */
export function clientSummaries(db: DB, filter: ClientFilter) {
  return clientSummaryPage(db, { search: filter.search, showAll: filter.showAll, after: filter.after ?? null, before: filter.before ?? null, pageSize: CLIENTS_PAGE_SIZE, paidWindowDays: PAID_WINDOW_DAYS });
}

/**
 * One page of clients, in the order of their latest order, with the latest name on their orders and
 * their sums of the last `PAID_WINDOW_DAYS` (the order data's `clientPage`, ADR 042).
 */
export async function listClients(db: DB, filter: ClientFilter): Promise<{ clients: ClientRow[]; hasMore: boolean; cursors: { next: string | null; previous: string | null } }> {
  const { rows, hasMore, cursors } = await clientPage(db, { search: filter.search, showAll: filter.showAll, after: filter.after ?? null, before: filter.before ?? null, pageSize: CLIENTS_PAGE_SIZE, paidWindowDays: PAID_WINDOW_DAYS });
  return {
    hasMore,
    cursors,
    clients: rows.map((row) => ({
      email: row.email,
      name: row.name,
      orders: Number(row.orders_count),
      everPaid: Number(row.paid_orders_count) > 0,
      paidLast30: [
        { currency: "rub" as const, amount: Number(row.paid_rub) },
        { currency: "eur" as const, amount: Number(row.paid_eur) },
      ].filter((sum) => sum.amount > 0),
      lastOrderAt: new Date(row.last_order_at),
      hasConditions: Boolean(row.has_conditions),
    })),
  };
}

/** Whether any order carries this e-mail (conditions are kept for clients the screen lists). */
export async function isKnownClient(db: DB, email: string): Promise<{ currency: Currency } | null> {
  const currency = await latestOrderCurrency(db, email);
  return currency ? { currency } : null;
}

export async function findConditions(db: DB, email: string): Promise<ClientSettings | undefined> {
  return db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirst();
}

/** The fields the conditions form writes; `null` clears a value (the base price or no discount applies). */
export interface ConditionsValues {
  currency: Currency;
  aligner_price: number | null;
  aligner_single_layer_price: number | null;
  aligner_three_layer_price: number | null;
  matrix_price: number | null;
  retainer_standard_price: number | null;
  retainer_premium_price: number | null;
  discount_percentage: number | null;
  personal_comment: string | null;
  internal_comment: string | null;
}

/** Upsert by e-mail; the notification channel the client chose stays as it is. */
export async function saveConditions(db: DB, email: string, values: ConditionsValues): Promise<void> {
  await db
    .insertInto("client_settings")
    .values({ email, ...values })
    .onConflict((oc) => oc.column("email").doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .execute();
}
