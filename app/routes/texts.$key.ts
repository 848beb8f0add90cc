import type { LoaderFunctionArgs } from "@remix-run/node";
import { textsOfKey } from "~/modules/translations/overrides.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";

/**
 * GET /texts/{locale}.{area}.{version}: the interface texts the root loader leaves out of its data
 * (ADR 022, 034), as JSON — preloaded by each document with JavaScript and read before hydration,
 * and fetched for a key met in a client navigation. The current version is cached for good; an
 * outdated one answers with today's texts, not cached.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const texts = await textsOfKey(String(params.key ?? ""));
  if (!texts) return textAnswer((await getLocale(request, context)).language, 404);
  return new Response(JSON.stringify(texts.messages), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": texts.current ? "public, max-age=31536000, immutable" : "no-store",
    },
  });
}
