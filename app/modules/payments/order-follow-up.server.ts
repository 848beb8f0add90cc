import type { AppLoadContext } from "@remix-run/node";
import type { Order } from "~db/schema";
import { sendSignInLink } from "~/modules/auth/authenticator.server";
import type { DB } from "~/modules/db/db.server";
import { getClientAddress, getViewer } from "~/modules/http/request/request-context.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { normalizeEmail } from "~/modules/validation/email";
import { cabinetOrderPath, maskedEmail } from "~/modules/orders/cabinet-links";
import { claimCabinetLink, releaseCabinetLink } from "~/modules/orders/client-order.server";

/**
 * How the payment and thank-you pages lead to the order in the cabinet (ADR 070):
 * - `open`: the doctor is signed in with the order's address — a link at once;
 * - `sent`: otherwise one sign-in link goes to the order's address, once per order (the page may be
 *   opened again and again, and it refreshes itself while the payment is confirmed), and its mail
 *   opens the order after sign-in; the page names the address only masked;
 * - `sign_in`: no link could go out (none on file, or the address's limit reached): sign in by hand,
 *   coming back to the order.
 */
export type OrderFollowUp = { kind: "open"; href: string } | { kind: "sent"; to: string; signIn: string } | { kind: "sign_in"; signIn: string };

export async function orderFollowUp(db: DB, request: Request, context: AppLoadContext, order: Order): Promise<OrderFollowUp> {
  const path = cabinetOrderPath(order.id);
  const signIn = `/auth?${new URLSearchParams({ redirectTo: path })}`;
  const orderEmail = normalizeEmail(order.email);
  const { user } = await getViewer(request, context);
  if (orderEmail && user && normalizeEmail(user.email) === orderEmail) return { kind: "open", href: path };
  if (!orderEmail) return { kind: "sign_in", signIn };
  if (!(await claimCabinetLink(db, order.id))) return { kind: "sent", to: maskedEmail(orderEmail), signIn };
  const sent = await sendSignInLink(request, {
    email: orderEmail,
    redirectTo: path,
    market: order.market,
    language: order.language ?? MARKET_TRAITS[order.market].defaultLanguage,
    clientIp: getClientAddress(context),
  });
  if (sent.ok) return { kind: "sent", to: maskedEmail(orderEmail), signIn };
  // Given back: the next visit may try again.
  await releaseCabinetLink(db, order.id);
  return { kind: "sign_in", signIn };
}
