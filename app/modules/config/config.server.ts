import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { companyDetailsFor, type CompanyDetails, type Contacts, contactsFor, DEMO_CONTACTS } from "./company.server";
import { type Env, envSchema } from "./env-schema.server";
import { ZERO_CONFIG_INTERNATIONAL_HOST } from "~/modules/market/market";
import { type Carrier, DEFAULT_CARRIERS, parseCarriers } from "./carriers";
import { normalizeEmail } from "~/modules/validation/email";
import { retentionFrom, type RetentionPeriods } from "./retention";
import { type InvoiceSupplier, invoiceSupplierFor } from "./invoice-supplier.server";

/**
 * All configuration, read once from the environment and validated with zod.
 *
 * Without APP_ENV=production every missing service falls back to an embedded default
 * (PGlite, folders, outbox, sandbox payments) and missing secrets are generated once into
 * DATA_DIR/secrets.json. With APP_ENV=production (strict mode) none of that is allowed:
 * `loadConfig` throws a ConfigError naming every missing variable.
 */

export type Market = "domestic" | "international";
export const MARKETS: readonly Market[] = ["domestic", "international"];

const SECRET_NAMES = ["SESSION_SECRET", "BACKOFFICE_PASSWORD", "PACKER_PASSWORD", "CRON_SECRET"] as const;
type SecretName = (typeof SECRET_NAMES)[number];

export interface BodyLimits {
  /** Any other form or request with a body. */
  form: number;
  signIn: number;
  webhook: number;
  cron: number;
  /** The wizard's plain-form upload (multipart to /order): a whole order's files. */
  uploadForm: number;
  /** The packer's logo upload. */
  logo: number;
  /** One PATCH of a resumable upload. */
  tusChunk: number;
  /** The back-office file server test (/send-test). */
  fileServerTest: number;
}

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
  /** Sign-in codes that may be typed for one e-mail in a day. */
  signInCodeAttemptsPerEmailDay: number;
  /** The largest body each kind of route accepts, in bytes (security/body-limit.server.ts, ADR 039). */
  bodyLimits: BodyLimits;
  /** Upload volume from the bytes that arrive, the per-order cap on stored files (DESIGN §4.14), what a clinic's unpaid orders hold together (ADR 082). */
  uploads: { anonymousBytesPerHour: number; clientBytesPerDay: number; orderMaxBytes: number; orderMaxFiles: number; clinicUnpaidBytes: number };
  database: { kind: "postgres"; url: string; poolSize?: number; preparedStatements?: boolean } | { kind: "pglite"; dir: string };
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
  /** One housekeeping pass this often for the whole deployment (HOUSEKEEPING_INTERVAL_SECONDS, ADR 084). */
  housekeeping: { intervalMs: number };
  /** New draft orders one client address may start in a day (DRAFTS_PER_IP_DAY). */
  draftsPerIpDay: number;
  /** Unpaid orders one address group or signed-in account may hold at once (UNPAID_ORDERS_PER_SENDER, ADR 082). */
  unpaidOrdersPerSender: number;
  /** Data exports with files (DATA_EXPORTS_WITH_FILES_PER_PROCESS, DATA_EXPORT_WAIT_SECONDS, DATA_EXPORT_RATE a second; ADR 082). */
  dataExports: { withFilesPerProcess: number; waitSeconds: number; bytesPerSecond: number };
  /** Requests one address group may have in flight in one process (REQUESTS_IN_FLIGHT_PER_ADDRESS, ADR 056). */
  requestsInFlightPerAddress: number;
  /** Prometheus metrics (METRICS_PORT, METRICS_HOST, ADR 073): null when off, the default. */
  metrics: { port: number; host: string } | null;
  /** Carriers staff name beside a tracking number (SHIPPING_CARRIERS, ADR 062). */
  carriers: Carrier[];
  /** A status change that skips a step asks first (CONFIRM_STATUS_JUMPS, ADR 062). */
  confirmStatusJumps: boolean;
  contacts: Record<Market, Contacts>;
  usingDemoContacts: boolean;
  /** Company details of the international market's legal texts (COMPANY_INTERNATIONAL_*). */
  company: { international: CompanyDetails };
  usingDemoCompany: boolean;
  /** Variables set that this version no longer reads, each said with what replaced it (logged at start). */
  retiredVariables: string[];
  /** How long personal data is kept: the privacy notices and the scheduled job read this one list (RETENTION_*, ADR 074). */
  retention: RetentionPeriods;
  /** The lab's requisites on bank-transfer invoices of the domestic market (INVOICE_*, ADR 072). */
  invoiceSupplier: InvoiceSupplier;
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

/** Variables an earlier version read, and what took their place: still set, they would silently change nothing. */
const RETIRED_VARIABLES: Record<string, string> = {
  COMPANY_INTERNATIONAL_INVOICE_RETENTION_YEARS: "accounting records are kept RETENTION_ACCOUNTING_YEARS years from the end of the year (ADR 074)",
  KEPT_PAGE_SECONDS: "every page is made for its request; no viewer's page is given again from memory (ADR 081)",
};

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
  const retention = retentionFrom(present);
  if (retention.invalid.length > 0) throw new Error(`Invalid configuration: ${retention.invalid.join("; ")}`);
  const invoices = invoiceSupplierFor(present);
  if (invoices.invalid.length > 0) throw new Error(`Invalid configuration: ${invoices.invalid.join("; ")}`);
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
    // The lab's requisites on the domestic market's bank-transfer invoices (ADR 072).
    if (enabledMarkets.includes("domestic")) missing.push(...invoices.missing);
    if (enabledMarkets.length === 0) missing.push("ENABLED_MARKETS");
    if (missing.length > 0) throw new ConfigError(missing);
  }

  const { secrets, generated } = strict
    ? { secrets: Object.fromEntries(SECRET_NAMES.map((name) => [name, env[name]!])) as Record<SecretName, string>, generated: [] }
    : readOrGenerateSecrets(env, dataDir);

  // Outside strict mode an unset origin is this machine's: links then work on the machine that serves
  // them. The international one is `international.localhost`, which every browser resolves to this
  // machine and which counts as international (market.ts), so both markets show with no configuration.
  const publicOrigins: Record<Market, string> = {
    domestic: originOf("PUBLIC_URL_DOMESTIC", env.PUBLIC_URL_DOMESTIC ?? `http://localhost:${env.PORT}`),
    international: originOf("PUBLIC_URL_INTERNATIONAL", env.PUBLIC_URL_INTERNATIONAL ?? `http://${ZERO_CONFIG_INTERNATIONAL_HOST}:${env.PORT}`),
  };
  const s3Configured = Boolean(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY);
  const domesticContacts = contactsFor(env, "domestic");
  const internationalContacts = contactsFor(env, "international");
  const database: AppConfig["database"] = env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE, preparedStatements: env.DATABASE_PREPARED_STATEMENTS === "true" }
    : { kind: "pglite", dir: path.join(dataDir, "pglite") };

  return {
    strict,
    env: env.APP_ENV,
    port: env.PORT,
    dataDir,
    publicOrigins,
    allowedHosts: [...new Set([...Object.values(publicOrigins).map((origin) => new URL(origin).hostname), ...list(env.ALLOWED_HOSTS)])],
    signInLinksPerIpHour: env.SIGN_IN_LINKS_PER_IP_HOUR,
    signInCodeAttemptsPerEmailDay: env.SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY,
    bodyLimits: {
      form: env.BODY_LIMIT_FORM,
      signIn: env.BODY_LIMIT_SIGN_IN,
      webhook: env.BODY_LIMIT_WEBHOOK,
      cron: env.BODY_LIMIT_CRON,
      uploadForm: env.BODY_LIMIT_UPLOAD_FORM,
      logo: env.BODY_LIMIT_LOGO,
      tusChunk: env.BODY_LIMIT_TUS_CHUNK,
      fileServerTest: env.BODY_LIMIT_FILE_SERVER_TEST,
    },
    uploads: {
      anonymousBytesPerHour: env.UPLOAD_VOLUME_ANONYMOUS_PER_HOUR,
      clientBytesPerDay: env.UPLOAD_VOLUME_CLIENT_PER_DAY,
      orderMaxBytes: env.ORDER_MAX_BYTES,
      orderMaxFiles: env.ORDER_MAX_FILES,
      clinicUnpaidBytes: env.UNPAID_ORDER_BYTES_PER_CLINIC,
    },
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
      .map(normalizeEmail)
      .filter((email): email is string => email !== null),
    internationalHosts: list(env.INTERNATIONAL_HOSTS),
    enabledMarkets,
    queue: {
      leaseSeconds: env.QUEUE_LEASE_SECONDS,
      maxAttempts: env.QUEUE_MAX_ATTEMPTS,
      concurrency: env.QUEUE_CONCURRENCY,
      inProcess: env.QUEUE_IN_PROCESS === "auto" ? database.kind === "pglite" : env.QUEUE_IN_PROCESS === "true",
    },
    housekeeping: { intervalMs: env.HOUSEKEEPING_INTERVAL_SECONDS * 1000 },
    draftsPerIpDay: env.DRAFTS_PER_IP_DAY,
    unpaidOrdersPerSender: env.UNPAID_ORDERS_PER_SENDER,
    dataExports: { withFilesPerProcess: env.DATA_EXPORTS_WITH_FILES_PER_PROCESS, waitSeconds: env.DATA_EXPORT_WAIT_SECONDS, bytesPerSecond: env.DATA_EXPORT_RATE },
    requestsInFlightPerAddress: env.REQUESTS_IN_FLIGHT_PER_ADDRESS,
    metrics: env.METRICS_PORT ? { port: env.METRICS_PORT, host: env.METRICS_HOST } : null,
    carriers: env.SHIPPING_CARRIERS ? parseCarriers(env.SHIPPING_CARRIERS) : [...DEFAULT_CARRIERS],
    confirmStatusJumps: env.CONFIRM_STATUS_JUMPS === "true",
    contacts: {
      domestic: domesticContacts ?? DEMO_CONTACTS.domestic,
      international: internationalContacts ?? DEMO_CONTACTS.international,
    },
    usingDemoContacts: !domesticContacts || !internationalContacts,
    company: { international: internationalCompany.details },
    usingDemoCompany: internationalCompany.demo,
    retention: retention.periods,
    invoiceSupplier: invoices.supplier,
    retiredVariables: Object.entries(RETIRED_VARIABLES).flatMap(([name, instead]) => (name in present ? [`${name} is no longer read: ${instead}`] : [])),
  };
}

let current: AppConfig | undefined;

/** The process-wide configuration, parsed on first use. */
export function getConfig(): AppConfig {
  current ??= loadConfig();
  return current;
}
