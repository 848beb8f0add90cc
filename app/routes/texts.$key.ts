import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage } from "~/modules/i18n/languages";
import { sharedTexts, textsVersion } from "~/modules/translations/overrides.server";

/**
 * GET /texts/{locale}.{area}.{version}: the interface texts the root loader leaves out of data
 * requests (modules/i18n/texts-cache.ts). The current version is cached for good; an outdated one
 * answers with today's texts, not cached.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const [locale, area, version] = String(params.key ?? "").split(".");
  if (!isLanguage(locale) || (area !== "staff" && area !== "customer")) return new Response("Not found", { status: 404 });
  const messages = await sharedTexts(locale, { staff: area === "staff" });
  const current = textsVersion(messages) === version;
  return new Response(JSON.stringify(messages), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-store",
    },
  });
}
