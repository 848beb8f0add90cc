import type { LoaderFunctionArgs } from "@remix-run/node";
import { TEXTS_GLOBAL } from "~/modules/i18n/texts-cache";
import { textsOfKey } from "~/modules/translations/overrides.server";
import { textAnswer } from "~/modules/http/answers.server";

/**
 * The interface texts the root loader leaves out of its data (ADR 022, 034), by key
 * `{locale}.{area}.{version}`:
 * - GET /texts/{key}.js, a script each page with JavaScript loads before hydrating: it files the
 *   texts under `window.__alignerTexts[key]` (modules/i18n/texts-cache.ts);
 * - GET /texts/{key}, the same texts as JSON, for a key met in a client navigation.
 * The current version is cached for good; an outdated one answers with today's texts, not cached.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const asked = String(params.key ?? "");
  const script = asked.endsWith(".js");
  const key = script ? asked.slice(0, -".js".length) : asked;
  const texts = await textsOfKey(key);
  if (!texts) return textAnswer(request, 404);
  const json = JSON.stringify(texts.messages);
  return new Response(script ? textsScript(key, json) : json, {
    headers: {
      "Content-Type": script ? "text/javascript; charset=utf-8" : "application/json; charset=utf-8",
      "Cache-Control": texts.current ? "public, max-age=31536000, immutable" : "no-store",
    },
  });
}

/** JSON is a JavaScript expression; the two line separators are escaped for older parsers. */
function textsScript(key: string, json: string): string {
  const messages = json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
  return `(self.${TEXTS_GLOBAL} = self.${TEXTS_GLOBAL} || {})[${JSON.stringify(key)}] = ${messages};\n`;
}
