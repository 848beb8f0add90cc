import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { textTranslator } from "~/modules/translations/overrides.server";
import { getLocale } from "../request/request-context.server";

/**
 * The 404 answer for an unknown path, carrying the page's title in the reader's language, so the
 * route's `meta` can name the tab as the page does ("Hoppla! Seite nicht gefunden").
 */
export async function notFound({ request, context }: Pick<LoaderFunctionArgs, "request" | "context">) {
  const { language } = await getLocale(request, context);
  const t = await textTranslator(language);
  return data({ title: t("errors.notFound.title") }, { status: 404 });
}

