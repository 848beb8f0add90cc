import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Cursor } from "~/modules/http/request/list-query";

/**
 * The one way a list's keyset cursor holds a timestamp (ADR 091): the database writes it as UTC ISO
 * text to the microsecond (`2026-12-08T15:00:00.123456Z`), so the value read back is the very value
 * the row holds — no text form of the server's time zone, no millisecond rounding of a JavaScript
 * Date. The cursor itself (base64url JSON of the sort values, the id last) is `encodeCursor` of the
 * list kit; this module gives the exact sort values and the comparison a page starts from.
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
