/**
 * Company details of the international market (COMPANY_INTERNATIONAL_*, ADR 024) for servers that
 * run in strict mode, or tests that check the legal texts show the configured values.
 */
export const COMPANY_INTERNATIONAL = {
  COMPANY_INTERNATIONAL_NAME: "Test Aligners Europe B.V.",
  COMPANY_INTERNATIONAL_ADDRESS: "Teststraat 5, 1011 AB Amsterdam, Netherlands",
  COMPANY_INTERNATIONAL_EMAIL: "privacy@aligner.test",
  COMPANY_INTERNATIONAL_VAT: "NL000099998B57",
  COMPANY_INTERNATIONAL_DPO: "dpo@aligner.test",
  COMPANY_INTERNATIONAL_SUPERVISORY_AUTHORITY: "Autoriteit Persoonsgegevens (test)",
  COMPANY_INTERNATIONAL_DATA_LOCATION: "Amsterdam, Netherlands (test)",
  COMPANY_INTERNATIONAL_PRODUCTION_SITE: "test production site",
  COMPANY_INTERNATIONAL_PRODUCTION_COUNTRY: "Testland",
  COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD: "scc",
  COMPANY_INTERNATIONAL_EU_REPRESENTATIVE: "EU Rep Test GmbH, Vertreterweg 1, Berlin",
  COMPANY_INTERNATIONAL_INVOICE_RETENTION_YEARS: "11",
  COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS: "21",
};
