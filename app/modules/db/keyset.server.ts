import { redirect } from "@remix-run/node";
import { sql, type RawBuilder, type SqlBool } from "kysely";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { type Cursor, decodeCursor, encodeCursor, listHref } from "~/modules/http/request/list-query";

/**
 * The one way a list's keyset cursor holds a timestamp (ADR 091): the database writes it as UTC ISO
 * text to the microsecond (`2026-12-08T15:00:00.123456Z`), so the value read back is the very value
 * the row holds — no text form of the server's time zone, no millisecond rounding of a JavaScript
 * Date. The cursor itself (base64url JSON of the sort values, the id last) is `encodeCursor` of the
 * list kit; this module gives the exact sort values, the comparison a page starts from, and the
 * redirect of an old `?page=N` address to its page's cursor.
 */

/** A timestamp column as a cursor holds it: UTC ISO text to the microsecond, written by the database. */
export function keysetTimestamp(column: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

const KEYSET_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Whether a cursor's value is a timestamp as `keysetTimestamp` writes it (and a real instant). */
export function isKeysetTimestamp(value: unknown): value is string {
  return typeof value === "string" && KEYSET_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** How each value of a cursor is cast back in the comparison, and checked before it gets there. */
export type KeysetCast = "timestamptz" | "uuid" | "bigint" | "int" | "text";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const VALID: Record<KeysetCast, (value: string | number) => boolean> = {
  timestamptz: isKeysetTimestamp,
  uuid: (value) => typeof value === "string" && UUID.test(value),
  bigint: (value) => Number.isSafeInteger(value),
  int: (value) => Number.isInteger(value) && Math.abs(value as number) <= 2_147_483_647,
  text: (value) => typeof value === "string",
};

/**
 * The cursor if it has exactly these casts' values, each of its kind, else null: a forged, garbled
 * or old cursor (one written before this encoding) reads as none and the list shows its first page.
 */
export function usableCursor(cursor: Cursor | null, casts: readonly KeysetCast[]): Cursor | null {
  if (!cursor || cursor.length !== casts.length) return null;
  return cursor.every((value, i) => VALID[casts[i]](value)) ? cursor : null;
}

/**
 * The rows past the cursor in the list's order: `(k1, k2, …, id) < (v1, v2, …, id0)` descending,
 * `>` ascending — one row comparison an index on the keys serves. The keys must all run the same
 * way (a list whose sort mixes directions needs its own comparison).
 */
export function pastCursor(keys: readonly RawBuilder<unknown>[], cursor: Cursor, casts: readonly KeysetCast[], descending: boolean): RawBuilder<SqlBool> {
  const values = cursor.map((value, i) => sql`${value}::${sql.raw(casts[i])}`);
  return sql<SqlBool>`(${sql.join(keys)}) ${sql.raw(descending ? "<" : ">")} (${sql.join(values)})`;
}

/** One sort key of a list: its expression, how a cursor's value of it is cast back, and its direction. */
export interface KeysetKey {
  expr: RawBuilder<unknown>;
  cast: KeysetCast;
  descending: boolean;
}

/**
 * The rows past the cursor when the keys run different ways (newest first, then id ascending):
 * `k1 < v1 or (k1 = v1 and k2 > v2) or …`, each key compared its own way (reversed `backwards`).
 */
function pastCursorEach(keys: readonly KeysetKey[], cursor: Cursor, backwards: boolean): RawBuilder<SqlBool> {
  const value = (i: number) => sql`${cursor[i]}::${sql.raw(keys[i].cast)}`;
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((earlier, j) => sql`${earlier.expr} = ${value(j)}`);
    const past = sql`${key.expr} ${sql.raw(key.descending !== backwards ? "<" : ">")} ${value(i)}`;
    return sql`(${sql.join([...equal, past], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}

/** How a list's cursor holds its keys' values, for `usableCursor` and `oldPageRedirect`. */
export const keysetCasts = (keys: readonly KeysetKey[]): readonly KeysetCast[] => keys.map((key) => key.cast);

/** The names a keyset page's sort values are selected under, beside the list's own columns. */
const keyName = (i: number) => `keyset_${i}` as const;

/**
 * A list's keyset page (ADR 091): from the address's `after` / `before` cursor (the forward one
 * wins; a cursor that is not this list's reads as none: the first page), the condition the rows
 * start past, the order to read them in, the sort values to select, and, from the rows read (one
 * more than a page), the page in the list's order with whether more follow and its cursors.
 * Backwards (`before`) reads the other way from the cursor, then turns the rows back.
 */
export function keysetPlan(keys: readonly KeysetKey[], after: Cursor | null, before: Cursor | null) {
  const casts = keys.map((key) => key.cast);
  const forward = usableCursor(after, casts);
  const cursor = forward ?? usableCursor(before, casts);
  const backwards = !forward && cursor !== null;
  const sameWay = keys.every((key) => key.descending === keys[0].descending);
  return {
    /** Whether the address carried a usable cursor. */
    cursor,
    /** Whether the page is read backwards (before the cursor). */
    backwards,
    /** The condition of the rows past the cursor, or null on the first page. */
    past: cursor === null ? null : sameWay ? pastCursor(keys.map((key) => key.expr), cursor, casts, keys[0].descending !== backwards) : pastCursorEach(keys, cursor, backwards),
    /** The sort values as the cursors hold them (timestamps as exact text), to select with the rows. */
    select: keys.map((key, i) => (key.cast === "timestamptz" ? keysetTimestamp(key.expr) : key.expr).as(keyName(i))),
    /** The order to read in: the list's own, or turned round when reading backwards. */
    order: keys.map((key) => [key.expr, key.descending !== backwards ? "desc" : "asc"] as const),
    page<Row extends object>(read: readonly Row[], pageSize: number) {
      const more = read.length > pageSize;
      const rows = read.slice(0, pageSize);
      if (backwards) rows.reverse();
      const cursorOf = (row: Row) =>
        encodeCursor(
          keys.map((key, i) => {
            const value = (row as Record<string, unknown>)[keyName(i)];
            return key.cast === "bigint" || key.cast === "int" ? Number(value) : String(value);
          })
        );
      return {
        rows,
        // Backwards, the rows after this page are the ones the person came from.
        hasMore: backwards ? true : more,
        cursors: { next: rows.length ? cursorOf(rows[rows.length - 1]) : null, previous: rows.length ? cursorOf(rows[0]) : null },
      };
    },
  };
}

/**
 * How many pages an old `?page=N` address is walked to find where its page starts (ADR 091,
 * amendment): one keyset step a page, so at most this many statements of a page's size each.
 */
export const OLD_PAGE_WALK = 20;

/** One step of the walk: a page of the list after `after` (null: its first page), as the list reads it. */
export type KeysetStep = (after: Cursor | null) => Promise<{ hasMore: boolean; cursors: { next: string | null } }>;

/**
 * An old `?page=N` address (a page number and no cursor of this list: a bookmark from before the
 * cursors, a typed address) answered with a redirect to the same page's keyset address
 * (`page=N&after=` the last row of page N−1), found by walking the list's own pages from the first
 * one by their cursors — the list read as its pager reads it, never by OFFSET. Past
 * `OLD_PAGE_WALK` pages, or past the list's end, it redirects to the first page with a message.
 * Null when the address needs no redirect (the first page, or a cursor of this list).
 */
export async function oldPageRedirect(
  url: URL,
  query: { page: number; after: Cursor | null; before: Cursor | null },
  casts: readonly KeysetCast[],
  step: KeysetStep,
): Promise<Response | null> {
  if (query.page <= 1 || usableCursor(query.after, casts) || usableCursor(query.before, casts)) return null;
  let after: string | null = null;
  if (query.page <= OLD_PAGE_WALK) {
    for (let page = 1; page < query.page; page++) {
      const read = await step(after === null ? null : decodeCursor(after));
      after = read.hasMore ? read.cursors.next : null;
      // A cursor the address could not carry back (a sort value longer than a cursor holds) would
      // lead to this page again, and round: such a walk ends on the first page.
      if (after !== null && !usableCursor(decodeCursor(after), casts)) after = null;
      if (after === null) break;
    }
  }
  if (after !== null) return redirect(listHref(url.pathname, url.search, { page: String(query.page), after, before: null }));
  return redirectWithToast(listHref(url.pathname, url.search, { page: null, after: null, before: null }), {
    type: "info",
    title: "pagination.oldPageTitle",
    description: "pagination.oldPage",
    values: { page: query.page },
  });
}
