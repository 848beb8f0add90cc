import { sql } from "kysely";
import type { Currency } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { keysetCasts, type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { containsPattern } from "./order-search.server";
import { isShortSearch, SHORT_SEARCH_WINDOW } from "./search-length";
import { PAID_SET } from "./status";

/**
 * The clients as the orders know them (staff side §2 "/backoffice/clients"): the e-mails of orders,
 * trimmed and lower-cased, one row each in client_summaries (kept by a trigger on orders); a client
 * "with payments" has an order in the paid set (DESIGN §4.2).
 */

export interface ClientPageQuery {
  /** Substring of the e-mail or of a name on the client's orders, any case. */
  search: string;
  /** Off: only clients with payments. Ignored while a search text is present (it searches everyone). */
  showAll: boolean;
  pageSize: number;
  /** Keyset (ADR 091): the page starts after / ends before the client with these sort values. */
  after?: Cursor | null;
  before?: Cursor | null;
  /** The paid sums count orders of the paid set paid within this many days. */
  paidWindowDays: number;
}

/** Latest order first, ties by e-mail. */
const CLIENT_KEYS: KeysetKey[] = [
  { expr: sql`s.last_order_at`, cast: "timestamptz", descending: true },
  { expr: sql`s.email`, cast: "text", descending: false },
];

/** How the list's cursor holds its values (an address without one of them is an old `?page=N` one, ADR 091). */
export const CLIENT_CURSOR_CASTS = keysetCasts(CLIENT_KEYS);

/**
 * The summaries of one page of clients, in the order to read them, with their sort values. A search
 * filters the clients before anything is added up: the e-mail by its trigram index, a name through
 * the orders' trigram index.
 */
function clientsPageQuery(db: DB, query: ClientPageQuery) {
  const plan = keysetPlan(CLIENT_KEYS, query.after ?? null, query.before ?? null);
  let page = db.selectFrom("client_summaries as s").select(["s.email", "s.orders_count", "s.paid_orders_count", "s.last_order_at"]);
  if (query.search) {
    const search = query.search;
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
  } else if (!query.showAll) {
    page = page.where("s.paid_orders_count", ">", 0);
  }
  if (plan.past) page = page.where(plan.past);
  let ordered = page.select(plan.select);
  for (const [key, direction] of plan.order) ordered = ordered.orderBy(key, direction);
  return { plan, rows: ordered.limit(query.pageSize + 1) };
}

/** One page of the clients as the summaries hold them, with its cursors: no names or sums (an old `?page=N` address's walk, ADR 091). */
export async function clientSummaryPage(db: DB, query: ClientPageQuery) {
  const { plan, rows } = clientsPageQuery(db, query);
  return plan.page(await rows.execute(), query.pageSize);
}

/**
 * One page of clients from client_summaries, in the order of their latest order, and one more row;
 * the figures only the page shows — the latest name, the paid sums — are read for the page's e-mails
 * alone, through orders_email_idx and orders_email_paid_idx (ADR 042).
 */
export async function clientPage(db: DB, query: ClientPageQuery) {
  const { plan, rows: page } = clientsPageQuery(db, query);
  const paidIn = (currency: Currency) =>
    sql<number>`(select coalesce(sum(o.total_cost), 0)::bigint from orders o
                  where o.email = client.email and o.paid_at >= now() - make_interval(days => ${query.paidWindowDays})
                    and o.status in (${sql.join(PAID_SET)}) and o.currency = ${currency})`;
  const rows = await db
    .selectFrom(page.as("client"))
    .leftJoin("client_settings", "client_settings.email", "client.email")
    .selectAll("client")
    .select([
      // The name on the client's latest order that has one.
      sql<string | null>`(select o.full_name from orders o where o.email = client.email and btrim(coalesce(o.full_name, '')) <> '' order by o.created_at desc limit 1)`.as("name"),
      paidIn("rub").as("paid_rub"),
      paidIn("eur").as("paid_eur"),
      sql<boolean>`client_settings.email is not null`.as("has_conditions"),
    ])
    .orderBy("client.last_order_at", plan.backwards ? "asc" : "desc")
    .orderBy("client.email", plan.backwards ? "desc" : "asc")
    .execute();
  return plan.page(rows, query.pageSize);
}
