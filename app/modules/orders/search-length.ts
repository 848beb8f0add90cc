/**
 * How long a search text must be for the trigram indexes (ADR 042). Pure, so pages can say when a
 * search was too short to look through every order.
 */

/** Trigram indexes serve a substring of at least this many characters. */
export const TRIGRAM_MIN_LENGTH = 3;
/** A shorter text is matched as a substring only among this many newest orders (its code prefix among all); the texts `bo.orders.shortSearch`, `bo.clients.shortSearch` and `packer.search.short` name the number. */
export const SHORT_SEARCH_WINDOW = 10_000;

/** A search with too few characters for a trigram: substrings only among the newest orders. */
export function isShortSearch(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length > 0 && trimmed.length < TRIGRAM_MIN_LENGTH;
}
