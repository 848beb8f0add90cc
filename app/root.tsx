import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientLoaderFunctionArgs, ShouldRevalidateFunction } from "@remix-run/react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useLocation, useMatches, useRouteLoaderData } from "@remix-run/react";
import { I18nProvider, useTranslation } from "~/components/i18n/i18n-context";
import { ConnectionNotice } from "~/components/connection-notice";
import { CookieNotice } from "~/components/cookie-notice";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Footer } from "~/components/footer";
import { GuaranteeBanner } from "~/components/guarantee-banner";
import { Header } from "~/components/header";
import { MessengerButton } from "~/components/messenger-button";
import { ToastMessage, usePageToast } from "~/components/toast";
import { getConfig } from "~/modules/config/config.server";
import { useDocumentLanguage, useNonce } from "~/components/document-facts";
import { getBrowserChoices, getLocale, getViewer } from "~/modules/http/request/request-context.server";
import { isInPlace } from "~/modules/http/forms/in-place";
import { readToast } from "~/modules/http/answers/toast.server";
import { isStaffPath } from "~/modules/i18n/text-areas";
import { useSharedTexts } from "~/components/i18n/shared-texts";
import { earlyTextsFetch, fallbackTexts, loadTexts, SHELL_TEXTS_ID, shellTextsJson } from "~/modules/i18n/texts-cache";
import type { Messages } from "~/modules/i18n/translate";
import { SOURCE_LANGUAGE } from "~/modules/i18n/languages";
import { layoutFor, type PageHandle } from "~/modules/layout/layout";
import type { RootData } from "~/modules/layout/root-data";
import { logger } from "~/modules/log/logger.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { getContacts } from "~/modules/market/market.server";
import { sharedTextsWithKey } from "~/modules/translations/overrides.server";
import stylesheet from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { language: locale, market } = await getLocale(request, context);
  // The shell renders even when the database is away (the health check reports it).
  const user = await getViewer(request, context)
    .then(({ user }) => user)
    .catch((error) => {
      logger.error(error, "root loader: session lookup failed");
      return null;
    });
  const { toast, headers } = await readToast(request);
  const { cookieConsent } = await getBrowserChoices(request, context);
  const contacts = getContacts(market);
  const { key: textsKey } = await sharedTextsWithKey(locale, { staff: isStaffPath(new URL(request.url).pathname) });
  const rootData: RootData = {
    i18n: {
      locale,
      // Only the texts' key (ADR 022, 034): entry.server renders with the texts, the browser
      // holds them by key (/texts/{key}, preloaded, before hydration; clientLoader after).
      textsKey,
      strict: getConfig().env === "test" || process.env.I18N_STRICT === "1",
    },
    market,
    marketTraits: MARKET_TRAITS[market],
    contacts: { messengerLink: contacts.messengerLink, supportEmail: contacts.supportEmail, whatsappNumber: contacts.whatsappNumber },
    user: user ? { email: user.email, hasPartnerCode: user.hasPartnerCode } : null,
    toast,
    cookieConsent,
    sandbox: getConfig().payments.sandbox,
  };
  return data(rootData, { headers });
}

/**
 * Client navigations and revalidations: the server sends the texts' key, not the texts (they were
 * 39.6 KB raw, 13.4 KB gzip, of every wizard step's data); a key the browser does not hold yet is
 * fetched once from /texts before the new page renders.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const root = await serverLoader<typeof loader>();
  await loadTexts(root.i18n.textsKey);
  return root;
}

/**
 * Customer pages carry fewer texts than staff pages: crossing between them reloads the root's data.
 * An action that answered with its page in place (ADR 035) changed nothing the root shows.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, actionResult, defaultShouldRevalidate }) =>
  !isInPlace(actionResult) && (defaultShouldRevalidate || isStaffPath(currentUrl.pathname) !== isStaffPath(nextUrl.pathname));

export const meta: MetaFunction = () => [{ title: "Aligner Lab" }];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

const NO_TEXTS: Messages = {};

/**
 * The page's language when the root's data is missing (its loader failed): the server's guess from
 * the request, in the browser the language of the page on screen.
 */
function useFallbackLanguage(): string {
  const server = useDocumentLanguage();
  if (server) return server;
  return typeof document === "undefined" ? SOURCE_LANGUAGE : document.documentElement.lang || SOURCE_LANGUAGE;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const fallbackLanguage = useFallbackLanguage();
  const locale = root?.i18n.locale ?? fallbackLanguage;
  // Without the root's key the error page and shell still have their words (ADR 046).
  const messages = useSharedTexts(root?.i18n.textsKey) ?? fallbackTexts() ?? NO_TEXTS;
  return (
    <I18nProvider language={locale} messages={messages} strict={root?.i18n.strict ?? false}>
      <Document>{children}</Document>
    </I18nProvider>
  );
}

function Document({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const nonce = useNonce();
  const locale = i18n.language;
  const parts = layoutFor(pathname);
  const toast = usePageToast(root?.toast ?? null);
  // Pages that need no client code (the packer's, on shared low-end PCs) say so with
  // `handle = { hydrate: false }`: they ship no JavaScript bundle at all.
  const matches = useMatches();
  const hydrate = !matches.some((match) => (match.handle as PageHandle | undefined)?.hydrate === false);
  const pageSkip = matches.map((match) => (match.handle as PageHandle | undefined)?.skipLink).filter((skip) => skip !== undefined).pop() ?? null;
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {hydrate && root ? <TextsFetch textsKey={root.i18n.textsKey} nonce={nonce} /> : null}
        {hydrate && !root ? <ShellTexts /> : null}
      </head>
      <body>
        {/* A page may offer a skip link of its own, first of all (the back office's order list). */}
        {pageSkip ? (
          <a className="skip-link" href={pageSkip.href}>
            {t(pageSkip.text)}
          </a>
        ) : null}
        {parts.cookieNotice && root && !root.cookieConsent ? <CookieNotice international={root.market === "international"} /> : null}
        <a className="skip-link" href="#main">
          {t("shell.skipToContent")}
        </a>
        {parts.header && root ? <Header user={root.user} locale={locale} /> : null}
        {toast ? <ToastMessage toast={toast} /> : null}
        {hydrate ? <ConnectionNotice /> : null}
        <main id="main">{children}</main>
        {parts.banner && root?.marketTraits.guaranteeBanner ? <GuaranteeBanner /> : null}
        {parts.footer && root ? <Footer contacts={root.contacts} legalLinks={root.marketTraits.legalLinks} impressum={root.marketTraits.impressum} /> : null}
        {parts.messenger && root ? <MessengerButton href={root.contacts.messengerLink} /> : null}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

/**
 * The page's texts for hydration: data, asked for from the head while the page parses (a few bytes
 * of inline script with the answer's nonce, so a browser without JavaScript asks for nothing) and
 * kept by the browser for good (the key is their fingerprint); entry.client hydrates once they are
 * in. Not a script of their own: they are no code, and the page's JavaScript stays what it was.
 */
function TextsFetch({ textsKey, nonce }: { textsKey: string; nonce: string | undefined }) {
  return <script nonce={nonce} data-texts-key={textsKey} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: earlyTextsFetch(textsKey) }} />;
}

/**
 * A document without the root's data (its loader failed) has no texts' key to fetch: it carries the
 * few texts of its error page and shell itself, which hydration reads back (ADR 046). Not executed.
 */
function ShellTexts() {
  const messages = useSharedTexts(undefined);
  return (
    <script
      type="application/json"
      id={SHELL_TEXTS_ID}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: messages ? shellTextsJson(messages) : (document.getElementById(SHELL_TEXTS_ID)?.textContent ?? "{}") }}
    />
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
