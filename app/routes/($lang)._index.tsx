import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FinalCta } from "~/components/landing/final-cta";
import { Guarantees } from "~/components/landing/guarantees";
import { Hero } from "~/components/landing/hero";
import { Materials } from "~/components/landing/materials";
import { PageTexts } from "~/components/landing/page-texts";
import { PartnerConsent } from "~/components/landing/partner-consent";
import { Partners } from "~/components/landing/partners";
import { Pricing, type PriceList } from "~/components/landing/pricing";
import { Process } from "~/components/landing/process";
import { WhyUs } from "~/components/landing/why-us";
import videoSrc from "~/components/landing/production.webm";
import { cookies } from "~/modules/http/cookies.server";
import { getLanguage } from "~/modules/i18n/i18n.server";
import { isLanguage, LANGUAGES } from "~/modules/i18n/languages";
import { MARKET_TRAITS } from "~/modules/market/market";
import { getContacts, getMarket, publicOrigin } from "~/modules/market/market.server";
import { attributePartner, existingPartnerCode } from "~/modules/partners/referral.server";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";
import { pageTexts, textTranslator } from "~/modules/translations/overrides.server";
import type { RootLoaderData } from "~/root";

/**
 * The landing ships no JavaScript (root.tsx: `handle.hydrate`): every part of it is HTML — the calls
 * to order are form posts, the menus <details>, the film a <details> with a lazy player — so a
 * doctor on a slow clinic line gets the page as fast as its HTML and CSS arrive.
 */
export const handle = { hydrate: false, publicPage: true };

export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (!data) return [{ title: isRouteErrorResponse(error) && error.status === 404 ? "Oops! Page not found" : "Aligner Lab" }];
  return [
    { title: data.title },
    { name: "description", content: data.description },
    { tagName: "link", rel: "canonical", href: data.seo.canonical },
    ...data.seo.alternates.map((alternate) => ({ tagName: "link", rel: "alternate", hrefLang: alternate.hrefLang, href: alternate.href })),
  ];
};

/**
 * `/`, `/{lang}` and `/{code}` (DESIGN §4.29): the one-segment path is a language, else an existing
 * partner code — kept in a cookie for 30 days (on the international market only when the visitor
 * allows it, ADR 044), the landing shown — else the 404 page. `?partner=` does the same on any
 * landing URL; an unknown code there is ignored.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const headers = new Headers();
  let partner: string | null = null;
  if (params.lang !== undefined && !isLanguage(params.lang)) {
    partner = await existingPartnerCode(params.lang);
    if (!partner) throw new Response("Not found", { status: 404 });
  }
  const fromQuery = url.searchParams.get("partner");
  if (fromQuery) partner = (await existingPartnerCode(fromQuery).catch(() => null)) ?? partner;
  const market = getMarket(request);
  const { offer: partnerOffer } = partner ? await attributePartner(request, market, partner, headers) : { offer: null };
  // Opening the landing in a language keeps that language on the pages that follow (the order
  // button, sign-in), as choosing it in the picker does.
  if (params.lang !== undefined && isLanguage(params.lang)) {
    const saved = await cookies.language().parse(request.headers.get("Cookie"));
    if (saved !== params.lang) headers.append("Set-Cookie", await cookies.language().serialize(params.lang));
  }

  const language = await getLanguage(request);
  const traits = MARKET_TRAITS[market];
  const set = PRICE_SETS[traits.currency];
  const money = (minorUnits: number) => formatPriceSetAmount(minorUnits, set.currency, language);
  const prices: PriceList = {
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
  };

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
      seo: {
        canonical: `${origin}${own}`,
        alternates: [...LANGUAGES.map((code) => ({ hrefLang: code, href: `${origin}/${code}` })), { hrefLang: "x-default", href: `${origin}/` }],
      },
    },
    { headers },
  );
}

export default function Landing() {
  const { texts, prices, messengerLink, partnerOffer } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData("root") as RootLoaderData | undefined;
  const traits = root?.marketTraits ?? MARKET_TRAITS.domestic;
  return (
    <PageTexts scope="landing" texts={texts}>
      {partnerOffer ? <PartnerConsent code={partnerOffer} /> : null}
      <Hero />
      <WhyUs videoSrc={videoSrc} />
      <Process />
      <Materials softMatrix={traits.softMatrix} />
      {/* The two sections the international market does not show (DESIGN §3). */}
      {traits.legalLinks ? <Guarantees /> : null}
      <Pricing prices={prices} domesticNotices={traits.domesticNotices} messengerLink={messengerLink} alt={!traits.legalLinks} />
      {traits.legalLinks ? <Partners /> : null}
      <FinalCta messengerLink={messengerLink} />
    </PageTexts>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
