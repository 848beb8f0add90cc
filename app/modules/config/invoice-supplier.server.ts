import { isInn } from "~/modules/validation/inn";

/**
 * The lab's requisites on a bank-transfer invoice (ADR 072), from `INVOICE_*`: the supplier (name,
 * ИНН, КПП, address), its bank (name, БИК, settlement and correspondent accounts) and the VAT note.
 * Outside strict mode demo values, marked as such, fill the gaps; in strict mode, with the domestic
 * market on, each missing one is named (`missing`). A value given in the wrong form is refused
 * whatever the mode (`invalid`): a wrong digit in an account sends a clinic's money astray.
 */

export interface InvoiceSupplier {
  name: string;
  inn: string;
  /** An organisation's КПП; an individual entrepreneur (12-digit ИНН) has none. */
  kpp: string | null;
  address: string;
  bankName: string;
  bik: string;
  /** Расчётный счёт. */
  account: string;
  /** Корреспондентский счёт of the bank. */
  corrAccount: string;
  /** "Без НДС", or the VAT the lab charges, printed under the total. */
  vatNote: string;
  /** Demo values filled a gap: the invoice says it is not for paying. */
  demo: boolean;
}

type Requisite = Exclude<keyof InvoiceSupplier, "demo" | "vatNote">;

/** Each requisite and its variable. */
export const INVOICE_VARIABLES: Record<Requisite, string> = {
  name: "INVOICE_SUPPLIER_NAME",
  inn: "INVOICE_SUPPLIER_INN",
  kpp: "INVOICE_SUPPLIER_KPP",
  address: "INVOICE_SUPPLIER_ADDRESS",
  bankName: "INVOICE_BANK_NAME",
  bik: "INVOICE_BANK_BIK",
  account: "INVOICE_BANK_ACCOUNT",
  corrAccount: "INVOICE_BANK_CORR_ACCOUNT",
};

export const DEFAULT_VAT_NOTE = "Без НДС";

const DEMO: Record<Requisite, string> = {
  name: "ООО «Элайнер Лаб» (демо-реквизиты)",
  inn: "7700000016",
  kpp: "770001001",
  address: "125009, Москва, Демонстрационная ул., д. 1 (демо)",
  bankName: "ДЕМО-БАНК (демо)",
  bik: "044500000",
  account: "40702810000000000001",
  corrAccount: "30101810000000000000",
};

/** The requisites whose form is fixed, and what is expected of them. */
const FORMS: Partial<Record<Requisite, { test: (value: string) => boolean; expected: string }>> = {
  inn: { test: isInn, expected: "10 or 12 digits with valid check digits" },
  kpp: { test: (value) => /^\d{4}[\dA-Z]{2}\d{3}$/.test(value), expected: "9 characters, such as 770101001" },
  bik: { test: (value) => /^\d{9}$/.test(value), expected: "9 digits" },
  account: { test: (value) => /^\d{20}$/.test(value), expected: "20 digits" },
  corrAccount: { test: (value) => /^\d{20}$/.test(value), expected: "20 digits" },
};

/** The lab's requisites from `INVOICE_*`, the variables missing, those given in the wrong form, and whether demo values filled in. */
export function invoiceSupplierFor(source: Partial<Record<string, string>>) {
  const missing: string[] = [];
  const invalid: string[] = [];
  const given: Partial<Record<Requisite, string>> = {};
  for (const [requisite, variable] of Object.entries(INVOICE_VARIABLES) as Array<[Requisite, string]>) {
    const value = source[variable]?.trim();
    if (!value) continue;
    const form = FORMS[requisite];
    if (form && !form.test(value)) invalid.push(`${variable} (${form.expected})`);
    else given[requisite] = value;
  }
  // An individual entrepreneur (12-digit ИНН) has no КПП: it is asked of an organisation only.
  const entrepreneur = given.inn?.length === 12;
  for (const [requisite, variable] of Object.entries(INVOICE_VARIABLES) as Array<[Requisite, string]>) {
    if (given[requisite] || (requisite === "kpp" && entrepreneur) || invalid.some((entry) => entry.startsWith(`${variable} `))) continue;
    missing.push(variable);
  }
  const supplier: InvoiceSupplier = {
    ...DEMO,
    ...(entrepreneur ? { kpp: null } : {}),
    ...given,
    vatNote: source.INVOICE_VAT_NOTE?.trim() || DEFAULT_VAT_NOTE,
    demo: missing.length > 0,
  };
  return { supplier, missing, invalid };
}
