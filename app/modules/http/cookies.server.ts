import { createCookie } from "@remix-run/node";
import { getConfig } from "~/modules/config/config.server";

/**
 * Each concern its own cookie (STYLE §5): HttpOnly, SameSite=Lax, Secure in strict mode,
 * signed with SESSION_SECRET. Created lazily so configuration is read at request time.
 */
function cookie(name: string, maxAgeSeconds: number | undefined) {
  const config = getConfig();
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.strict,
    path: "/",
    secrets: [config.secrets.SESSION_SECRET],
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  });
}

const DAY = 86_400;

export const cookies = {
  /** Session id of a signed-in user (row in `sessions`). */
  session: () => cookie("__session", 30 * DAY),
  /** One-time toast, read and cleared by the next page. */
  toast: () => cookie("toast", 60),
  /** The current order of this browser, and every order id it created. */
  currentOrder: () => cookie("current_order", 90 * DAY),
  browserOrders: () => cookie("my_orders", 365 * DAY),
  /** Password gates: bound to a hash of the current password. */
  backofficeGate: () => cookie("bo_gate", 14 * DAY),
  packerGate: () => cookie("packer_gate", 14 * DAY),
  partnerCode: () => cookie("partner", 30 * DAY),
  language: () => cookie("lng", 365 * DAY),
  cookieConsent: () => cookie("cookie_ok", 365 * DAY),
};
