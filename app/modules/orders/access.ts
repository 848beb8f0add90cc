import { normalizeEmail } from "~/modules/validation/email";

/**
 * Who may open an order (DESIGN §4.4): the browser that created it, a signed-in user whose
 * e-mail is the order's e-mail, or staff. Anyone else gets 404, as if the order did not exist.
 */
export interface OrderViewer {
  /** Order ids listed in this browser's signed, httpOnly order cookie. */
  browserOrderIds: readonly string[];
  /** E-mail of the signed-in user, if any. */
  userEmail: string | null;
  isStaff: boolean;
}

export function canOpenOrder(order: { id: string; email: string | null }, viewer: OrderViewer): boolean {
  if (viewer.isStaff) return true;
  if (viewer.browserOrderIds.includes(order.id)) return true;
  const orderEmail = normalizeEmail(order.email);
  const userEmail = normalizeEmail(viewer.userEmail);
  return Boolean(orderEmail && userEmail && orderEmail === userEmail);
}
