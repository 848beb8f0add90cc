import { LANGUAGES, type Language } from "~/modules/i18n/languages";
import type { Messages } from "~/modules/i18n/translate";

/**
 * The catalogue of interface texts for translators (ADR 069): every key of the base locale
 * (Russian), each language's text from the locale files or a staff override, what is missing, and
 * where the text is used. Pure: the page's server module feeds it the trees and the overrides.
 */

export const CATALOGUE_PAGE_SIZE = 40;
/** A text longer than this is cut in the list (the edit form shows it whole): legal texts run to pages. */
export const SHOWN_TEXT_MAX = 240;

export type TargetLanguage = Exclude<Language, "ru">;
export const TARGET_LANGUAGES = LANGUAGES.filter((language): language is TargetLanguage => language !== "ru");

/**
 * Where texts are used, by key prefix (the longest prefix wins). A place is a path of the site or
 * one of the named places below; `keyPlaces` returns the first entry whose prefix the key has.
 * Every top-level key must be listed (catalogue.test.ts): a new area is placed when it is added.
 */
export type NamedPlace = "everywhere" | "staff" | "mail";
export type Place = `/${string}` | NamedPlace;

export const PLACES: ReadonlyArray<readonly [prefix: string, places: readonly Place[]]> = [
  ["auth", ["/auth"]],
  ["cabinet", ["/cabinet"]],
  ["notifications", ["mail"]],
  ["bo.clients", ["/backoffice/clients"]],
  ["bo.conditions", ["/backoffice/clients"]],
  ["bo.roles", ["/backoffice/roles"]],
  ["bo.access", ["/backoffice/login"]],
  ["bo.files", ["/backoffice/files"]],
  ["bo.tracker", ["/backoffice/orders/…/tracker"]],
  ["bo.trackerTest", ["/backoffice/test"]],
  ["bo.stats", ["/backoffice"]],
  ["bo.codes", ["/backoffice"]],
  ["bo.orders", ["/backoffice", "/backoffice/orders/…"]],
  ["thread", ["/cabinet/orders/…", "/cabinet"]],
  ["bo", ["staff"]],
  ["shell", ["everywhere"]],
  ["header", ["everywhere"]],
  ["language", ["everywhere"]],
  ["footer", ["everywhere"]],
  ["banner", ["everywhere"]],
  ["messenger", ["everywhere"]],
  ["cookies", ["everywhere"]],
  ["errors", ["everywhere"]],
  ["connection", ["everywhere"]],
  ["answers", ["everywhere"]],
  ["toasts", ["everywhere"]],
  ["pagination", ["everywhere"]],
  ["lists", ["/backoffice"]],
  ["failures", ["everywhere"]],
  ["home", ["/"]],
  ["landing", ["/"]],
  ["gate", ["/backoffice/login", "/packer"]],
  ["backoffice", ["staff"]],
  ["orderStatus", ["/cabinet", "/backoffice", "mail"]],
  ["wizard", ["/order"]],
  ["ordersInBrowser", ["/", "/order"]],
  ["orderAgain", ["/cabinet", "/cabinet/again/…"]],
  ["uploads", ["/order"]],
  ["thankyou", ["/thankyou"]],
  ["sandbox", ["/payment/sandbox/…"]],
  ["paymentResult", ["/payment/success"]],
  ["payments.backoffice", ["/backoffice"]],
  ["payments.lines", ["/pay/…", "mail"]],
  ["payments", ["/pay/…", "/payment/success"]],
  ["ftp.sendTest", ["/send-test"]],
  ["ftp", ["/backoffice/ftp"]],
  ["legal", ["/privacy", "/terms", "/public-offer", "/data-consent"]],
  ["impressum", ["/impressum"]],
  ["packer", ["/packer"]],
  ["partners.backoffice", ["/backoffice/affiliates"]],
  ["partners.refdoc", ["/refdoc"]],
  ["partners", ["/partner"]],
  ["translations", ["/backoffice/translate"]],
];

const hasPrefix = (key: string, prefix: string) => key === prefix || key.startsWith(`${prefix}.`);

/** Where a key's text is used; empty for a key no listed prefix covers. */
export function keyPlaces(key: string): readonly Place[] {
  let best: (typeof PLACES)[number] | undefined;
  for (const entry of PLACES) if (hasPrefix(key, entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1] ?? [];
}

/** Every text of a tree as `[key path, text]`, in the files' order. */
export function flattenTexts(tree: Messages, prefix = ""): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? [[path, value] as [string, string]] : flattenTexts(value, path);
  });
}

/** The text at a key path, if it is one. */
export function textAt(tree: Messages, key: string): string | undefined {
  let node: Messages | string | undefined = tree;
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  return typeof node === "string" ? node : undefined;
}

/**
 * One language's text of a key: from the locale file, a staff override (keyed by the Russian text,
 * as overrides are), missing — or not needed: a Russian plural form (`_few`, `_many`) the language
 * does not have when its own `_other` form is there.
 */
export type Cell = { state: "file" | "override"; text: string; fileText?: string } | { state: "missing" } | { state: "notNeeded" };

export interface CatalogueRow {
  key: string;
  source: string;
  places: readonly Place[];
  cells: Record<TargetLanguage, Cell>;
}

export type OverridesByLanguage = ReadonlyMap<string, ReadonlyMap<string, string>>;

function cellOf(key: string, source: string, target: Messages, overrides: ReadonlyMap<string, string> | undefined): Cell {
  const value = textAt(target, key);
  const fileText = value !== undefined && value.trim() !== "" ? value : undefined;
  const override = overrides?.get(source);
  if (override !== undefined) return { state: "override", text: override, ...(fileText === undefined ? {} : { fileText }) };
  if (fileText !== undefined) return { state: "file", text: fileText };
  const plural = /^(.+)_(zero|one|two|few|many|other)$/.exec(key);
  if (plural && value === undefined && textAt(target, `${plural[1]}_other`) !== undefined) return { state: "notNeeded" };
  return source.trim() === "" ? { state: "notNeeded" } : { state: "missing" };
}

/** Every key of the base locale with each language's state. */
export function buildCatalogue(source: Messages, targets: Record<TargetLanguage, Messages>, overrides: OverridesByLanguage): CatalogueRow[] {
  return flattenTexts(source).map(([key, text]) => ({
    key,
    source: text,
    places: keyPlaces(key),
    cells: Object.fromEntries(TARGET_LANGUAGES.map((language) => [language, cellOf(key, text, targets[language], overrides.get(language))])) as Record<TargetLanguage, Cell>,
  }));
}

export interface CatalogueQuery {
  /** Matches the key, the Russian text or any language's text, case-insensitively. */
  q: string;
  /** Only keys missing in this language. */
  missing: TargetLanguage | null;
  /** Only keys with an override. */
  overridden: boolean;
  page: number;
}

export function matches(row: CatalogueRow, query: CatalogueQuery): boolean {
  if (query.missing && row.cells[query.missing].state !== "missing") return false;
  if (query.overridden && !TARGET_LANGUAGES.some((language) => row.cells[language].state === "override")) return false;
  const needle = query.q.trim().toLocaleLowerCase();
  if (!needle) return true;
  const has = (text: string) => text.toLocaleLowerCase().includes(needle);
  return has(row.key) || has(row.source) || TARGET_LANGUAGES.some((language) => {
    const cell = row.cells[language];
    return (cell.state === "file" || cell.state === "override") && (has(cell.text) || (cell.fileText !== undefined && has(cell.fileText)));
  });
}

/** How many keys each language misses, over the whole catalogue. */
export function missingCounts(rows: readonly CatalogueRow[]): Record<TargetLanguage, number> {
  return Object.fromEntries(TARGET_LANGUAGES.map((language) => [language, rows.filter((row) => row.cells[language].state === "missing").length])) as Record<TargetLanguage, number>;
}

/** A long text cut for the list at a word boundary when one is near. */
export function shownText(text: string, max = SHOWN_TEXT_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.7 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const BASE = "/backoffice/translate/catalogue";

/** The catalogue's address with its filters (the page's links and where a save comes back to). */
export function catalogueUrl(query: Partial<CatalogueQuery>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.missing) params.set("missing", query.missing);
  if (query.overridden) params.set("overridden", "1");
  if (query.page && query.page > 1) params.set("page", String(query.page));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.size ? `${BASE}?${params}` : BASE;
}

