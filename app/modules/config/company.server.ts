import { z } from "zod";
import type { Market } from "~/modules/market/market";
import { emailField } from "~/modules/validation/fields";

/**
 * Each market's contacts (CONTACTS_<MARKET>_*) and company details (COMPANY_<MARKET>_*), with the
 * demo values that fill the gaps outside strict mode. `loadConfig` reads them into `AppConfig`.
 */

export interface Contacts {
  messengerNumber: string;
  messengerLink: string;
  supportEmail: string;
  whatsappNumber: string;
}

export const DEMO_CONTACTS: Record<Market, Contacts> = {
  domestic: {
    messengerNumber: "+7 900 000-00-00",
    messengerLink: "https://wa.me/79000000000",
    supportEmail: "support@aligner.local",
    whatsappNumber: "+7 900 000-00-00",
  },
  international: {
    messengerNumber: "+49 30 0000000",
    messengerLink: "https://wa.me/49300000000",
    supportEmail: "support@aligner.local",
    whatsappNumber: "+49 30 0000000",
  },
};

/** The market's contacts from `CONTACTS_<MARKET>_*` over the demo ones; null when none is set. */
export function contactsFor(env: Partial<Record<`CONTACTS_${string}`, string>>, market: Market): Contacts | null {
  const prefix = market === "domestic" ? "CONTACTS_DOMESTIC_" : "CONTACTS_INTERNATIONAL_";
  const read = (name: string) => env[`${prefix}${name}`];
  const values = {
    messengerNumber: read("MESSENGER_NUMBER"),
    messengerLink: read("MESSENGER_LINK"),
    supportEmail: read("SUPPORT_EMAIL"),
    whatsappNumber: read("WHATSAPP_NUMBER"),
  };
  if (Object.values(values).every((value) => value === undefined)) return null;
  return { ...DEMO_CONTACTS[market], ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)) };
}

// ─── Company details for the legal pages, per market (issue 19, ADR 024) ────────────────────────
// Only the operator knows who the controller is, where data lives and which authority oversees
// it, so the international (GDPR) texts take these from COMPANY_INTERNATIONAL_*; outside strict mode
// demo values, each marked "demo", fill the gaps. Read from the raw environment so that this block
// stays apart from `envSchema`.

export interface CompanyDetails {
  name: string;
  address: string;
  email: string;
  vatNumber: string;
  dpo: string;
  supervisoryAuthority: string;
  dataLocation: string;
  productionSite: string;
  /** The country of the production site, named beside it in the privacy notice (Art. 13(1)(f)). */
  productionCountry: string;
  /** How models reach a production site: inside the EU/EEA, under an adequacy decision, or under SCCs with a transfer assessment. */
  transferSafeguard: TransferSafeguard;
  /** The EU representative (Art. 27 GDPR), or "none" when the controller is established in the EU. */
  euRepresentative: string;
  /** Days the server's logs are kept by the hosting. */
  logRetentionDays: string;
  // The Impressum's facts (§ 5 DDG, ADR 076): who represents the company, how to reach it at once, where it is registered.
  /** The persons authorised to represent the company (managing directors). */
  representative: string;
  /** The address for rapid contact by e-mail. */
  contactEmail: string;
  phone: string;
  /** The register and its court, e.g. "Handelsregister, Amtsgericht Berlin-Charlottenburg". */
  register: string;
  /** The number in that register, e.g. "HRB 123456 B". */
  registerNumber: string;
}

/** `none`: production inside the EU/EEA; `adequacy`: a country with an adequacy decision (Art. 45); `scc`: standard contractual clauses (Art. 46(2)(c)) with a transfer impact assessment. */
export const TRANSFER_SAFEGUARDS = ["none", "adequacy", "scc"] as const;
export type TransferSafeguard = (typeof TRANSFER_SAFEGUARDS)[number];

/** A DPO or EU representative given as this word is one the controller does not have. */
export const NOT_APPOINTED = "none";

/** Each detail and the suffix of its variable (`COMPANY_INTERNATIONAL_<suffix>`). */
export const COMPANY_VARIABLES: Record<keyof CompanyDetails, string> = {
  name: "NAME",
  address: "ADDRESS",
  email: "EMAIL",
  vatNumber: "VAT",
  dpo: "DPO",
  supervisoryAuthority: "SUPERVISORY_AUTHORITY",
  dataLocation: "DATA_LOCATION",
  productionSite: "PRODUCTION_SITE",
  productionCountry: "PRODUCTION_COUNTRY",
  transferSafeguard: "TRANSFER_SAFEGUARD",
  euRepresentative: "EU_REPRESENTATIVE",
  logRetentionDays: "LOG_RETENTION_DAYS",
  representative: "REPRESENTATIVE",
  contactEmail: "CONTACT_EMAIL",
  phone: "PHONE",
  register: "REGISTER",
  registerNumber: "REGISTER_NUMBER",
};

const DEMO_COMPANY: CompanyDetails = {
  name: "Aligner Lab (demo company details)",
  address: "1 Demo Street, Demo City (demo address)",
  email: "privacy@aligner.local",
  vatNumber: "XX000000000 (demo)",
  dpo: "dpo@aligner.local (demo)",
  supervisoryAuthority: "the data protection authority of the company's registered office (demo)",
  dataLocation: "demo data centre in the EU (demo)",
  productionSite: "demo production site (demo)",
  productionCountry: "demo country (demo)",
  transferSafeguard: "scc",
  euRepresentative: "Demo EU Representative, 1 Demo Street, Demo City (demo)",
  logRetentionDays: "30",
  representative: "Demo Managing Director (demo)",
  contactEmail: "contact@aligner.local",
  phone: "+49 30 0000000 (demo)",
  register: "Demo commercial register (demo)",
  registerNumber: "HRB 00000 (demo)",
};

/** The details that must have a given form, with the reason named when they do not. */
const RULES: Partial<Record<keyof CompanyDetails, { schema: { safeParse(value: string): { success: boolean } }; expected: string }>> = {
  email: { schema: emailField({ required: "missing", invalid: "invalid" }), expected: "not an e-mail address" },
  contactEmail: { schema: emailField({ required: "missing", invalid: "invalid" }), expected: "not an e-mail address" },
  transferSafeguard: { schema: z.enum(TRANSFER_SAFEGUARDS), expected: `one of ${TRANSFER_SAFEGUARDS.join(", ")}` },
  logRetentionDays: { schema: z.string().regex(/^\d+$/).refine((value) => Number(value) >= 1 && Number(value) <= 400), expected: "whole days from 1 to 400" },
};

/** The market's company details from `COMPANY_<MARKET>_*`, which of them are missing, and whether demo values fill in. */
export function companyDetailsFor(source: Record<string, string | undefined>, market: Market) {
  const prefix = `COMPANY_${market.toUpperCase()}_`;
  const missing: string[] = [];
  const invalid: string[] = [];
  const details = { ...DEMO_COMPANY };
  for (const [field, suffix] of Object.entries(COMPANY_VARIABLES) as Array<[keyof CompanyDetails, string]>) {
    const value = source[`${prefix}${suffix}`]?.trim();
    if (!value) missing.push(`${prefix}${suffix}`);
    else if (RULES[field] && !RULES[field].schema.safeParse(value).success) invalid.push(`${prefix}${suffix} (${RULES[field].expected})`);
    else (details as Record<keyof CompanyDetails, string>)[field] = value;
  }
  return { details, missing, invalid, demo: missing.length > 0 };
}
// ─── end of company details ─────────────────────────────────────────────────────────────────────
