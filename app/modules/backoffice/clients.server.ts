import { sql } from "kysely";
import type { ClientSettings, Currency } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { PAID_SET } from "~/modules/orders/status";

/**
 * The clients screen (staff side §2 "/backoffice/clients"): clients are the e-mails of orders,
 * trimmed and lower-cased; a client "with payments" has an order in the paid set (DESIGN §4.2).
 */

export const CLIENTS_PAGE_SIZE = 50;
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

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function parseClientFilter(params: URLSearchParams): ClientFilter {
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    search: (params.get("q") ?? "").trim().slice(0, 200),
    showAll: params.get("all") === "1",
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

export async function listClients(db: DB, filter: ClientFilter): Promise<{ clients: ClientRow[]; hasMore: boolean }> {
  const email = sql<string>`lower(btrim(orders.email))`;
  const paid = sql<boolean>`orders.status in (${sql.join(PAID_SET)})`;
  const recent = sql<boolean>`${paid} and orders.paid_at >= now() - make_interval(days => ${PAID_WINDOW_DAYS})`;
  let query = db
    .selectFrom("orders")
    .where("orders.email", "is not", null)
    .select([
      email.as("email"),
      sql<string | null>`(array_agg(orders.full_name order by orders.created_at desc) filter (where btrim(coalesce(orders.full_name, '')) <> ''))[1]`.as("name"),
      sql<number>`count(*)::int`.as("orders"),
      sql<boolean>`coalesce(bool_or(${paid}), false)`.as("ever_paid"),
      sql<number>`coalesce(sum(orders.total_cost) filter (where ${recent} and orders.currency = 'rub'), 0)::bigint`.as("paid_rub"),
      sql<number>`coalesce(sum(orders.total_cost) filter (where ${recent} and orders.currency = 'eur'), 0)::bigint`.as("paid_eur"),
      sql<Date>`max(orders.created_at)`.as("last_order_at"),
    ])
    .groupBy(email);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    query = query.having((eb) => eb.or([eb(email, "ilike", pattern), eb(sql<boolean>`bool_or(orders.full_name ilike ${pattern})`, "=", true)]));
  } else if (!filter.showAll) {
    query = query.having(sql<boolean>`bool_or(${paid})`, "=", true);
  }
  const rows = await db
    .selectFrom(query.as("client"))
    .leftJoin("client_settings", "client_settings.email", "client.email")
    .selectAll("client")
    .select(sql<boolean>`client_settings.email is not null`.as("has_conditions"))
    .orderBy("client.last_order_at", "desc")
    .orderBy("client.email")
    .limit(CLIENTS_PAGE_SIZE + 1)
    .offset((filter.page - 1) * CLIENTS_PAGE_SIZE)
    .execute();
  return {
    hasMore: rows.length > CLIENTS_PAGE_SIZE,
    clients: rows.slice(0, CLIENTS_PAGE_SIZE).map((row) => ({
      email: row.email,
      name: row.name,
      orders: Number(row.orders),
      everPaid: Boolean(row.ever_paid),
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
    .where(sql<string>`lower(btrim(email))`, "=", email)
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
