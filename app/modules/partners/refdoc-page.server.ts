import type { LoaderFunctionArgs } from "@remix-run/node";
import { getContacts } from "~/modules/market/market.server";
import { offerDocument } from "~/modules/partners/offer.server";
import { getLocale } from "~/modules/http/request/request-context.server";

export async function loadRefdocPage({ request, context }: LoaderFunctionArgs) {
  const { market, language } = await getLocale(request, context);
  const document = offerDocument(language, { supportEmail: getContacts(market).supportEmail });
  return { language, document };
}
