import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { getConfig } from "~/modules/config/config.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { textTranslator } from "./overrides.server";

/**
 * The Impressum (§ 5 DDG; ADR 076): the international market's provider identification, every fact
 * from configuration (COMPANY_INTERNATIONAL_*), the headings in the reader's language. The domestic
 * site names its provider in the public offer's requisites, so there /impressum leads to it.
 */
export interface Impressum {
  title: string;
  metaDescription: string;
  intro: string;
  sections: Array<{ id: string; title: string; facts: Array<{ label: string | null; value: string; href?: string }> }>;
  privacy: { text: string; path: string };
}

export async function loadImpressum({ request, context }: LoaderFunctionArgs): Promise<{ impressum: Impressum }> {
  const { market, language } = await getLocale(request, context);
  if (!MARKET_TRAITS[market].impressum) throw redirect("/public-offer");
  const t = await textTranslator(language);
  const company = getConfig().company.international;
  const text = (key: string) => t(`legal.international.impressum.${key}`);
  return {
    impressum: {
      title: text("title"),
      metaDescription: text("metaDescription"),
      intro: text("intro"),
      sections: [
        { id: "provider", title: text("provider"), facts: [{ label: null, value: company.name }, { label: null, value: company.address }] },
        { id: "representative", title: text("representative"), facts: [{ label: null, value: company.representative }] },
        {
          id: "contact",
          title: text("contact"),
          facts: [
            { label: text("phone"), value: company.phone, href: `tel:${company.phone.replace(/[^\d+]/g, "")}` },
            { label: text("email"), value: company.contactEmail, href: `mailto:${company.contactEmail}` },
          ],
        },
        {
          id: "register",
          title: text("register"),
          facts: [
            { label: text("registerCourt"), value: company.register },
            { label: text("registerNumber"), value: company.registerNumber },
          ],
        },
        { id: "vat", title: text("vat"), facts: [{ label: text("vatText"), value: company.vatNumber }] },
      ],
      privacy: { text: text("privacy"), path: "/privacy" },
    },
  };
}
