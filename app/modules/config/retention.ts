/**
 * How long personal data is kept (issue 45, ADR 074): ONE list, read by the privacy notices of both
 * markets (translations/legal.server.ts fills each period into the texts) and by the scheduled job
 * (jobs/retention.server.ts removes or anonymises what is older). A period changed here changes
 * what the notice says and what the job does together; a test holds them to each other.
 *
 * Each period comes from its variable (RETENTION_*), within bounds; the defaults are what the
 * notices promised before the periods were configurable.
 */

export type RetentionUnit = "hour" | "day" | "year";

export interface RetentionPeriodRule {
  variable: string;
  unit: RetentionUnit;
  fallback: number;
  min: number;
  max: number;
  /** What the job does once the period has passed, as the README and the notices say it. */
  what: string;
}

export const RETENTION_PERIODS = {
  /** A draft nobody changed for this long is deleted with its files. */
  abandonedDraft: { variable: "RETENTION_DRAFT_DAYS", unit: "day", fallback: 30, min: 1, max: 365, what: "unpaid drafts left unchanged are deleted with their files" },
  /** The models of a shipped, completed or cancelled order are deleted this long after its last change (once every file reached production). */
  models: { variable: "RETENTION_MODEL_DAYS", unit: "day", fallback: 180, min: 1, max: 3650, what: "model files of shipped, completed or cancelled orders are deleted" },
  /** An order's personal data (contacts, delivery, patients, file names, notes) is removed this long after its last change; the accounting record stays. */
  orderPersonalData: { variable: "RETENTION_ORDER_YEARS", unit: "year", fallback: 10, min: 1, max: 30, what: "orders' contacts, delivery address, patients' names and remaining files are removed" },
  /** Records of sign-in links and codes are deleted this long after they expired. */
  signInLinks: { variable: "RETENTION_SIGN_IN_HOURS", unit: "hour", fallback: 24, min: 1, max: 720, what: "records of sign-in links are deleted after they expired" },
  /** Answers kept for a form sent again after a dropped connection (ADR 046). */
  resentAnswers: { variable: "RETENTION_RESENT_ANSWER_HOURS", unit: "hour", fallback: 24, min: 1, max: 168, what: "answers kept for forms sent again are deleted" },
  /**
   * The accounting record an order keeps once its personal data is gone (products, amounts, payments with
   * their lines, paid invoices), and partners' payouts: deleted this long after the end of the year of
   * the order's last change (of the payout). Counted from the year's end, as tax and commercial law count.
   */
  accountingRecords: { variable: "RETENTION_ACCOUNTING_YEARS", unit: "year", fallback: 10, min: 1, max: 30, what: "anonymised orders' accounting records, their payments and partners' payouts are deleted, counted from the end of the year of the last change" },
} as const satisfies Record<string, RetentionPeriodRule>;

export type RetentionPeriodId = keyof typeof RETENTION_PERIODS;
/** Each period in its unit. */
export type RetentionPeriods = Record<RetentionPeriodId, number>;

export const RETENTION_IDS = Object.keys(RETENTION_PERIODS) as RetentionPeriodId[];

export const DEFAULT_RETENTION: RetentionPeriods = Object.fromEntries(RETENTION_IDS.map((id) => [id, RETENTION_PERIODS[id].fallback])) as RetentionPeriods;

/** The periods from the environment; `invalid` names each variable out of its bounds. */
export function retentionFrom(source: Record<string, string | undefined>): { periods: RetentionPeriods; invalid: string[] } {
  const periods = { ...DEFAULT_RETENTION };
  const invalid: string[] = [];
  for (const id of RETENTION_IDS) {
    const rule: RetentionPeriodRule = RETENTION_PERIODS[id];
    const raw = source[rule.variable]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < rule.min || value > rule.max) invalid.push(`${rule.variable} (whole ${rule.unit}s from ${rule.min} to ${rule.max})`);
    else periods[id] = value;
  }
  return { periods, invalid };
}

/** The period as PostgreSQL's `make_interval` arguments. */
export function intervalOf(id: RetentionPeriodId, periods: RetentionPeriods): { years?: number; days?: number; hours?: number } {
  const unit = RETENTION_PERIODS[id].unit;
  return { [`${unit}s`]: periods[id] };
}

/** The period in words of `language` ("30 days", "30 Tage", "30 дней"), as the notices show it. */
export function formatPeriod(id: RetentionPeriodId, periods: RetentionPeriods, language: string): string {
  return new Intl.NumberFormat(language, { style: "unit", unit: RETENTION_PERIODS[id].unit, unitDisplay: "long" }).format(periods[id]);
}

/**
 * A draft untouched this many days is abandoned: the scheduled job purges it, its files are garbage
 * (DESIGN §4.18). The default of RETENTION_DRAFT_DAYS; the job itself reads the configured period.
 */
export const ABANDONED_DRAFT_DAYS = RETENTION_PERIODS.abandonedDraft.fallback;

/** The notices' placeholder of each period: `{{retention.abandonedDraft}}` is written `{{retentionAbandonedDraft}}`. */
export const periodPlaceholder = (id: RetentionPeriodId) => `retention${id[0]!.toUpperCase()}${id.slice(1)}`;
