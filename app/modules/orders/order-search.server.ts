import { type Compilable, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql, type SqlBool } from "kysely";
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
 * A column containing the text, any case: ILIKE, which the column's trigram index serves, or the
 * same test as `strpos` of the lower-cased strings, which the planner never sends to an index — for
 * a text with no trigram, or one so common that walking the newest orders fills the page soonest.
 */
function contains(column: string, text: string, by: "index" | "walk") {
  return by === "walk" ? sql<SqlBool>`strpos(lower(${sql.ref(column)}), lower(${text})) > 0` : sql<SqlBool>`${sql.ref(column)} ilike ${containsPattern(text)}`;
}

/** Orders no older than the SHORT_SEARCH_WINDOW-th newest: a range of orders_created_at_idx. */
const withinShortSearchWindow: Condition = () =>
  sql<SqlBool>`orders.created_at >= coalesce((select w.created_at from orders w order by w.created_at desc offset ${SHORT_SEARCH_WINDOW - 1} limit 1), '-infinity')`;

export interface OrderSearchOptions {
  /** Whether the phone is searched (the packer never sees phones, DESIGN §4.25). */
  phone: boolean;
  /**
   * The base is a few hundred orders by its status (the packer's orders to pack): each branch takes
   * the base first and sorts what it finds, rather than walking every order by date hoping to meet
   * the base (at five years that walk read 300,000 orders for 625 to pack).
   */
  narrowBase?: boolean;
}

/**
 * Past this many matching rows a substring counts as common: its branch walks the newest orders
 * (orders_created_at_idx), where matches are dense enough to fill a page soon. Up to it, the
 * matches themselves are the branch's candidates.
 */
export const COMMON_MATCHES = 2_000;

/**
 * The ids a trigram search matches, or null when there are more than `common` (COMMON_MATCHES). The query sits
 * in a MATERIALIZED CTE, planned for all its rows (so by its trigram index, never a sequential scan
 * hoping to stop early) and read only as far as the limit.
 */
export async function fewMatches(db: Kysely<Database>, matches: Compilable & Expression<unknown>, common = COMMON_MATCHES): Promise<string[] | null> {
  const found = await sql<{ id: string }>`with found as materialized (${matches}) select id from found limit ${common + 1}`.execute(db);
  // Counted before an order's several matching patients become one id.
  return found.rows.length > common ? null : [...new Set(found.rows.map((row) => row.id))];
}

/**
 * The branches of a search, each a condition on `orders` an index serves: the code or id prefix
 * (when the text can begin an id), the order's own text columns, and its patients' names.
 *
 * PostgreSQL's estimate of how many rows contain a text is a guess from a sample: a rare text
 * thought common made it walk every order probing patients (1.5 s for "smith 12" on 300,000
 * orders). So the substring branches first ask the trigram indexes for their matches: a few are
 * the branch's candidates by id; many mean the text is common, and the branch walks the newest
 * orders (orders_created_at_idx, or the status index under a status filter), testing each, until
 * its page is full. A text too short for a trigram is only looked for among the
 * SHORT_SEARCH_WINDOW newest orders.
 */
export async function orderSearchBranches(db: Kysely<Database>, text: string, options: OrderSearchOptions): Promise<Condition[]> {
  const branches: Condition[] = [];
  const prefix = orderIdPrefix(text);
  if (prefix) branches.push(codeCondition(prefix));
  const columns = ["orders.full_name", "orders.email", ...(options.phone ? ["orders.phone"] : [])];
  const own = (by: "index" | "walk"): Condition => (eb) => eb.or(columns.map((column) => contains(column, text, by)));
  const patients =
    (by: "index" | "walk"): Condition =>
    (eb) =>
      eb.exists(eb.selectFrom("orders_patients").select(sql`1`.as("one")).whereRef("orders_patients.order_id", "=", "orders.id").where(contains("orders_patients.patient_name", text, by)));
  if (isShortSearch(text)) {
    for (const branch of [own("walk"), patients("walk")]) branches.push((eb) => eb.and([branch(eb), withinShortSearchWindow(eb)]));
    return branches;
  }
  const [ownIds, patientOrderIds] = await Promise.all([
    fewMatches(db, db.selectFrom("orders").select("orders.id").where(own("index"))),
    fewMatches(db, db.selectFrom("orders_patients").select("orders_patients.order_id as id").where(contains("orders_patients.patient_name", text, "index"))),
  ]);
  for (const [ids, branch] of [
    [ownIds, own("walk")],
    [patientOrderIds, patients("walk")],
  ] as const) {
    if (ids === null) branches.push(branch);
    else if (ids.length > 0) branches.push((eb) => eb("orders.id", "in", ids));
  }
  return branches;
}

/**
 * The condition "is one of the orders this search finds, among the first `limit` of its branch":
 * each branch is the page's own query (its filters in `base`) with the branch's condition, newest
 * first and cut at `limit` (the page's offset and size), so the union holds every order the page
 * can show and no branch reads further than that page.
 */
export async function foundBySearch(db: Kysely<Database>, text: string, options: OrderSearchOptions, base: () => SelectQueryBuilder<Database, "orders", object>, limit: number): Promise<Condition> {
  // An expression, not the column, when the base is narrow: the date index then cannot order the walk.
  const newest = options.narrowBase ? sql`orders.created_at + interval '0 seconds'` : sql`orders.created_at`;
  const branches = (await orderSearchBranches(db, text, options)).map((branch) => base().where(branch).select("orders.id").orderBy(newest, "desc").orderBy("orders.id").limit(limit));
  if (branches.length === 0) return () => sql<SqlBool>`false`;
  return () => sql<SqlBool>`orders.id in (${sql.join(branches, sql` union `)})`;
}
