import { z } from "zod";

/**
 * The environment's variables and their defaults: the schema `loadConfig` (config.server.ts)
 * parses once. Empty values are dropped before the parse, so an empty variable means "not set".
 */

const optional = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const BYTE_UNITS = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 } as const;

/** A size such as `256KiB`, `2MiB`, `5GiB` or a plain number of bytes; the result is in bytes. */
const byteSize = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const match = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB)?\s*$/.exec(value);
      const bytes = match ? Math.floor(Number(match[1]) * BYTE_UNITS[(match[2] ?? "B") as keyof typeof BYTE_UNITS]) : 0;
      if (bytes > 0) return bytes;
      context.addIssue({ code: z.ZodIssueCode.custom, message: "a size such as 256KiB, 2MiB or 5GiB" });
      return z.NEVER;
    });

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
  // Statements prepared once per connection and planned from then on (ADR 086); `false` behind a
  // pooler in transaction mode that cannot keep them (PgBouncer before 1.21).
  DATABASE_PREPARED_STATEMENTS: z.enum(["true", "false"]).default("true"),
  // Sign-in links one client address may ask for in an hour (DESIGN §4.24); a clinic network behind one address may need more.
  SIGN_IN_LINKS_PER_IP_HOUR: positiveInt(20),
  // Sign-in codes that may be typed for one e-mail in a day, right or wrong (ADR 040); the link in the mail is not counted.
  SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY: positiveInt(30),
  // The largest body each kind of route accepts, counted as it arrives (ADR 039).
  BODY_LIMIT_FORM: byteSize("2MiB"),
  BODY_LIMIT_SIGN_IN: byteSize("64KiB"),
  BODY_LIMIT_WEBHOOK: byteSize("256KiB"),
  BODY_LIMIT_CRON: byteSize("16KiB"),
  BODY_LIMIT_UPLOAD_FORM: byteSize("5121MiB"),
  BODY_LIMIT_LOGO: byteSize("2112KiB"),
  BODY_LIMIT_TUS_CHUNK: byteSize("16MiB"),
  BODY_LIMIT_FILE_SERVER_TEST: byteSize("101MiB"),
  // Upload volume counted from the bytes that arrive (DESIGN §4.14), and the per-order cap on stored files.
  UPLOAD_VOLUME_ANONYMOUS_PER_HOUR: byteSize("3GiB"),
  UPLOAD_VOLUME_CLIENT_PER_DAY: byteSize("20GiB"),
  ORDER_MAX_BYTES: byteSize("5GiB"),
  ORDER_MAX_FILES: positiveInt(300),
  // What all unpaid orders a signed-in clinic started may hold together, uploads and "order again" copies alike (ADR 082).
  UNPAID_ORDER_BYTES_PER_CLINIC: byteSize("10GiB"),
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
  // Housekeeping (retention, drafts, codes, sessions, the storage walk…) runs once this often for the
  // whole deployment, whichever process takes its lease (ADR 084).
  HOUSEKEEPING_INTERVAL_SECONDS: positiveInt(60),

  // New draft orders one client address (an IPv6 /64) may start in a day (DESIGN §4.6, ADR 038);
  // a clinic network behind one address makes dozens a day.
  DRAFTS_PER_IP_DAY: positiveInt(100),
  // Unpaid orders (drafts, orders awaiting payment), each holding an order code, that one address group
  // or one signed-in account may have at once (ADR 082): 300 is under 0.5 % of the 65,536 codes.
  UNPAID_ORDERS_PER_SENDER: positiveInt(300),
  // Data exports with files (ADR 078, 082): one at a time per clinic, this many at once per process;
  // the next waits this long for its turn, then is refused with 429.
  DATA_EXPORTS_WITH_FILES_PER_PROCESS: positiveInt(2),
  DATA_EXPORT_WAIT_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  // The fastest a process's exports with files are sent together, a second: each MiB costs it 10–17 ms of CPU (ADR 082).
  DATA_EXPORT_RATE: byteSize("4MiB"),
  REQUESTS_IN_FLIGHT_PER_ADDRESS: positiveInt(64),
  // Prometheus metrics on a port of their own, never the public one (ADR 073): off unless set.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),

  // Carriers staff name when an order is shipped: "id|Name|https://…{number}" entries, ";" between (ADR 062).
  SHIPPING_CARRIERS: optional,
  // "true": a status change that skips a step (paid → completed) asks before it is made (ADR 062).
  CONFIRM_STATUS_JUMPS: z.enum(["true", "false"]).default("false"),

  CONTACTS_DOMESTIC_MESSENGER_NUMBER: optional,
  CONTACTS_DOMESTIC_MESSENGER_LINK: optional,
  CONTACTS_DOMESTIC_SUPPORT_EMAIL: optional,
  CONTACTS_DOMESTIC_WHATSAPP_NUMBER: optional,
  CONTACTS_INTERNATIONAL_MESSENGER_NUMBER: optional,
  CONTACTS_INTERNATIONAL_MESSENGER_LINK: optional,
  CONTACTS_INTERNATIONAL_SUPPORT_EMAIL: optional,
  CONTACTS_INTERNATIONAL_WHATSAPP_NUMBER: optional,

  // The lab's requisites on bank-transfer invoices of the domestic market (ADR 072): each required in
  // strict mode when that market is on (the КПП unless the ИНН is an entrepreneur's 12 digits).
  INVOICE_SUPPLIER_NAME: optional,
  INVOICE_SUPPLIER_INN: optional,
  INVOICE_SUPPLIER_KPP: optional,
  INVOICE_SUPPLIER_ADDRESS: optional,
  INVOICE_BANK_NAME: optional,
  INVOICE_BANK_BIK: optional,
  INVOICE_BANK_ACCOUNT: optional,
  INVOICE_BANK_CORR_ACCOUNT: optional,
  // The line under an invoice's total ("Без НДС" unless set, e.g. "В т.ч. НДС 20 %").
  INVOICE_VAT_NOTE: optional,
});

export type Env = z.infer<typeof envSchema>;
