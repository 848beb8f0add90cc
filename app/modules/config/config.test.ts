import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMPANY_VARIABLES } from "./company.server";
import { ConfigError, loadConfig } from "./config.server";
import { INVOICE_VARIABLES } from "./invoice-supplier.server";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "aligner-config-"));

const PRODUCTION = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://app@db/aligner",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
  SFTP_URL: "sftp://factory@files.example:22",
  SMTP_URL: "smtp://mail.example:587",
  SESSION_SECRET: "s".repeat(64),
  BACKOFFICE_PASSWORD: "office-pass",
  PACKER_PASSWORD: "packer-pass",
  CRON_SECRET: "c".repeat(64),
  YOOKASSA_SHOP_ID: "1",
  YOOKASSA_SECRET_KEY: "live_x",
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  CONTACTS_DOMESTIC_MESSENGER_NUMBER: "+7 900 000-00-01",
  CONTACTS_DOMESTIC_MESSENGER_LINK: "https://wa.me/79000000001",
  CONTACTS_DOMESTIC_SUPPORT_EMAIL: "support@aligners.ru",
  CONTACTS_DOMESTIC_WHATSAPP_NUMBER: "+7 900 000-00-01",
  CONTACTS_INTERNATIONAL_MESSENGER_NUMBER: "+49 30 1",
  CONTACTS_INTERNATIONAL_MESSENGER_LINK: "https://wa.me/49301",
  CONTACTS_INTERNATIONAL_SUPPORT_EMAIL: "support@aligners.com",
  CONTACTS_INTERNATIONAL_WHATSAPP_NUMBER: "+49 30 1",
  PUBLIC_URL_DOMESTIC: "https://aligners.ru",
  PUBLIC_URL_INTERNATIONAL: "https://aligners.com",
  COMPANY_INTERNATIONAL_NAME: "Example Aligners GmbH",
  COMPANY_INTERNATIONAL_ADDRESS: "Beispielweg 2, 10117 Berlin, Germany",
  COMPANY_INTERNATIONAL_EMAIL: "privacy@aligners.com",
  COMPANY_INTERNATIONAL_VAT: "DE123456789",
  COMPANY_INTERNATIONAL_DPO: "dpo@aligners.com",
  COMPANY_INTERNATIONAL_SUPERVISORY_AUTHORITY: "Example data protection authority, Berlin",
  COMPANY_INTERNATIONAL_DATA_LOCATION: "Frankfurt am Main, Germany",
  COMPANY_INTERNATIONAL_PRODUCTION_SITE: "Example production site",
  COMPANY_INTERNATIONAL_PRODUCTION_COUNTRY: "Serbia",
  COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD: "scc",
  COMPANY_INTERNATIONAL_EU_REPRESENTATIVE: "none",
  COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS: "14",
  COMPANY_INTERNATIONAL_REPRESENTATIVE: "Erika Beispiel",
  COMPANY_INTERNATIONAL_CONTACT_EMAIL: "info@aligners.com",
  COMPANY_INTERNATIONAL_PHONE: "+49 30 1234567",
  COMPANY_INTERNATIONAL_REGISTER: "Handelsregister, Amtsgericht Berlin-Charlottenburg",
  COMPANY_INTERNATIONAL_REGISTER_NUMBER: "HRB 123456 B",
  INVOICE_SUPPLIER_NAME: "ООО «Пример Элайнер»",
  INVOICE_SUPPLIER_INN: "7712345671",
  INVOICE_SUPPLIER_KPP: "771201001",
  INVOICE_SUPPLIER_ADDRESS: "123100, Москва, Примерная ул., д. 5",
  INVOICE_BANK_NAME: "ПАО «Пример-Банк», г. Москва",
  INVOICE_BANK_BIK: "044525999",
  INVOICE_BANK_ACCOUNT: "40702810123450000001",
  INVOICE_BANK_CORR_ACCOUNT: "30101810400000000999",
};

describe("configuration without APP_ENV=production", () => {
  it("comes up on embedded defaults with generated secrets kept in the data folder", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.strict).toBe(false);
    expect(config.database).toEqual({ kind: "pglite", dir: path.join(dir, "pglite") });
    expect(config.storage.kind).toBe("folder");
    expect(config.fileServer.kind).toBe("folder");
    expect(config.mail.kind).toBe("outbox");
    expect(config.payments.sandbox).toBe(true);
    expect(config.generatedSecrets.sort()).toEqual(["BACKOFFICE_PASSWORD", "CRON_SECRET", "PACKER_PASSWORD", "SESSION_SECRET"]);
    expect(config.queue.inProcess).toBe(true);
    // Generated once: a second start reads the same secrets.
    expect(loadConfig({ DATA_DIR: dir }).secrets).toEqual(config.secrets);
  });

  it("switches each part to the real service when its variable is set", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: "postgres://x@y/z", SMTP_URL: "smtp://m:25", SFTP_URL: "sftp://u@h:22", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b", BACKOFFICE_PASSWORD: "pw" });
    expect(config.database.kind).toBe("postgres");
    expect(config.mail.kind).toBe("smtp");
    expect(config.fileServer.kind).toBe("sftp");
    expect(config.storage.kind).toBe("s3");
    expect(config.secrets.BACKOFFICE_PASSWORD).toBe("pw");
    expect(config.generatedSecrets).not.toContain("BACKOFFICE_PASSWORD");
    expect(config.queue.inProcess).toBe(false);
  });

  it("caps sign-in links per client address at 20 an hour unless configured, and refuses a limit that is not a positive number", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).signInLinksPerIpHour).toBe(20);
    expect(loadConfig({ DATA_DIR: tempDir(), SIGN_IN_LINKS_PER_IP_HOUR: "200" }).signInLinksPerIpHour).toBe(200);
    expect(() => loadConfig({ DATA_DIR: tempDir(), SIGN_IN_LINKS_PER_IP_HOUR: "0" })).toThrow(/SIGN_IN_LINKS_PER_IP_HOUR/);
  });

  it("caps typed sign-in codes per e-mail at 30 a day unless configured", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).signInCodeAttemptsPerEmailDay).toBe(30);
    expect(loadConfig({ DATA_DIR: tempDir(), SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY: "5" }).signInCodeAttemptsPerEmailDay).toBe(5);
    expect(() => loadConfig({ DATA_DIR: tempDir(), SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY: "-1" })).toThrow(/SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY/);
  });

  it("caps new drafts per client address at 100 a day unless configured, and refuses a limit that is not a positive number", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).draftsPerIpDay).toBe(100);
    expect(loadConfig({ DATA_DIR: tempDir(), DRAFTS_PER_IP_DAY: "500" }).draftsPerIpDay).toBe(500);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DRAFTS_PER_IP_DAY: "0" })).toThrow(/DRAFTS_PER_IP_DAY/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DRAFTS_PER_IP_DAY: "many" })).toThrow(/DRAFTS_PER_IP_DAY/);
  });

  it("reads body limits and upload volumes as sizes with units, and refuses a size that is not one", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.bodyLimits.webhook).toBe(256 * 1024);
    expect(defaults.bodyLimits.form).toBe(2 * 1024 ** 2);
    expect(defaults.uploads).toEqual({ anonymousBytesPerHour: 3 * 1024 ** 3, clientBytesPerDay: 20 * 1024 ** 3, orderMaxBytes: 5 * 1024 ** 3, orderMaxFiles: 300, clinicUnpaidBytes: 10 * 1024 ** 3 });
    expect(defaults.unpaidOrdersPerSender).toBe(300);
    expect(defaults.dataExports).toEqual({ withFilesPerProcess: 2, waitSeconds: 10, bytesPerSecond: 4 * 1024 ** 2 });
    const set = loadConfig({ DATA_DIR: tempDir(), BODY_LIMIT_WEBHOOK: "64KiB", BODY_LIMIT_FORM: "1000", UPLOAD_VOLUME_CLIENT_PER_DAY: "1.5GiB" });
    expect(set.bodyLimits.webhook).toBe(64 * 1024);
    expect(set.bodyLimits.form).toBe(1000);
    expect(set.uploads.clientBytesPerDay).toBe(1.5 * 1024 ** 3);
    expect(() => loadConfig({ DATA_DIR: tempDir(), BODY_LIMIT_CRON: "lots" })).toThrow(/BODY_LIMIT_CRON/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), ORDER_MAX_BYTES: "0MiB" })).toThrow(/ORDER_MAX_BYTES/);
  });

  it("reads the international hosts and admin e-mails as lists", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), INTERNATIONAL_HOSTS: "eu.example.io, *.com", ADMIN_EMAILS: " Boss@Example.ru ,ops@example.ru" });
    expect(config.internationalHosts).toEqual(["eu.example.io", "*.com"]);
    expect(config.adminEmails).toEqual(["boss@example.ru", "ops@example.ru"]);
  });
});

describe("strict mode (APP_ENV=production)", () => {
  it("refuses to start with nothing set, naming every missing variable", () => {
    let error: unknown;
    try {
      loadConfig({ APP_ENV: "production", DATA_DIR: tempDir() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const missing = (error as ConfigError).missing;
    for (const name of ["DATABASE_URL", "S3_ACCESS_KEY_ID", "SFTP_URL", "SMTP_URL", "SESSION_SECRET", "BACKOFFICE_PASSWORD", "PACKER_PASSWORD", "CRON_SECRET", "YOOKASSA_SHOP_ID", "STRIPE_SECRET_KEY", "CONTACTS_DOMESTIC_SUPPORT_EMAIL"]) {
      expect(missing).toContain(name);
    }
    expect((error as Error).message).toContain("DATABASE_URL");
  });

  it("refuses a single missing secret", () => {
    const { PACKER_PASSWORD: _omitted, ...rest } = PRODUCTION;
    expect(() => loadConfig(rest)).toThrow(/PACKER_PASSWORD/);
  });

  it("asks only for the payment provider and contacts of enabled markets", () => {
    const { STRIPE_SECRET_KEY: _a, STRIPE_WEBHOOK_SECRET: _b, ...domesticOnly } = PRODUCTION;
    expect(() => loadConfig({ ...domesticOnly, ENABLED_MARKETS: "domestic" })).not.toThrow();
    expect(() => loadConfig(domesticOnly)).toThrow(/STRIPE_SECRET_KEY/);
  });

  it("needs the public origin of each enabled market, and answers only their hosts", () => {
    const { PUBLIC_URL_DOMESTIC: _d, PUBLIC_URL_INTERNATIONAL: _i, ...withoutOrigins } = PRODUCTION;
    let error: unknown;
    try {
      loadConfig(withoutOrigins);
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).missing).toEqual(expect.arrayContaining(["PUBLIC_URL_DOMESTIC", "PUBLIC_URL_INTERNATIONAL"]));
    const { PUBLIC_URL_INTERNATIONAL: _only, ...domesticOrigin } = PRODUCTION;
    expect(() => loadConfig({ ...domesticOrigin, ENABLED_MARKETS: "domestic" })).not.toThrow();
    const config = loadConfig({ ...PRODUCTION, ALLOWED_HOSTS: "www.aligners.ru" });
    expect(config.publicOrigins).toEqual({ domestic: "https://aligners.ru", international: "https://aligners.com" });
    expect(config.allowedHosts.sort()).toEqual(["aligners.com", "aligners.ru", "www.aligners.ru"]);
  });

  it("refuses a public origin with a path, a query or credentials, naming the variable", () => {
    for (const value of ["https://aligners.ru/shop", "https://aligners.ru/?a=1", "https://user:pw@aligners.ru", "ftp://aligners.ru", "aligners.ru"]) {
      expect(() => loadConfig({ ...PRODUCTION, PUBLIC_URL_DOMESTIC: value }), value).toThrow(/PUBLIC_URL_DOMESTIC/);
    }
  });

  it("starts with everything real, never the sandbox, generated secrets or demo contacts", () => {
    const config = loadConfig(PRODUCTION);
    expect(config.strict).toBe(true);
    expect(config.payments.sandbox).toBe(false);
    expect(config.generatedSecrets).toEqual([]);
    expect(config.usingDemoContacts).toBe(false);
    expect(config.contacts.international.supportEmail).toBe("support@aligners.com");
  });

  it("names each missing company detail of the international market, and asks none when that market is off", () => {
    const variables = Object.values(COMPANY_VARIABLES).map((suffix) => `COMPANY_INTERNATIONAL_${suffix}`);
    expect(variables).toHaveLength(17);
    // The legal facts of issue 37 are among them: production country, transfer safeguard, EU representative, retention periods.
    expect(variables).toEqual(
      expect.arrayContaining([
        "COMPANY_INTERNATIONAL_PRODUCTION_COUNTRY",
        "COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD",
        "COMPANY_INTERNATIONAL_EU_REPRESENTATIVE",
        "COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS",
        "COMPANY_INTERNATIONAL_DPO",
        // The Impressum's facts (§ 5 DDG, ADR 076).
        "COMPANY_INTERNATIONAL_REPRESENTATIVE",
        "COMPANY_INTERNATIONAL_CONTACT_EMAIL",
        "COMPANY_INTERNATIONAL_PHONE",
        "COMPANY_INTERNATIONAL_REGISTER",
        "COMPANY_INTERNATIONAL_REGISTER_NUMBER",
      ]),
    );
    for (const variable of variables) {
      const { [variable as keyof typeof PRODUCTION]: _omitted, ...rest } = PRODUCTION;
      let error: unknown;
      try {
        loadConfig(rest);
      } catch (caught) {
        error = caught;
      }
      expect(error, variable).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).missing).toEqual([variable]);
      expect((error as Error).message).toContain(variable);
    }
    const withoutCompany = Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => !name.startsWith("COMPANY_")));
    expect(() => loadConfig(withoutCompany)).toThrow(ConfigError);
    expect(() => loadConfig({ ...withoutCompany, ENABLED_MARKETS: "domestic" })).not.toThrow();
  });

  it("uses the configured company details, and refuses an e-mail that is not one", () => {
    const config = loadConfig(PRODUCTION);
    expect(config.usingDemoCompany).toBe(false);
    expect(config.company.international).toEqual({
      name: "Example Aligners GmbH",
      address: "Beispielweg 2, 10117 Berlin, Germany",
      email: "privacy@aligners.com",
      vatNumber: "DE123456789",
      dpo: "dpo@aligners.com",
      supervisoryAuthority: "Example data protection authority, Berlin",
      dataLocation: "Frankfurt am Main, Germany",
      productionSite: "Example production site",
      productionCountry: "Serbia",
      transferSafeguard: "scc",
      euRepresentative: "none",
      logRetentionDays: "14",
      representative: "Erika Beispiel",
      contactEmail: "info@aligners.com",
      phone: "+49 30 1234567",
      register: "Handelsregister, Amtsgericht Berlin-Charlottenburg",
      registerNumber: "HRB 123456 B",
    });
    expect(() => loadConfig({ ...PRODUCTION, COMPANY_INTERNATIONAL_EMAIL: "privacy at aligners" })).toThrow(/COMPANY_INTERNATIONAL_EMAIL/);
  });

  it("refuses a transfer safeguard or retention period it cannot state, naming the variable and what it expects", () => {
    expect(() => loadConfig({ ...PRODUCTION, COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD: "trust us" })).toThrow(/COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD \(one of none, adequacy, scc\)/);
    expect(() => loadConfig({ ...PRODUCTION, RETENTION_ACCOUNTING_YEARS: "ten" })).toThrow(/RETENTION_ACCOUNTING_YEARS/);
    expect(() => loadConfig({ ...PRODUCTION, RETENTION_ACCOUNTING_YEARS: "0" })).toThrow(/RETENTION_ACCOUNTING_YEARS/);
    expect(() => loadConfig({ ...PRODUCTION, COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS: "-3" })).toThrow(/COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS/);
    for (const safeguard of ["none", "adequacy", "scc"]) {
      expect(loadConfig({ ...PRODUCTION, COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD: safeguard }).company.international.transferSafeguard).toBe(safeguard);
    }
  });
});

describe("the lab's requisites on bank-transfer invoices (ADR 072)", () => {
  it("names each missing requisite in strict mode while the domestic market is on, and none when it is off", () => {
    const variables = Object.values(INVOICE_VARIABLES);
    expect(variables).toEqual(["INVOICE_SUPPLIER_NAME", "INVOICE_SUPPLIER_INN", "INVOICE_SUPPLIER_KPP", "INVOICE_SUPPLIER_ADDRESS", "INVOICE_BANK_NAME", "INVOICE_BANK_BIK", "INVOICE_BANK_ACCOUNT", "INVOICE_BANK_CORR_ACCOUNT"]);
    for (const variable of variables) {
      const { [variable as keyof typeof PRODUCTION]: _omitted, ...rest } = PRODUCTION;
      let error: unknown;
      try {
        loadConfig(rest);
      } catch (caught) {
        error = caught;
      }
      expect(error, variable).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).missing).toEqual([variable]);
      expect((error as Error).message).toContain(variable);
    }
    const withoutRequisites = Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => !name.startsWith("INVOICE_")));
    let error: unknown;
    try {
      loadConfig(withoutRequisites);
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).missing).toEqual(variables);
    expect(() => loadConfig({ ...withoutRequisites, ENABLED_MARKETS: "international" })).not.toThrow();
  });

  it("uses the configured requisites with the VAT note, and asks no КПП of an individual entrepreneur", () => {
    const config = loadConfig({ ...PRODUCTION, INVOICE_VAT_NOTE: "В том числе НДС 20 %" });
    expect(config.invoiceSupplier).toEqual({
      name: "ООО «Пример Элайнер»",
      inn: "7712345671",
      kpp: "771201001",
      address: "123100, Москва, Примерная ул., д. 5",
      bankName: "ПАО «Пример-Банк», г. Москва",
      bik: "044525999",
      account: "40702810123450000001",
      corrAccount: "30101810400000000999",
      vatNote: "В том числе НДС 20 %",
      demo: false,
    });
    expect(loadConfig(PRODUCTION).invoiceSupplier.vatNote).toBe("Без НДС");
    const { INVOICE_SUPPLIER_KPP: _kpp, ...entrepreneur } = PRODUCTION;
    const config12 = loadConfig({ ...entrepreneur, INVOICE_SUPPLIER_INN: "771234567859", INVOICE_SUPPLIER_NAME: "ИП Примеров Пётр Петрович" });
    expect(config12.invoiceSupplier).toMatchObject({ inn: "771234567859", kpp: null, demo: false });
  });

  it("refuses a requisite in the wrong form in any mode, naming the variable and what it expects", () => {
    expect(() => loadConfig({ ...PRODUCTION, INVOICE_SUPPLIER_INN: "7712345670" })).toThrow(/INVOICE_SUPPLIER_INN \(10 or 12 digits with valid check digits\)/);
    expect(() => loadConfig({ ...PRODUCTION, INVOICE_BANK_BIK: "04452599" })).toThrow(/INVOICE_BANK_BIK \(9 digits\)/);
    expect(() => loadConfig({ ...PRODUCTION, INVOICE_BANK_ACCOUNT: "4070281012345000000" })).toThrow(/INVOICE_BANK_ACCOUNT \(20 digits\)/);
    expect(() => loadConfig({ ...PRODUCTION, INVOICE_BANK_CORR_ACCOUNT: "3010181040000000099X" })).toThrow(/INVOICE_BANK_CORR_ACCOUNT/);
    expect(() => loadConfig({ ...PRODUCTION, INVOICE_SUPPLIER_KPP: "77120100" })).toThrow(/INVOICE_SUPPLIER_KPP/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), INVOICE_BANK_BIK: "bik" })).toThrow(/INVOICE_BANK_BIK/);
  });

  it("fills each gap outside strict mode with demo requisites that say so", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), INVOICE_BANK_NAME: "Свой банк" });
    expect(config.invoiceSupplier.demo).toBe(true);
    expect(config.invoiceSupplier.bankName).toBe("Свой банк");
    expect(config.invoiceSupplier.name).toMatch(/демо/);
    expect(config.invoiceSupplier.address).toMatch(/демо/);
  });
});

describe("company details outside strict mode", () => {
  it("fill every gap with a demo value that says it is one", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), COMPANY_INTERNATIONAL_NAME: "Own Name Ltd" });
    expect(config.usingDemoCompany).toBe(true);
    expect(config.company.international.name).toBe("Own Name Ltd");
    for (const [field, value] of Object.entries(config.company.international)) {
      // Coded facts (a safeguard, numbers of years and days) have defaults the notice states as such.
      if (["name", "email", "contactEmail", "transferSafeguard", "logRetentionDays"].includes(field)) continue;
      expect(value, field).toMatch(/demo/);
    }
  });
});

describe("variables an earlier version read", () => {
  it("are named with what replaced them, and change nothing", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir, COMPANY_INTERNATIONAL_INVOICE_RETENTION_YEARS: "7" });
    expect(config.retiredVariables).toEqual([expect.stringMatching(/^COMPANY_INTERNATIONAL_INVOICE_RETENTION_YEARS is no longer read: .*RETENTION_ACCOUNTING_YEARS/)]);
    expect(config.retention).toEqual(loadConfig({ DATA_DIR: dir }).retention);
    expect(loadConfig({ DATA_DIR: dir }).retiredVariables).toEqual([]);
  });

  it("name KEPT_PAGE_SECONDS, whose page store is gone", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), KEPT_PAGE_SECONDS: "10" });
    expect(config.retiredVariables).toEqual([expect.stringMatching(/^KEPT_PAGE_SECONDS is no longer read: every page is made for its request/)]);
  });
});
