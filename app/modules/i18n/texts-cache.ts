import type { Messages } from "./translate";

/**
 * The interface texts the browser holds, by key (`{locale}.{area}.{version}`, root loader). No
 * answer of the root loader carries the texts, only their key (ADR 022, 034). A page's texts come
 * before hydration from `/texts/{key}.js` (immutable, so cached), which files them under
 * `TEXTS_GLOBAL`; later keys (another language, the staff area, an edited text) are fetched by the
 * root's clientLoader from `/texts/{key}` once.
 */
export const TEXTS_GLOBAL = "__alignerTexts";

declare global {
  interface Window {
    [TEXTS_GLOBAL]?: Record<string, Messages>;
  }
}

/** A few keys per visit at most; an old key stays until its page's tree is gone. */
const known = new Map<string, Messages>();
let latest: Messages | undefined;

function keep(key: string, messages: Messages): Messages {
  known.set(key, messages);
  latest = messages;
  return messages;
}

/** The texts of a key already in the browser, from a fetch or the page's texts script. Browser only. */
export function heldTexts(key: string): Messages | undefined {
  if (typeof document === "undefined") return undefined;
  const held = known.get(key);
  if (held) return held;
  const fromScript = window[TEXTS_GLOBAL]?.[key];
  return fromScript ? keep(key, fromScript) : undefined;
}

/** The texts of a key, fetched once when not yet held. */
export async function loadTexts(key: string): Promise<Messages> {
  const held = heldTexts(key);
  if (held) return held;
  try {
    const response = await fetch(`/texts/${encodeURIComponent(key)}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return keep(key, (await response.json()) as Messages);
  } catch (error) {
    // Offline for a moment: the texts already here are better than an error page.
    if (latest) return keep(key, latest);
    throw error;
  }
}
