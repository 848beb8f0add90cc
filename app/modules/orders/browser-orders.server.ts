import { cookies } from "~/modules/http/request/cookies.server";
import { isUuid } from "~/modules/orders/orders.server";

/**
 * This browser's orders (DESIGN §4.4, §4.9): the current order, and every order it created (so it
 * may open them again). Both signed and httpOnly; the list keeps the 50 most recent ids.
 */
const MAX_REMEMBERED = 50;

export async function readCurrentOrderId(request: Request): Promise<string | null> {
  const value = await cookies.currentOrder().parse(request.headers.get("Cookie"));
  return typeof value === "string" && isUuid(value) ? value : null;
}

export async function readBrowserOrderIds(request: Request): Promise<string[]> {
  const value = await cookies.browserOrders().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string" && isUuid(id)) : [];
}

/** Makes an order this browser's current one; `created` also adds it to the browser's own orders (`browserOrderIds`, as read from its cookie). */
export async function rememberOrderHeaders(browserOrderIds: string[], orderId: string, created: boolean): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await cookies.currentOrder().serialize(orderId));
  if (created) {
    const ids = [orderId, ...browserOrderIds.filter((id) => id !== orderId)].slice(0, MAX_REMEMBERED);
    headers.append("Set-Cookie", await cookies.browserOrders().serialize(ids));
  }
  return headers;
}

export async function forgetCurrentOrderHeader(): Promise<string> {
  return cookies.currentOrder().serialize("", { maxAge: 0 });
}
