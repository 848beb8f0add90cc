import { useRouteLoaderData } from "@remix-run/react";
import type { Toast } from "~/modules/http/answers/toast.server";
import type { Language } from "~/modules/i18n/languages";
import type { Market, MarketTraits } from "~/modules/market/market";

/**
 * What the root loader (app/root.tsx) gives every page, declared here so that a component reads it
 * without importing the root above it (ADR 051: nothing imports a higher layer).
 */
export interface RootData {
  i18n: {
    locale: Language;
    /** Only the texts' key (ADR 022, 034); the browser holds the texts by key. */
    textsKey: string;
    strict: boolean;
  };
  market: Market;
  marketTraits: MarketTraits;
  contacts: {
    messengerLink: string;
    supportEmail: string;
    whatsappNumber: string;
  };
  user: { email: string; hasPartnerCode: boolean } | null;
  toast: Toast | null;
  cookieConsent: boolean;
  sandbox: boolean;
}

/** The root loader's data, from any page below it; none while the root itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}
