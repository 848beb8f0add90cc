import { getLanguage } from "~/modules/i18n/i18n.server";
import { interpolate, type Messages } from "~/modules/i18n/translate";
import { MARKET_TRAITS } from "~/modules/market/market";
import { getContacts, getMarket, publicOrigin } from "~/modules/market/market.server";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";
import { pageTexts, textTranslator } from "./overrides.server";

/**
 * The legal pages (customer-side §2, §9): structured documents whose texts are keys under
 * `legal.<document>` in every language, so staff overrides apply to them as to any text. A section
 * is an object whose `title` heads it and whose `p…` (paragraph) and `li…` (list item) keys follow
 * in file order; consecutive list items form one list.
 */

export type LegalDocumentId = "privacy" | "terms" | "publicOffer" | "dataConsent";

/** The edition date shown on every document; change it with the texts. */
export const LEGAL_EDITION = "2026-11-25";

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

export async function legalDocument(request: Request, id: LegalDocumentId): Promise<LegalDocument> {
  const language = await getLanguage(request);
  const market = getMarket(request);
  const contacts = getContacts(market);
  const set = PRICE_SETS[MARKET_TRAITS[market].currency];
  const site = new URL(publicOrigin(market)).host;
  const values = {
    site,
    email: contacts.supportEmail,
    phone: contacts.whatsappNumber,
    minimumOrder: formatPriceSetAmount(set.minimumOrder, set.currency, language),
  };
  const fill = (text: string) => interpolate(text, values);
  const t = await textTranslator(language);
  // Reading every text through the translator arms the missing-key handler for the structure too.
  const legal = await pageTexts(language, "legal");
  const document = legal[id];
  if (typeof document !== "object" || typeof document.sections !== "object") t(`legal.${id}.sections`);
  const sections = typeof document === "object" && typeof document.sections === "object" ? document.sections : {};
  return {
    title: t(`legal.${id}.title`),
    metaDescription: t(`legal.${id}.metaDescription`),
    intro: t(`legal.${id}.intro`, values),
    edition: t("legal.edition", { date: new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${LEGAL_EDITION}T00:00:00Z`)) }),
    contentsTitle: t("legal.contents"),
    translationNote: language === "ru" ? null : t("legal.translationNote"),
    sections: Object.entries(sections).flatMap(([sectionId, section]) =>
      typeof section === "object" ? [{ id: sectionId, title: t(`legal.${id}.sections.${sectionId}.title`), blocks: sectionBlocks(section, fill) }] : [],
    ),
  };
}
