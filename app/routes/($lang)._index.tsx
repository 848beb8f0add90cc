import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FinalCta } from "~/components/landing/final-cta";
import { Guarantees } from "~/components/landing/guarantees";
import { Hero } from "~/components/landing/hero";
import { Materials } from "~/components/landing/materials";
import { PageTexts } from "~/components/landing/page-texts";
import { PartnerConsent } from "~/components/landing/partner-consent";
import { Partners } from "~/components/landing/partners";
import { Pricing } from "~/components/landing/pricing";
import { Process } from "~/components/landing/process";
import { WhyUs } from "~/components/landing/why-us";
import { OrdersInBrowser } from "~/components/orders/orders-in-browser";
import videoSrc from "~/components/landing/production.webm";
import { MARKET_TRAITS } from "~/modules/market/market";
import { useRootData } from "~/modules/layout/root-data";
import { loadLandingPage } from "~/modules/landing/landing-page.server";

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
export async function loader(args: LoaderFunctionArgs) {
  return loadLandingPage(args);
}

export default function Landing() {
  const { texts, prices, messengerLink, partnerOffer, ordersInBrowser } = useLoaderData<typeof loader>();
  const root = useRootData();
  const traits = root?.marketTraits ?? MARKET_TRAITS.domestic;
  return (
    <PageTexts scope="landing" texts={texts}>
      {partnerOffer ? <PartnerConsent code={partnerOffer} /> : null}
      {ordersInBrowser.length ? (
        <div className="container">
          <OrdersInBrowser orders={ordersInBrowser} startHint="ordersInBrowser.startHintLanding" />
        </div>
      ) : null}
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
