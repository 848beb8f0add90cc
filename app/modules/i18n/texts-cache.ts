import type { Messages } from "./translate";

/**
 * The interface texts the browser holds, by key (`{locale}.{area}.{version}`, root loader). No
 * answer of the root loader carries the texts, only their key (ADR 022, 034). A page's texts are
 * fetched from `/texts/{key}` (immutable, so cached) before hydration — asked for from the
 * document's head by `earlyTextsFetch` — and later keys (another language, the staff area, an edited
 * text) by the root's clientLoader, once each.
 */

/** Where the head's inline script leaves its request: `{ key, response }`. */
const EARLY = "__alignerTexts";

declare global {
  interface Window {
    [EARLY]?: { key: string; response: Promise<Response> };
  }
}

const textsUrl = (key: string) => `/texts/${encodeURIComponent(key)}`;

/** The head's inline script: starts the texts' request while the page parses. */
export const earlyTextsFetch = (key: string) => `window.${EARLY}={key:${JSON.stringify(key)},response:fetch(${JSON.stringify(textsUrl(key))})}`;

/** The head's request for `key`, taken once; else a new one. */
function request(key: string): Promise<Response> {
  const early = window[EARLY];
  if (early?.key === key) {
    window[EARLY] = undefined;
    return early.response;
  }
  return fetch(textsUrl(key));
}

/** A few keys per visit at most; an old key stays until its page's tree is gone. */
const known = new Map<string, Messages>();
let latest: Messages | undefined;

function keep(key: string, messages: Messages): Messages {
  known.set(key, messages);
  latest = messages;
  return messages;
}

/** The texts of a key already fetched in this page. Browser only. */
export function heldTexts(key: string): Messages | undefined {
  if (typeof document === "undefined") return undefined;
  return known.get(key);
}

/** The texts of a key, fetched once when not yet held. */
export async function loadTexts(key: string): Promise<Messages> {
  const held = heldTexts(key);
  if (held) return held;
  try {
    const response = await request(key);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return keep(key, (await response.json()) as Messages);
  } catch (error) {
    // Offline for a moment: the texts already here are better than an error page.
    if (latest) return keep(key, latest);
    throw error;
  }
}

/** The parts of the texts an error page, the shell around it and the "no connection" notice use. */
const SHELL_PARTS = ["shell", "errors", "connection"] as const;

export function shellParts(messages: Messages): Messages {
  return Object.fromEntries(SHELL_PARTS.map((part) => [part, messages[part] ?? {}]));
}

/** The element of a document without a texts' key (its root loader failed) that carries the shell's texts (ADR 046). */
export const SHELL_TEXTS_ID = "shell-texts";

/** The JSON of that element, safe inside a script element. */
export const shellTextsJson = (messages: Messages) => JSON.stringify(shellParts(messages)).replaceAll("<", "\\u003c");

/**
 * Texts for a page whose root data is missing (its loader failed in the browser, or the server sent
 * its error page): the texts of the page the browser showed last, else those the document carried.
 * Browser only.
 */
export function fallbackTexts(): Messages | undefined {
  if (typeof document === "undefined") return undefined;
  if (latest) return latest;
  const carried = document.getElementById(SHELL_TEXTS_ID)?.textContent;
  return carried ? (JSON.parse(carried) as Messages) : undefined;
}
