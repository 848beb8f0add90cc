import type { Toast } from "../answers/toast.server";

/**
 * An action's answer that carries the next page itself, instead of a redirect to it (ADR 035): the
 * page's clientAction hands the page to its clientLoader, and the routes around it (the root) stay
 * as they are — one round trip where a redirect would take two.
 */
export interface InPlaceAnswer<Page> {
  inPlace: { page: Page; toast: Toast | null };
}

/** What the clientAction returns to the page once it has kept the page: the toast to show. */
export interface InPlaceResult {
  inPlace: true;
  toast: Toast | null;
}

export function isInPlace(value: unknown): value is InPlaceAnswer<unknown> | InPlaceResult {
  return typeof value === "object" && value !== null && "inPlace" in value;
}

/** The server's answer, before the clientAction has kept its page. */
export function isInPlaceAnswer(value: unknown): value is InPlaceAnswer<unknown> {
  return isInPlace(value) && value.inPlace !== true;
}
