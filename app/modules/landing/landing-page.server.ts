import { data, type LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { cookies } from "~/modules/http/request/cookies.server";
import { readQuery, word } from "~/modules/http/request/list-query";
import { getBrowserChoices, getLocale, getViewer } from "~/modules/http/request/request-context.server";
import { getDb } from "~/modules/db/db.server";
import { ordersInBrowser } from "~/modules/orders/orders-in-browser.server";
import { logger } from "~/modules/log/logger.server";
import { isLanguage, LANGUAGES } from "~/modules/i18n/languages";
import { MARKET_TRAITS } from "~/modules/market/market";
import { getContacts, publicOrigin } from "~/modules/market/market.server";
import { attributePartner, existingPartnerCode } from "~/modules/partners/referral.server";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";
import { priceListFor } from "~/modules/pricing/order-price.server";
import { pageTexts, textTranslator } from "~/modules/translations/overrides.server";

/** A partner's code in the address (`?partner=`); its shape is checked against the codes that exist. */
const landingQuery = z.object({ partner: word });

export async function loadLandingPage({ request, params, context }: LoaderFunctionArgs) {
  const headers = new Headers();
  let partner: string | null = null;
  if (params.lang !== undefined && !isLanguage(params.lang)) {
    partner = await existingPartnerCode(params.lang);
    if (!partner) throw new Response("Not found", { status: 404 });
  }
  const fromQuery = readQuery(request, landingQuery).partner;
  if (fromQuery) partner = (await existingPartnerCode(fromQuery).catch(() => null)) ?? partner;
  const [{ market, language }, kept, viewer] = await Promise.all([getLocale(request, context), getBrowserChoices(request, context), getViewer(request, context)]);
  const { offer: partnerOffer } = partner ? await attributePartner(market, partner, kept.partnerCode, headers) : { offer: null };
  // Opening the landing in a language keeps that language on the pages that follow (the order
  // button, sign-in), as choosing it in the picker does.
  if (params.lang !== undefined && isLanguage(params.lang)) {
    if (kept.savedLanguage !== params.lang) headers.append("Set-Cookie", await cookies.language().serialize(params.lang));
  }

  const traits = MARKET_TRAITS[market];
  // A signed-in client with personal conditions sees their own prices ("Ваши цены"); an outage shows the base set.
  const { priceSet: set, personal: personalPrices } = viewer.user
    ? await priceListFor(await getDb(), traits.currency, viewer.user.email).catch((error: unknown) => {
        logger.error(error, "landing: the client's prices not read");
        return { priceSet: PRICE_SETS[traits.currency], personal: false };
      })
    : { priceSet: PRICE_SETS[traits.currency], personal: false };
  const money = (minorUnits: number) => formatPriceSetAmount(minorUnits, set.currency, language);
  const prices = {
    rows: [
      { key: "singleLayer" as const, amount: money(set.singleLayerMaterial) },
      { key: "threeLayer" as const, amount: money(set.threeLayerMaterial) },
      ...(traits.softMatrix ? [{ key: "softMatrix" as const, amount: money(set.softMatrix) }] : []),
      { key: "hardMatrix" as const, amount: money(set.hardMatrix) },
      { key: "retainer" as const, amount: money(set.retainer) },
      { key: "delivery" as const, amount: money(set.delivery) },
    ],
    minimumOrder: money(set.minimumOrder),
    monthlyThreshold: money(set.monthlyThreshold),
    personal: personalPrices,
  };

  // The orders this browser left waiting, offered above the page (ADR 087); the page is then this visitor's own.
  // An outage costs the offer, never the page.
  const waiting = viewer.browserOrderIds.length
    ? await ordersInBrowser(await getDb(), viewer.browserOrderIds, market).catch((error: unknown) => {
        logger.error(error, "landing: this browser's orders not read");
        return [];
      })
    : [];
  const t = await textTranslator(language);
  const origin = publicOrigin(market);
  const own = params.lang && isLanguage(params.lang) ? `/${params.lang}` : "/";
  return data(
    {
      title: t("home.metaTitle"),
      description: t("home.metaDescription"),
      language,
      texts: await pageTexts(language, "landing"),
      prices,
      messengerLink: getContacts(market).messengerLink,
      partnerOffer,
      ordersInBrowser: waiting,
      /** The page shows something of this visitor: no shared cache keeps it (entry.server). */
      personal: waiting.length > 0 || personalPrices,
      seo: {
        canonical: `${origin}${own}`,
        alternates: [...LANGUAGES.map((code) => ({ hrefLang: code, href: `${origin}/${code}` })), { hrefLang: "x-default", href: `${origin}/` }],
      },
    },
    { headers },
  );
}
