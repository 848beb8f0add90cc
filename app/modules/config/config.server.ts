import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * All configuration, read once from the environment and validated with zod.
 *
 * Without APP_ENV=production every missing service falls back to an embedded default
 * (PGlite, folders, outbox, sandbox payments) and missing secrets are generated once into
 * DATA_DIR/secrets.json. With APP_ENV=production (strict mode) none of that is allowed:
 * `loadConfig` throws a ConfigError naming every missing variable.
 */

const optional = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const envSchema = z.object({
  APP_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: positiveInt(3000),
  DATA_DIR: z.string().default("./data"),
  // The public origin of each market (DESIGN §3): every absolute URL the app writes comes from these.
  PUBLIC_URL_DOMESTIC: optional,
  PUBLIC_URL_INTERNATIONAL: optional,
  // Further host names the app answers (comma-separated), e.g. a www alias that redirects.
  ALLOWED_HOSTS: z.string().default(""),

  DATABASE_URL: optional,
  // Connections each process keeps open to PostgreSQL (docs/decisions/028-scale-out.md).
  DATABASE_POOL_SIZE: positiveInt(10),
  // Sign-in links one client address may ask for in an hour (DESIGN §4.24); a clinic network behind one address may need more.
  SIGN_IN_LINKS_PER_IP_HOUR: positiveInt(20),
  // Read by the logger itself (app/modules/log), which starts before the configuration; named here to be checked.
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  S3_ENDPOINT: optional,
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_BUCKET_ORDERS: z.string().default("orders"),
  S3_BUCKET_LOGOS: z.string().default("logos"),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("true"),
  // How long an S3 request may go without a byte moving before it fails (storage/s3-storage.server.ts).
  S3_TIMEOUT_MS: positiveInt(15_000),

  SFTP_URL: optional,
  SFTP_PRIVATE_KEY_PATH: optional,
  SFTP_ROOT: z.string().default("/AlignersFactory"),

  SMTP_URL: optional,
  MAIL_FROM: z.string().default("Aligner Lab <no-reply@aligner.local>"),

  YOOKASSA_SHOP_ID: optional,
  YOOKASSA_SECRET_KEY: optional,
  YOOKASSA_API_URL: z.string().url().default("https://api.yookassa.ru/v3"),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  // Only for pointing the Stripe module at a local double in tests; unset means Stripe's own API.
  STRIPE_API_URL: z.string().url().optional(),
  PAYMENT_TIMEOUT_MS: positiveInt(15_000),
  // Where the providers' hosted checkout pages live: the pay button's redirect goes there, so the
  // pages' Content-Security-Policy (form-action) names them. Comma-separated origins.
  PAYMENT_CHECKOUT_ORIGINS: z
    .string()
    .default("https://yoomoney.ru,https://checkout.stripe.com")
    .refine((value) => value.split(",").every((origin) => !origin.trim() || URL.canParse(origin.trim())), "comma-separated origins such as https://yoomoney.ru"),

  PYRUS_LOGIN: optional,
  PYRUS_SECURITY_KEY: optional,
  PYRUS_FORM_ID: optional,
  PYRUS_API_URL: z.string().url().default("https://api.pyrus.com/v4"),

  TRANSLATE_API_URL: optional,
  TRANSLATE_API_KEY: optional,

  SESSION_SECRET: optional,
  BACKOFFICE_PASSWORD: optional,
  PACKER_PASSWORD: optional,
  CRON_SECRET: optional,

  ADMIN_EMAILS: z.string().default(""),
  INTERNATIONAL_HOSTS: z.string().default("*.com"),
  ENABLED_MARKETS: z.string().default("domestic,international"),

  QUEUE_LEASE_SECONDS: positiveInt(300),
  QUEUE_MAX_ATTEMPTS: positiveInt(8),
  QUEUE_CONCURRENCY: positiveInt(3),
  QUEUE_IN_PROCESS: z.enum(["auto", "true", "false"]).default("auto"),

  CONTACTS_DOMESTIC_MESSENGER_NUMBER: optional,
  CONTACTS_DOMESTIC_MESSENGER_LINK: optional,
  CONTACTS_DOMESTIC_SUPPORT_EMAIL: optional,
  CONTACTS_DOMESTIC_WHATSAPP_NUMBER: optional,
  CONTACTS_INTERNATIONAL_MESSENGER_NUMBER: optional,
  CONTACTS_INTERNATIONAL_MESSENGER_LINK: optional,
  CONTACTS_INTERNATIONAL_SUPPORT_EMAIL: optional,
  CONTACTS_INTERNATIONAL_WHATSAPP_NUMBER: optional,
});

export type Env = z.infer<typeof envSchema>;
export type Market = "domestic" | "international";
export const MARKETS: readonly Market[] = ["domestic", "international"];

export interface Contacts {
  messengerNumber: string;
  messengerLink: string;
  supportEmail: string;
  whatsappNumber: string;
}

const DEMO_CONTACTS: Record<Market, Contacts> = {
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
}

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
};

const companyEmail = z.string().trim().email();

/** The market's company details from `COMPANY_<MARKET>_*`, which of them are missing, and whether demo values fill in. */
export function companyDetailsFor(source: Record<string, string | undefined>, market: Market) {
  const prefix = `COMPANY_${market.toUpperCase()}_`;
  const missing: string[] = [];
  const invalid: string[] = [];
  const details = { ...DEMO_COMPANY };
  for (const [field, suffix] of Object.entries(COMPANY_VARIABLES) as Array<[keyof CompanyDetails, string]>) {
    const value = source[`${prefix}${suffix}`]?.trim();
    if (!value) missing.push(`${prefix}${suffix}`);
    else if (field === "email" && !companyEmail.safeParse(value).success) invalid.push(`${prefix}${suffix} (not an e-mail address)`);
    else details[field] = value;
  }
  return { details, missing, invalid, demo: missing.length > 0 };
}
// ─── end of company details ─────────────────────────────────────────────────────────────────────

const SECRET_NAMES = ["SESSION_SECRET", "BACKOFFICE_PASSWORD", "PACKER_PASSWORD", "CRON_SECRET"] as const;
type SecretName = (typeof SECRET_NAMES)[number];

export interface AppConfig {
  strict: boolean;
  env: Env["APP_ENV"];
  port: number;
  dataDir: string;
  /** Scheme, host and port of each market's public site, without a trailing slash. */
  publicOrigins: Record<Market, string>;
  /** Host names (no port) the app answers; outside strict mode loopback names are added by the host check. */
  allowedHosts: string[];
  /** Sign-in links one client address may ask for in an hour. */
  signInLinksPerIpHour: number;
  database: { kind: "postgres"; url: string; poolSize?: number } | { kind: "pglite"; dir: string };
  storage:
    | { kind: "folder"; dir: string }
    | {
        kind: "s3";
        endpoint: string | undefined;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
        /** Idle limit of one S3 request (S3_TIMEOUT_MS). */
        timeoutMs?: number;
      };
  buckets: { orders: string; logos: string };
  fileServer: { kind: "folder"; dir: string; root: string } | { kind: "sftp"; url: string; privateKeyPath: string | undefined; root: string };
  mail: { kind: "outbox"; dir: string; from: string } | { kind: "smtp"; url: string; from: string };
  payments: {
    yookassa: { shopId: string; secretKey: string; apiUrl: string } | null;
    stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | null;
    sandbox: boolean;
    /** How long a call to a provider may take before it counts as an outage. */
    timeoutMs: number;
    /** Origins of the hosted checkout pages the pay buttons redirect to (PAYMENT_CHECKOUT_ORIGINS). */
    checkoutOrigins: string[];
  };
  pyrus: { login: string; securityKey: string; formId: string; apiUrl: string } | null;
  translation: { url: string; key: string | undefined } | null;
  secrets: Record<SecretName, string>;
  generatedSecrets: SecretName[];
  adminEmails: string[];
  internationalHosts: string[];
  enabledMarkets: Market[];
  queue: { leaseSeconds: number; maxAttempts: number; concurrency: number; inProcess: boolean };
  contacts: Record<Market, Contacts>;
  usingDemoContacts: boolean;
  /** Company details of the international market's legal texts (COMPANY_INTERNATIONAL_*). */
  company: { international: CompanyDetails };
  usingDemoCompany: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly missing: string[]) {
    super(
      `Refusing to start with APP_ENV=production: set ${missing.join(", ")}. ` +
        "Strict mode allows no embedded default, generated secret or sandbox payment.",
    );
    this.name = "ConfigError";
  }
}

function contactsFor(env: Env, market: Market): Contacts | null {
  const prefix = market === "domestic" ? "CONTACTS_DOMESTIC_" : "CONTACTS_INTERNATIONAL_";
  const read = (name: string) => env[`${prefix}${name}` as keyof Env] as string | undefined;
  const values = {
    messengerNumber: read("MESSENGER_NUMBER"),
    messengerLink: read("MESSENGER_LINK"),
    supportEmail: read("SUPPORT_EMAIL"),
    whatsappNumber: read("WHATSAPP_NUMBER"),
  };
  if (Object.values(values).every((value) => value === undefined)) return null;
  return { ...DEMO_CONTACTS[market], ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)) };
}

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/** An origin (scheme://host[:port]) from a URL variable; a path or a query in it is a mistake worth naming. */
function originOf(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Invalid configuration: ${name} must be an absolute http(s) URL such as https://aligners.example`);
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username) {
    throw new Error(`Invalid configuration: ${name} must be an origin such as https://aligners.example (no path, query or credentials)`);
  }
  return url.origin;
}

function readOrGenerateSecrets(env: Env, dataDir: string): { secrets: Record<SecretName, string>; generated: SecretName[] } {
  const file = path.join(dataDir, "secrets.json");
  let stored: Partial<Record<SecretName, string>> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8"));
  const generated: SecretName[] = [];
  const secrets = {} as Record<SecretName, string>;
  let changed = false;
  for (const name of SECRET_NAMES) {
    const fromEnv = env[name];
    if (fromEnv) {
      secrets[name] = fromEnv;
      continue;
    }
    if (!stored[name]) {
      // Passwords are typed by people: keep them short and unambiguous.
      stored[name] = name.endsWith("PASSWORD") ? randomBytes(6).toString("base64url") : randomBytes(32).toString("hex");
      changed = true;
    }
    secrets[name] = stored[name]!;
    generated.push(name);
  }
  if (changed) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return { secrets, generated };
}

/** Builds the configuration from an environment object; throws ConfigError in strict mode. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join(".")} (${issue.message})`);
    throw new Error(`Invalid configuration: ${fields.join("; ")}`);
  }
  const env = parsed.data;
  const internationalCompany = companyDetailsFor(present, "international");
  if (internationalCompany.invalid.length > 0) throw new Error(`Invalid configuration: ${internationalCompany.invalid.join("; ")}`);
  const strict = env.APP_ENV === "production";
  const dataDir = path.resolve(env.DATA_DIR);
  const enabledMarkets = env.ENABLED_MARKETS.split(",")
    .map((market) => market.trim())
    .filter((market): market is Market => (MARKETS as string[]).includes(market));

  const missing: string[] = [];
  if (strict) {
    if (!env.DATABASE_URL) missing.push("DATABASE_URL");
    for (const name of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) if (!env[name]) missing.push(name);
    if (!env.SFTP_URL) missing.push("SFTP_URL");
    if (!env.SMTP_URL) missing.push("SMTP_URL");
    for (const name of SECRET_NAMES) if (!env[name]) missing.push(name);
    if (enabledMarkets.includes("domestic")) {
      for (const name of ["YOOKASSA_SHOP_ID", "YOOKASSA_SECRET_KEY"] as const) if (!env[name]) missing.push(name);
      for (const name of ["MESSENGER_NUMBER", "MESSENGER_LINK", "SUPPORT_EMAIL", "WHATSAPP_NUMBER"])
        if (!env[`CONTACTS_DOMESTIC_${name}` as keyof Env]) missing.push(`CONTACTS_DOMESTIC_${name}`);
    }
    if (enabledMarkets.includes("international")) {
      for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) if (!env[name]) missing.push(name);
      for (const name of ["MESSENGER_NUMBER", "MESSENGER_LINK", "SUPPORT_EMAIL", "WHATSAPP_NUMBER"])
        if (!env[`CONTACTS_INTERNATIONAL_${name}` as keyof Env]) missing.push(`CONTACTS_INTERNATIONAL_${name}`);
    }
    for (const market of enabledMarkets) {
      const name = market === "domestic" ? "PUBLIC_URL_DOMESTIC" : "PUBLIC_URL_INTERNATIONAL";
      if (!env[name]) missing.push(name);
    }
    // Company details of the international legal texts (ADR 024).
    if (enabledMarkets.includes("international")) missing.push(...internationalCompany.missing);
    if (enabledMarkets.length === 0) missing.push("ENABLED_MARKETS");
    if (missing.length > 0) throw new ConfigError(missing);
  }

  const { secrets, generated } = strict
    ? { secrets: Object.fromEntries(SECRET_NAMES.map((name) => [name, env[name]!])) as Record<SecretName, string>, generated: [] }
    : readOrGenerateSecrets(env, dataDir);

  // Outside strict mode an unset origin is this machine's: links then work on the machine that serves them.
  const publicOrigins: Record<Market, string> = {
    domestic: originOf("PUBLIC_URL_DOMESTIC", env.PUBLIC_URL_DOMESTIC ?? `http://localhost:${env.PORT}`),
    international: originOf("PUBLIC_URL_INTERNATIONAL", env.PUBLIC_URL_INTERNATIONAL ?? `http://localhost:${env.PORT}`),
  };
  const s3Configured = Boolean(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY);
  const domesticContacts = contactsFor(env, "domestic");
  const internationalContacts = contactsFor(env, "international");
  const database: AppConfig["database"] = env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
    : { kind: "pglite", dir: path.join(dataDir, "pglite") };

  return {
    strict,
    env: env.APP_ENV,
    port: env.PORT,
    dataDir,
    publicOrigins,
    allowedHosts: [...new Set([...Object.values(publicOrigins).map((origin) => new URL(origin).hostname), ...list(env.ALLOWED_HOSTS)])],
    signInLinksPerIpHour: env.SIGN_IN_LINKS_PER_IP_HOUR,
    database,
    storage: s3Configured
      ? {
          kind: "s3",
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          accessKeyId: env.S3_ACCESS_KEY_ID!,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
          timeoutMs: env.S3_TIMEOUT_MS,
        }
      : { kind: "folder", dir: path.join(dataDir, "storage") },
    buckets: { orders: env.S3_BUCKET_ORDERS, logos: env.S3_BUCKET_LOGOS },
    fileServer: env.SFTP_URL
      ? { kind: "sftp", url: env.SFTP_URL, privateKeyPath: env.SFTP_PRIVATE_KEY_PATH, root: env.SFTP_ROOT }
      : { kind: "folder", dir: path.join(dataDir, "ftp"), root: env.SFTP_ROOT },
    mail: env.SMTP_URL
      ? { kind: "smtp", url: env.SMTP_URL, from: env.MAIL_FROM }
      : { kind: "outbox", dir: path.join(dataDir, "outbox"), from: env.MAIL_FROM },
    payments: {
      yookassa:
        env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY
          ? { shopId: env.YOOKASSA_SHOP_ID, secretKey: env.YOOKASSA_SECRET_KEY, apiUrl: env.YOOKASSA_API_URL }
          : null,
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL }
          : null,
      sandbox: !strict,
      timeoutMs: env.PAYMENT_TIMEOUT_MS,
      checkoutOrigins: env.PAYMENT_CHECKOUT_ORIGINS.split(",")
        .map((origin) => origin.trim())
        .filter(Boolean)
        .map((origin) => new URL(origin).origin),
    },
    pyrus:
      env.PYRUS_LOGIN && env.PYRUS_SECURITY_KEY && env.PYRUS_FORM_ID
        ? { login: env.PYRUS_LOGIN, securityKey: env.PYRUS_SECURITY_KEY, formId: env.PYRUS_FORM_ID, apiUrl: env.PYRUS_API_URL }
        : null,
    translation: env.TRANSLATE_API_URL ? { url: env.TRANSLATE_API_URL, key: env.TRANSLATE_API_KEY } : null,
    secrets,
    generatedSecrets: generated,
    adminEmails: env.ADMIN_EMAILS.split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    internationalHosts: list(env.INTERNATIONAL_HOSTS),
    enabledMarkets,
    queue: {
      leaseSeconds: env.QUEUE_LEASE_SECONDS,
      maxAttempts: env.QUEUE_MAX_ATTEMPTS,
      concurrency: env.QUEUE_CONCURRENCY,
      inProcess: env.QUEUE_IN_PROCESS === "auto" ? database.kind === "pglite" : env.QUEUE_IN_PROCESS === "true",
    },
    contacts: {
      domestic: domesticContacts ?? DEMO_CONTACTS.domestic,
      international: internationalContacts ?? DEMO_CONTACTS.international,
    },
    usingDemoContacts: !domesticContacts || !internationalContacts,
    company: { international: internationalCompany.details },
    usingDemoCompany: internationalCompany.demo,
  };
}

let current: AppConfig | undefined;

/** The process-wide configuration, parsed on first use. */
export function getConfig(): AppConfig {
  current ??= loadConfig();
  return current;
}
