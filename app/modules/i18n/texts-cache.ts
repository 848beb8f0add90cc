import type { Messages } from "./translate";

/**
 * The interface texts the browser holds, by key (`{locale}.{area}.{version}`, root loader). A page
 * comes with its texts; later data requests leave them out, and the root's clientLoader takes them
 * from here, or fetches `/texts/{key}` (immutable, so cached) when the key changed: another
 * language, the staff area, or an edited text.
 */
let known: { key: string; messages: Messages } | null = null;

/** Keeps the texts a page came with. Browser only (a no-op on the server). */
export function rememberTexts(key: string, messages: Messages): void {
  if (typeof document === "undefined" || known?.key === key) return;
  known = { key, messages };
}

export async function loadTexts(key: string): Promise<Messages> {
  if (known?.key === key) return known.messages;
  try {
    const response = await fetch(`/texts/${encodeURIComponent(key)}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const messages = (await response.json()) as Messages;
    known = { key, messages };
    return messages;
  } catch (error) {
    // Offline for a moment: the texts already here are better than an error page.
    if (known) return known.messages;
    throw error;
  }
}
