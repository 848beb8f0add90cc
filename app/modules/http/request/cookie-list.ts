/**
 * Every cookie the app sets, with its lifetime (STYLE §5; ADR 044). The cookies are built from this
 * list alone (`cookies.server.ts`), and the international privacy notice must name each one with its
 * lifetime (a test reads this list), so a new cookie cannot go unmentioned.
 */

export interface CookieDefinition {
  name: string;
  /** Lifetime in seconds. */
  maxAge: number;
  /** Narrower than the whole site when set. */
  path?: string;
  /** Needs the visitor's consent on the international market (ePrivacy Art. 5(3)); never set there without it. */
  needsConsent?: true;
}

const DAY = 86_400;

export const COOKIE_LIST = {
  /** Session id of a signed-in user (row in `sessions`). */
  session: { name: "__session", maxAge: 30 * DAY },
  /** One-time toast, read and cleared by the next page. */
  toast: { name: "toast", maxAge: 60 },
  /** The current order of this browser, and every order id it created. */
  currentOrder: { name: "current_order", maxAge: 90 * DAY },
  browserOrders: { name: "my_orders", maxAge: 365 * DAY },
  /** Password gates: bound to a hash of the current password. */
  backofficeGate: { name: "bo_gate", maxAge: 14 * DAY },
  packerGate: { name: "packer_gate", maxAge: 14 * DAY },
  /** The packing station's label format, HTML or PDF (ADR 103): remembered per workstation. */
  packerLabels: { name: "packer_labels", maxAge: 365 * DAY, path: "/packer" },
  /** The errors of the back-office's last file deletion, shown once after the redirect. */
  backofficeFilesResult: { name: "bo_files_result", maxAge: 120, path: "/backoffice/files" },
  /** Referral attribution: on the international market only after the visitor allowed it. */
  partnerCode: { name: "partner", maxAge: 30 * DAY, needsConsent: true },
  language: { name: "lng", maxAge: 365 * DAY },
  cookieConsent: { name: "cookie_ok", maxAge: 365 * DAY },
} as const satisfies Record<string, CookieDefinition>;

export type CookieKey = keyof typeof COOKIE_LIST;

/** A lifetime as the notice states it: whole days, or seconds below a day. */
export function lifetimeOf(definition: CookieDefinition): { unit: "days" | "seconds"; count: number } {
  return definition.maxAge >= DAY ? { unit: "days", count: Math.round(definition.maxAge / DAY) } : { unit: "seconds", count: definition.maxAge };
}

/** The browser storage the app uses besides cookies: tus keeps an interrupted upload's address (ADR 017). */
export const LOCAL_STORAGE_PREFIX = "tus::";
