import { browserFetch, type AppServer } from "../../support/app-server";

/** Shared pieces of the language tests. */

import { SECRETS } from "../../support/app";

export { SECRETS };

/**
 * The international market is reached through a host name (DESIGN §3): the app under test lists
 * `localhost` among its international hosts, so the same server is domestic at 127.0.0.1 and
 * international at localhost.
 */
export const MARKET_HOSTS = { INTERNATIONAL_HOSTS: "*.com,localhost" };

export type Market = "domestic" | "international";

export function marketBrowser(app: AppServer, market: Market) {
  return browserFetch({ url: market === "domestic" ? app.url : `http://localhost:${app.port}` });
}

/** A browser on that market whose saved language (the `lng` cookie) is `language`, set the way the picker does. */
export async function browserIn(app: AppServer, market: Market, language: string) {
  const browser = marketBrowser(app, market);
  const response = await browser.request("/language", { form: { lng: language, redirectTo: "/thankyou" } });
  if (response.status !== 302) throw new Error(`language change answered ${response.status}`);
  return browser;
}

const CYRILLIC = /[\u0400-\u04FF]/;

/**
 * The interface text of a page: markup and the page's serialized texts, minus what is Russian on
 * purpose in every language — the language picker's own "Русский" (marked lang="ru").
 */
export function chromeOf(html: string): string {
  return html.replace(/<(button|option|span|p)\b[^>]*\blang="ru"[^>]*>[\s\S]*?<\/\1>/g, "");
}

export function cyrillicSamples(html: string): string[] {
  const text = chromeOf(html);
  const samples: string[] = [];
  const pattern = /[\u0400-\u04FF][\u0400-\u04FF\s,.:;«»—-]*/g;
  for (const match of text.matchAll(pattern)) {
    samples.push(text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 20));
    if (samples.length >= 5) break;
  }
  return CYRILLIC.test(text) ? samples : [];
}

/** Elements that carry text for people but came out empty (an empty translation would). */
export function emptyTextElements(html: string): string[] {
  const body = html.replace(/<script[\s\S]*?<\/script>/g, "");
  return [...body.matchAll(/<(h[1-6]|p|button|a|li|label|th|td|summary|option|caption|figcaption|strong|title)(\s[^>]*)?>\s*<\/\1>/g)].map((match) => match[0]);
}
