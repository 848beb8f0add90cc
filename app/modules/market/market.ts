import type { Language } from "~/modules/i18n/languages";

/** Markets replace the specs' "production host" (DESIGN §3). */
export type Market = "domestic" | "international";

export interface MarketTraits {
  currency: "rub" | "eur";
  defaultLanguage: Language;
  softMatrix: boolean;
  /** Consent checkbox on step 3, minimum-order and monthly-discount notes. */
  domesticNotices: boolean;
  /** The two landing sections and the public-offer/data-consent footer links. */
  legalLinks: boolean;
  /**
   * The site-wide money-back banner: a promise of the domestic public offer (§7), which the
   * international terms do not make (ADR 044).
   */
  guaranteeBanner: boolean;
  /**
   * The Impressum (§ 5 DDG) in the footer and at /impressum (ADR 076). The domestic site names its
   * provider in the public offer's requisites, as Russian law expects; /impressum leads there.
   */
  impressum: boolean;
  /** The zone the market's staff read times in (the back office says it beside each time): Moscow, or Berlin for the EU. */
  timeZone: StaffTimeZone;
}

export type StaffTimeZone = "Europe/Moscow" | "Europe/Berlin";

export const MARKET_TRAITS: Record<Market, MarketTraits> = {
  domestic: { currency: "rub", defaultLanguage: "ru", softMatrix: true, domesticNotices: true, legalLinks: true, guaranteeBanner: true, impressum: false, timeZone: "Europe/Moscow" },
  international: { currency: "eur", defaultLanguage: "en", softMatrix: false, domesticNotices: false, legalLinks: false, guaranteeBanner: false, impressum: true, timeZone: "Europe/Berlin" },
};

/** Host without port, lower-cased. */
export function hostName(hostHeader: string | null | undefined): string {
  const host = (hostHeader ?? "").trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0] ?? "";
}

/**
 * The international market's host when nothing is configured (ADR 048): browsers resolve every
 * `*.localhost` name to this machine, and outside strict mode the app answers it, so a plain
 * `npm start` shows both markets. International whatever INTERNATIONAL_HOSTS says.
 */
export const ZERO_CONFIG_INTERNATIONAL_HOST = "international.localhost";

/**
 * International when the host matches INTERNATIONAL_HOSTS: exact names, or `*.suffix` patterns
 * (the default `*.com` matches any host ending in `.com`); and the zero-configuration host above.
 */
export function marketForHost(hostHeader: string | null | undefined, internationalHosts: readonly string[]): Market {
  const host = hostName(hostHeader);
  const international = [...internationalHosts, ZERO_CONFIG_INTERNATIONAL_HOST].some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern,
  );
  return international ? "international" : "domestic";
}
