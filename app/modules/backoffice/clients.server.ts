import { sql } from "kysely";
import type { ClientSettings, Currency } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { containsPattern } from "~/modules/orders/order-search.server";
import { isShortSearch, SHORT_SEARCH_WINDOW } from "~/modules/orders/search-length";
import { PAID_SET } from "~/modules/orders/status";
import * as z from "zod/mini";
import { CLIENTS_PAGE_SIZE } from "./client-list";
import { EMAIL_MAX } from "~/modules/validation/email";
import { flag, listQuerySchema, readListQuery } from "~/modules/http/list-query";

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
  const query = readListQuery(source, clientsQuery);
  return { search: query.q, showAll: query.all, page: query.page, client: query.client };
}

/**
 * One page of clients from client_summaries (one row per e-mail, kept by a trigger on orders), in
 * the order of their latest order; the figures only the page shows — the latest name, the 30-day
 * sums — are read for the page's e-mails alone, through orders_email_idx and orders_email_paid_idx
 * (ADR 042). A search filters the clients before anything is added up: the e-mail by its trigram
 * index, a name through the orders' trigram index.
 */
export async function listClients(db: DB, filter: ClientFilter): Promise<{ clients: ClientRow[]; hasMore: boolean }> {
  let page = db.selectFrom("client_summaries as s").select(["s.email", "s.orders_count", "s.paid_orders_count", "s.last_order_at"]);
  if (filter.search) {
    const search = filter.search;
    page = page.where((eb) =>
      eb.or([
        eb("s.email", "ilike", containsPattern(search)),
        eb("s.email", "in", (sub) => {
          const named = sub.selectFrom("orders").select("orders.email").where("orders.email", "is not", null);
          // Below three characters there is no trigram: a name is looked for among the newest orders only.
          return !isShortSearch(search)
            ? named.where("orders.full_name", "ilike", containsPattern(search))
            : named
                .where(sql<boolean>`strpos(lower(orders.full_name), lower(${search})) > 0`)
                .where(sql<boolean>`orders.created_at >= coalesce((select w.created_at from orders w order by w.created_at desc offset ${SHORT_SEARCH_WINDOW - 1} limit 1), '-infinity')`);
        }),
      ]),
    );
  } else if (!filter.showAll) {
    page = page.where("s.paid_orders_count", ">", 0);
  }
  const paidIn = (currency: Currency) =>
    sql<number>`(select coalesce(sum(o.total_cost), 0)::bigint from orders o
                  where o.email = client.email and o.paid_at >= now() - make_interval(days => ${PAID_WINDOW_DAYS})
                    and o.status in (${sql.join(PAID_SET)}) and o.currency = ${currency})`;
  const rows = await db
    .selectFrom(page.orderBy("s.last_order_at", "desc").orderBy("s.email").limit(CLIENTS_PAGE_SIZE + 1).offset((filter.page - 1) * CLIENTS_PAGE_SIZE).as("client"))
    .leftJoin("client_settings", "client_settings.email", "client.email")
    .selectAll("client")
    .select([
      // The name on the client's latest order that has one.
      sql<string | null>`(select o.full_name from orders o where o.email = client.email and btrim(coalesce(o.full_name, '')) <> '' order by o.created_at desc limit 1)`.as("name"),
      paidIn("rub").as("paid_rub"),
      paidIn("eur").as("paid_eur"),
      sql<boolean>`client_settings.email is not null`.as("has_conditions"),
    ])
    .orderBy("client.last_order_at", "desc")
    .orderBy("client.email")
    .execute();
  return {
    hasMore: rows.length > CLIENTS_PAGE_SIZE,
    clients: rows.slice(0, CLIENTS_PAGE_SIZE).map((row) => ({
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
  const row = await db
    .selectFrom("orders")
    .select("currency")
    // E-mails are stored trimmed and lower-cased (a check on orders), so orders_email_idx serves this.
    .where("email", "=", email)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { currency: row.currency } : null;
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
}

/** Upsert by e-mail; the notification channel the client chose stays as it is. */
export async function saveConditions(db: DB, email: string, values: ConditionsValues): Promise<void> {
  await db
    .insertInto("client_settings")
    .values({ email, ...values })
    .onConflict((oc) => oc.column("email").doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .execute();
}
