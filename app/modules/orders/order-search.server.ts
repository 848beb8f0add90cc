import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "~db/schema";
import { isShortSearch, SHORT_SEARCH_WINDOW } from "./search-length";

/**
 * One order search for the back-office and the packer (ADR 042): a text finds orders by their code
 * or id prefix, and by a substring of the client's name, e-mail, phone (where the page may show it)
 * and the patients' names, in any case. Every way of matching is a branch an index serves — the
 * order code's index, the trigram indexes (pg_trgm) of the text columns, the patients' trigram index
 * joined back to their orders — and each branch reads at most the page it could fill.
 */

type OrdersBuilder = ExpressionBuilder<Database, "orders">;
type Condition = (eb: OrdersBuilder) => Expression<SqlBool>;

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const UUID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

/**
 * The order id prefix a text names, lower-cased ("#C8B2" → "c8b2", "c8b2f0e1-7" → itself), or null
 * when the text cannot begin an id (then it is only a substring to look for).
 */
export function orderIdPrefix(text: string): string | null {
  const prefix = text.trim().replace(/^[#№]\s*/, "").toLowerCase();
  if (prefix.length === 0 || prefix.length > UUID_SHAPE.length) return null;
  for (let i = 0; i < prefix.length; i++) {
    const char = prefix[i];
    if (UUID_SHAPE[i] === "-" ? char !== "-" : !/[0-9a-f]/.test(char)) return null;
  }
  return prefix;
}

/** Orders whose code (the id's first four characters) and id begin with the prefix: one probe of orders_code_idx. */
function codeCondition(prefix: string): Condition {
  if (prefix.length < 4) return (eb) => eb("orders.code", "like", `${prefix}%`);
  const code = prefix.slice(0, 4);
  if (prefix.length === 4) return (eb) => eb("orders.code", "=", code);
  if (prefix.length === UUID_SHAPE.length) return (eb) => eb.and([eb("orders.code", "=", code), eb("orders.id", "=", prefix)]);
  return (eb) => eb.and([eb("orders.code", "=", code), eb(sql<string>`orders.id::text`, "like", `${prefix}%`)]);
}

/**
 * A column containing the text, any case. From three characters on this is ILIKE, which the
 * column's trigram index serves; a shorter text has no trigram, so it is a plain comparison the
 * planner never sends to the index (each branch then also stays within the newest orders).
 */
function contains(column: string, text: string) {
  return isShortSearch(text) ? sql<SqlBool>`strpos(lower(${sql.ref(column)}), lower(${text})) > 0` : sql<SqlBool>`${sql.ref(column)} ilike ${containsPattern(text)}`;
}

/** Orders no older than the SHORT_SEARCH_WINDOW-th newest: a range of orders_created_at_idx. */
const withinShortSearchWindow: Condition = () =>
  sql<SqlBool>`orders.created_at >= coalesce((select w.created_at from orders w order by w.created_at desc offset ${SHORT_SEARCH_WINDOW - 1} limit 1), '-infinity')`;

export interface OrderSearchOptions {
  /** Whether the phone is searched (the packer never sees phones, DESIGN §4.25). */
  phone: boolean;
}

/**
 * The branches of a search, each a condition on `orders` an index serves: the code or id prefix
 * (when the text can begin an id), the order's own text columns, and its patients' names (a
 * semi-join from orders_patients, or a probe per order when the planner walks the newest orders).
 */
export function orderSearchBranches(text: string, options: OrderSearchOptions): Condition[] {
  const branches: Condition[] = [];
  const prefix = orderIdPrefix(text);
  if (prefix) branches.push(codeCondition(prefix));
  const short = isShortSearch(text);
  const columns = ["orders.full_name", "orders.email", ...(options.phone ? ["orders.phone"] : [])];
  const own: Condition = (eb) => eb.or(columns.map((column) => contains(column, text)));
  const patients: Condition = (eb) => eb.exists(eb.selectFrom("orders_patients").select(sql`1`.as("one")).whereRef("orders_patients.order_id", "=", "orders.id").where(contains("orders_patients.patient_name", text)));
  for (const branch of [own, patients]) branches.push(short ? (eb) => eb.and([branch(eb), withinShortSearchWindow(eb)]) : branch);
  return branches;
}

/**
 * The condition "is one of the orders this search finds, among the first `limit` of its branch":
 * each branch is the page's own query (its filters in `base`) with the branch's condition, newest
 * first and cut at `limit` (the page's offset and size), so the union holds every order the page
 * can show and no branch reads further than that page.
 */
export function foundBySearch(text: string, options: OrderSearchOptions, base: () => SelectQueryBuilder<Database, "orders", object>, limit: number): Condition {
  const branches = orderSearchBranches(text, options).map((branch) => base().where(branch).select("orders.id").orderBy("orders.created_at", "desc").orderBy("orders.id").limit(limit));
  return () => sql<SqlBool>`orders.id in (${sql.join(branches, sql` union `)})`;
}
