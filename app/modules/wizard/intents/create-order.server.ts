import { redirect } from "@remix-run/node";
import type { DB } from "~/modules/db/db.server";
import type { Locale, Viewer } from "~/modules/http/request-context.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { createOrder } from "~/modules/orders/orders.server";
import { rememberOrderHeaders } from "../order-cookies.server";
import { lastOrderContacts } from "../wizard.server";

/** Step 1 "next" with no order yet creates the draft (DESIGN §4.5). */
export async function startOrder(db: DB, viewer: Viewer, { market, language }: Locale) {
  const prefill = viewer.user ? await lastOrderContacts(db, viewer.user.email) : undefined;
  const created = await createOrder(
    db,
    {
      market,
      currency: MARKET_TRAITS[market].currency,
      email: prefill?.email ?? viewer.user?.email ?? null,
      phone: prefill?.phone ?? null,
      fullName: prefill?.full_name ?? null,
      address: prefill?.address ?? null,
      // In the same transaction: a failure after it cannot leave a draft this browser never learns of.
      wizardStep: 2,
      language,
    },
    viewer.user ? { kind: "customer", label: viewer.user.email } : { kind: "customer", label: "anonymous browser" },
  );
  return redirect("/order", {
    headers: await rememberOrderHeaders(viewer.browserOrderIds, created.id, true),
  });
}
