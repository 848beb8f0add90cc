import { NOT_APPOINTED } from "~/modules/config/company.server";
import { getConfig } from "~/modules/config/config.server";
import { formatPeriod, periodPlaceholder, RETENTION_IDS } from "~/modules/config/retention";
import type { Locale } from "~/modules/http/request/request-context.server";
import { interpolate, type Messages } from "~/modules/i18n/translate";
import { type Market, MARKET_TRAITS } from "~/modules/market/market";
import { getContacts, publicOrigin } from "~/modules/market/market.server";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";
import { editionDate } from "./edition-date";
import { pageTexts, textTranslator } from "./overrides.server";

/**
 * The legal pages (customer-side §2, §9; ADR 016, ADR 024): structured documents whose texts are
 * keys in every language, so staff overrides apply to them as to any text. A section is an object
 * whose `title` heads it and whose `p…` (paragraph) and `li…` (list item) keys follow in file order;
 * consecutive list items form one list.
 *
 * Each market has its own texts, chosen by the host, never by the language: the domestic market's
 * are `legal.<document>` (152-FZ), the international market's are `legal.international.<document>`
 * (GDPR), filled with the company details from configuration (COMPANY_INTERNATIONAL_*).
 */

export type LegalDocumentId = "privacy" | "terms" | "publicOffer" | "dataConsent";

/** The documents each market publishes; the international market has no public offer (its terms are the contract). */
export const MARKET_DOCUMENTS: Record<Market, readonly LegalDocumentId[]> = {
  domestic: ["privacy", "terms", "publicOffer", "dataConsent"],
  international: ["privacy", "terms", "dataConsent"],
};

const DOCUMENT_PATHS: Record<LegalDocumentId, string> = {
  privacy: "/privacy",
  terms: "/terms",
  publicOffer: "/public-offer",
  dataConsent: "/data-consent",
};

/** The edition date shown on each market's documents; change it with the texts. */
export const LEGAL_EDITIONS: Record<Market, string> = {
  domestic: "2026-11-25",
  international: "2026-12-01",
};

/** The language whose version of a market's texts prevails; other languages say so. */
const PREVAILING_LANGUAGE: Record<Market, string> = { domestic: "ru", international: "en" };

export interface LegalBlock {
  kind: "p" | "ul";
  texts: string[];
}

export interface LegalDocument {
  title: string;
  metaDescription: string;
  intro: string;
  edition: string;
  contentsTitle: string;
  translationNote: string | null;
  /** The market's other documents, so each is reachable from the others. */
  related: { title: string; links: Array<{ path: string; title: string }> };
  sections: Array<{ id: string; title: string; blocks: LegalBlock[] }>;
}

function sectionBlocks(section: Messages, fill: (text: string) => string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  for (const [key, value] of Object.entries(section)) {
    if (key === "title" || typeof value !== "string") continue;
    const kind = key.startsWith("li") ? "ul" : "p";
    const last = blocks.at(-1);
    if (kind === "ul" && last?.kind === "ul") last.texts.push(fill(value));
    else blocks.push({ kind, texts: [fill(value)] });
  }
  return blocks;
}

/**
 * The values a market's texts are filled with. On the international market the facts that differ
 * per deployment (ADR 044) become whole sentences: the DPO or that none is appointed, the EU
 * representative or that none is needed, and the production site's transfer with its safeguard.
 */
function documentValues(market: Market, language: string, site: string, t: Translate): Record<string, string> {
  const contacts = getContacts(market);
  const set = PRICE_SETS[MARKET_TRAITS[market].currency];
  const values: Record<string, string> = {
    site,
    email: contacts.supportEmail,
    phone: contacts.whatsappNumber,
    minimumOrder: formatPriceSetAmount(set.minimumOrder, set.currency, language),
  };
  // The retention periods the scheduled job enforces (ADR 074), in the reader's words: one list for both.
  const retention = getConfig().retention;
  for (const id of RETENTION_IDS) values[periodPlaceholder(id)] = formatPeriod(id, retention, language);
  if (market === "international") {
    const company = getConfig().company.international;
    Object.assign(values, {
      companyName: company.name,
      companyAddress: company.address,
      companyEmail: company.email,
      vatNumber: company.vatNumber,
      dpo: company.dpo,
      authority: company.supervisoryAuthority,
      dataLocation: company.dataLocation,
      productionSite: company.productionSite,
      productionCountry: company.productionCountry,
      euRepresentative: company.euRepresentative,
      logRetentionDays: company.logRetentionDays,
    });
    const facts = "legal.international.facts";
    Object.assign(values, {
      dpoStatement: t(`${facts}.dpo.${isAppointed(company.dpo) ? "appointed" : "none"}`, values),
      representativeStatement: t(`${facts}.representative.${isAppointed(company.euRepresentative) ? "appointed" : "none"}`, values),
      productionTransfer: t(`${facts}.transfer.${company.transferSafeguard}`, values),
    });
  }
  return values;
}

const isAppointed = (value: string) => value.trim().toLowerCase() !== NOT_APPOINTED;

type Translate = Awaited<ReturnType<typeof textTranslator>>;

/**
 * Ids the page around a document already uses (the footer is `#contacts`, the main region `#main`):
 * a section named like one is anchored as `{document}-{section}` instead, since an id must be unique
 * in a page (the Nu HTML Checker, ADR 048). Other sections keep their key, so `/privacy#cookies` holds.
 */
const FRAME_IDS = new Set(["contacts", "main"]);
const anchorOf = (document: LegalDocumentId, section: string) => (FRAME_IDS.has(section) ? `${document}-${section}` : section);

/** The market's document, or null when that market does not publish it. */
export async function legalDocument({ market, language }: Locale, id: LegalDocumentId): Promise<LegalDocument | null> {
  if (!MARKET_DOCUMENTS[market].includes(id)) return null;
  const site = new URL(publicOrigin(market)).host;
  const t = await textTranslator(language);
  const values = documentValues(market, language, site, t);
  const fill = (text: string) => interpolate(text, values);
  const root = market === "international" ? "legal.international" : "legal";
  // Reading every text through the translator arms the missing-key handler for the structure too.
  const legal = await pageTexts(language, "legal");
  const texts = market === "international" ? legal.international : legal;
  const document = typeof texts === "object" ? texts[id] : undefined;
  if (typeof document !== "object" || typeof document.sections !== "object") t(`${root}.${id}.sections`);
  const sections = typeof document === "object" && typeof document.sections === "object" ? document.sections : {};
  const date = editionDate(LEGAL_EDITIONS[market], language);
  return {
    title: t(`${root}.${id}.title`),
    metaDescription: t(`${root}.${id}.metaDescription`),
    intro: t(`${root}.${id}.intro`, values),
    edition: t("legal.edition", { date }),
    contentsTitle: t("legal.contents"),
    translationNote: language === PREVAILING_LANGUAGE[market] ? null : t(`${root}.translationNote`),
    related: {
      title: t("legal.related"),
      links: MARKET_DOCUMENTS[market].filter((other) => other !== id).map((other) => ({ path: DOCUMENT_PATHS[other], title: t(`${root}.${other}.title`) })),
    },
    sections: Object.entries(sections).flatMap(([sectionId, section]) =>
      typeof section === "object" ? [{ id: anchorOf(id, sectionId), title: t(`${root}.${id}.sections.${sectionId}.title`), blocks: sectionBlocks(section, fill) }] : [],
    ),
  };
}
