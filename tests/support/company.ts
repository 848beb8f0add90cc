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
  COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS: "21",
  COMPANY_INTERNATIONAL_REPRESENTATIVE: "Dr. Test Director",
  COMPANY_INTERNATIONAL_CONTACT_EMAIL: "contact@aligner.test",
  COMPANY_INTERNATIONAL_PHONE: "+31 20 000 0000",
  COMPANY_INTERNATIONAL_REGISTER: "Handelsregister (KvK), Amsterdam",
  COMPANY_INTERNATIONAL_REGISTER_NUMBER: "KvK 00000000",
  // Not a company detail, but the international notice states it beside them (config/retention.ts).
  RETENTION_ACCOUNTING_YEARS: "11",
};

/**
 * The lab's requisites on the domestic market's bank-transfer invoices (INVOICE_*, ADR 072), for
 * servers in strict mode and tests that check an invoice prints what is configured.
 */
export const INVOICE_SUPPLIER = {
  INVOICE_SUPPLIER_NAME: "ООО «Тест Элайнер»",
  INVOICE_SUPPLIER_INN: "7728000009",
  INVOICE_SUPPLIER_KPP: "772801001",
  INVOICE_SUPPLIER_ADDRESS: "117342, Москва, Тестовая ул., д. 7",
  INVOICE_BANK_NAME: "АО «Тест-Банк», г. Москва",
  INVOICE_BANK_BIK: "044525777",
  INVOICE_BANK_ACCOUNT: "40702810700000001234",
  INVOICE_BANK_CORR_ACCOUNT: "30101810100000000777",
};
