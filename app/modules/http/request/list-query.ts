import * as z from "zod/mini";
import { withoutForbiddenCharacters } from "~/modules/validation/text";
import { fieldNamesOf } from "../forms/form-shape";

/**
 * The list-page kit's query (ADR 067): every list reads its address through one zod schema built
 * here — page or keyset cursor, search text, status, dates, market, sort and direction, plus the
 * few words of its own (a view, a switch). Every field falls back to its default on a bad value, so
 * a forged or stale address shows the first page, never a 500. Pure: the pager and the filter bar
 * build their links from the same names in the browser.
 */

/** The one length rule of a search text (after control characters go and the ends are trimmed). */
export const SEARCH_MAX = 100;
/** The highest page number an address may name. */
export const PAGE_MAX = 100_000;
/** A keyset cursor is a few values; anything longer is not one of ours. */
const CURSOR_MAX = 400;

/** A search text as every list reads it: no control characters, trimmed, at most SEARCH_MAX characters (whole characters, not halves). */
export function searchText(value: unknown): string {
  if (typeof value !== "string") return "";
  // Only the head is ever read: 10,000 characters cost what 100 do.
  const head = withoutForbiddenCharacters(
    value.slice(0, SEARCH_MAX * 4)
  ).trim();
  return Array.from(head).slice(0, SEARCH_MAX).join("").trim();
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date as the browser's date field sends it (YYYY-MM-DD, a real day), or null. */
export function dateValue(value: unknown): string | null {
  if (typeof value !== "string" || !DATE.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(time) ||
    new Date(time).toISOString().slice(0, 10) !== value
    ? null
    : value;
}

/** A page number 1…PAGE_MAX written in plain digits, else 1. */
export function pageNumber(value: unknown): number {
  if (typeof value !== "string" || !/^\d{1,6}$/.test(value)) return 1;
  const page = Number(value);
  return page >= 1 && page <= PAGE_MAX ? page : 1;
}

/** A keyset cursor: the sort values of a row, its id last. */
export type Cursor = ReadonlyArray<string | number>;

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A cursor as it travels in an address (`after=` / `before=`): base64url of its JSON. */
export function encodeCursor(values: Cursor): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(values)));
}

/** The cursor an address carries, or null for anything that is not a short list of strings and numbers. */
export function decodeCursor(value: unknown): Cursor | null {
  if (
    typeof value !== "string" ||
    value.length === 0 ||
    value.length > CURSOR_MAX ||
    !/^[A-Za-z0-9_-]+$/.test(value)
  )
    return null;
  try {
    const binary = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        Uint8Array.from(binary, (char) => char.charCodeAt(0))
      )
    );
    if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > 4)
      return null;
    return parsed.every(
      (item) =>
        (typeof item === "string" && item.length <= 100) ||
        (typeof item === "number" && Number.isFinite(item))
    )
      ? (parsed as Cursor)
      : null;
  } catch {
    return null;
  }
}

export const MARKETS = ["domestic", "international"] as const;
export type ListMarket = (typeof MARKETS)[number];
export type SortDirection = "asc" | "desc";

/** One of the allowed words, else the fallback: the field never fails. */
export function oneOf<const T extends string, F extends T | null>(
  values: readonly T[],
  fallback: F
) {
  return z.pipe(
    z.unknown(),
    z.transform((value): T | F =>
      (values as readonly unknown[]).includes(value) ? (value as T) : fallback
    )
  );
}

/** A switch that is on only when the address says `1`. */
export const flag = z.pipe(
  z.unknown(),
  z.transform((value) => value === "1")
);

/** A value as the address sent it (a token, a return address the page checks itself), or null when absent. */
export const asSent = z.pipe(
  z.unknown(),
  z.transform((value) => (typeof value === "string" ? value : null))
);

/** A free word of the address (an opened item's name), bounded; the page checks its shape. */
export const word = z.pipe(
  z.unknown(),
  z.transform((value) =>
    typeof value === "string" && value.length > 0 && value.length <= 200
      ? value
      : null
  )
);

/** What every list's query holds, beside its own fields. */
export interface ListQuery<S extends string, O extends string> {
  page: number;
  after: Cursor | null;
  before: Cursor | null;
  q: string;
  status: S | null;
  from: string | null;
  to: string | null;
  market: ListMarket | null;
  sort: O | null;
  dir: SortDirection;
}

export interface ListQueryOptions<S extends string, O extends string> {
  /** The statuses (or tabs) the list filters by; `defaultStatus` when the address names none of them. */
  statuses?: readonly S[];
  defaultStatus?: S | null;
  /** The sort keys the list offers, the first its default, each with its own first direction. */
  sorts?: Readonly<Record<O, SortDirection>>;
}

/**
 * The schema of one list's address: the kit's fields and the list's own (`extra`, each built from
 * `oneOf`, `flag`, `word` or another field that cannot fail).
 */
export function listQuerySchema<
  S extends string = never,
  O extends string = never,
  E extends z.core.$ZodLooseShape = {}
>(options: ListQueryOptions<S, O> = {}, extra: E = {} as E) {
  const statuses = options.statuses ?? [];
  const sortKeys = Object.keys(options.sorts ?? {}) as O[];
  const defaultSort = (sortKeys[0] ?? null) as O | null;
  const fields = z.object({
    page: z.pipe(z.unknown(), z.transform(pageNumber)),
    after: z.pipe(z.unknown(), z.transform(decodeCursor)),
    before: z.pipe(z.unknown(), z.transform(decodeCursor)),
    q: z.pipe(z.unknown(), z.transform(searchText)),
    status: oneOf<S, S | null>(statuses, options.defaultStatus ?? null),
    from: z.pipe(z.unknown(), z.transform(dateValue)),
    to: z.pipe(z.unknown(), z.transform(dateValue)),
    market: oneOf<ListMarket, null>(MARKETS, null),
    sort: oneOf<O, O | null>(sortKeys, defaultSort),
    dir: oneOf<SortDirection, null>(["asc", "desc"], null),
    ...extra,
  });
  return z.pipe(
    fields,
    z.transform((input: z.output<typeof fields>) => {
      const kit = input as unknown as Omit<ListQuery<S, O>, "dir"> & {
        dir: SortDirection | null;
      };
      // The direction: the one asked for, else the sort's own first direction.
      const dir: SortDirection =
        kit.dir ??
        (kit.sort && options.sorts ? options.sorts[kit.sort] : "desc");
      // Both cursors: the forward one wins. A list's own field of a kit's name (a status with its
      // own words) replaces the kit's.
      return { ...input, dir, before: kit.after ? null : kit.before } as Omit<
        ListQuery<S, O>,
        keyof E
      > &
        z.output<z.ZodMiniObject<E>>;
    })
  );
}

/**
 * Reads a page's address through its schema: the first value of each name the schema knows (others
 * are not even looked at), then the schema, whose every field falls back to its default. A list's
 * query and a page that takes one token, id or return address (`z.object({ orderId: word })`) are
 * read this way alike, so no module reads `searchParams` by hand (the lint refuses it, ADR 067).
 */
export function readQuery<Schema extends z.ZodMiniType>(
  source: Request | URL | URLSearchParams,
  schema: Schema
): z.output<Schema> {
  const params =
    source instanceof URLSearchParams
      ? source
      : source instanceof URL
      ? source.searchParams
      : new URL(source.url).searchParams;
  const names = fieldNamesOf(schema) ?? new Set<string>();
  // Every known name is present (undefined when absent): the fields then give their defaults.
  const values: Record<string, string | undefined> = {};
  for (const name of names) values[name] = params.get(name) ?? undefined;
  const parsed = z.safeParse(schema, values);
  if (parsed.success) return parsed.data;
  // A list's own field that can fail is a mistake of that list: its defaults still show the page.
  return z.parse(
    schema,
    Object.fromEntries([...names].map((name) => [name, undefined]))
  );
}

/** The end of a `to` date as an instant: the filter keeps rows created before the next day began (UTC). */
export const endOfDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
export const startOfDay = (date: string) => new Date(`${date}T00:00:00Z`);

/** The names that say where in a list a page is; any other change of the address starts the list again. */
const PAGING = ["page", "after", "before"];

/**
 * An address of the same list with some of its query changed (null removes a name). Unless the
 * change is itself paging or `samePage` is asked (a form's way back), the list starts again at its
 * first page. `index` (Remix's marker of an
 * index route's action) never travels on.
 */
export function listHref(
  pathname: string,
  search: string,
  changes: Record<string, string | null>,
  options: { samePage?: boolean } = {}
): string {
  const next = new URLSearchParams(search);
  next.delete("index");
  if (
    !options.samePage &&
    !Object.keys(changes).some((name) => PAGING.includes(name))
  )
    for (const name of PAGING) next.delete(name);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  const query = next.toString();
  return query ? `${pathname}?${query}` : pathname;
}
