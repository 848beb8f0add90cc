/**
 * The partner pages' plain helpers (staff-partner-packer §2, §5): the current payout period and the
 * list filters. The forms' schemas are in forms.ts.
 */

/**
 * The contacts form's heading for its first failing rule: 'Заполните все поля' for the fields,
 * 'Требуется согласие' when only the offer is missing.
 */
export function contactsSummary(errors: Record<string, string[] | null | undefined> | null | undefined): string | null {
  if (errors?.contact_email?.length || errors?.contact_phone?.length) return "partners.errors.contactsTitle";
  if (errors?.offer?.length) return "partners.errors.consentTitle";
  return null;
}

/** The current year and quarter of the company's calendar (Moscow time). */
export function currentPeriod(now = new Date()): { year: number; quarter: number } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Moscow", year: "numeric", month: "numeric" }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === "year")!.value);
  const month = Number(parts.find((part) => part.type === "month")!.value);
  return { year, quarter: Math.floor((month - 1) / 3) + 1 };
}

export const REFERRAL_STATUS_FILTERS = ["processing", "paid", "completed"] as const;
export type ReferralStatusFilter = (typeof REFERRAL_STATUS_FILTERS)[number];
export const ACTIVITY_FILTERS = ["active", "inactive"] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];
