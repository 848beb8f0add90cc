import { data, redirect } from "@remix-run/node";
import { getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import type { Locale, Viewer } from "~/modules/http/request/request-context.server";
import { logger } from "~/modules/log/logger.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { reuseUntouchedDraft } from "~/modules/orders/drafts.server";
import { OrderCodeExhaustedError } from "~/modules/orders/order-codes.server";
import { createOrder } from "~/modules/orders/orders.server";
import { orderSender, UnpaidOrdersExceeded } from "~/modules/orders/order-senders.server";
import { limitKey } from "~/modules/http/request/client-address";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { rememberOrderHeaders } from "~/modules/orders/browser-orders.server";
import { type ActionFailure, wizardReply } from "../replies.server";
import { stepNumber } from "../steps";
import { lastOrderContacts } from "~/modules/orders/customers.server";

/** The per-address draft limit's window (DRAFTS_PER_IP_DAY). */
export const DRAFT_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Step 1 "next" with no order yet creates the draft (DESIGN §4.5, §4.6; ADR 038). Drafts cost little:
 * a browser that already has an untouched draft gets it back; otherwise one client address (or one
 * signed-in account) may start `DRAFTS_PER_IP_DAY` drafts a day, and an address group or account
 * may hold `UNPAID_ORDERS_PER_SENDER` unpaid orders at once (ADR 082). Over a limit, or with every
 * order code held, the visitor stays on step 1 with the reason in their language.
 */
export async function startOrder(db: DB, viewer: Viewer, { market, language }: Locale, clientAddress: string) {
  const prefill = viewer.user ? await lastOrderContacts(db, viewer.user.email) : undefined;
  const contacts = {
    email: prefill?.email ?? viewer.user?.email ?? null,
    phone: prefill?.phone ?? null,
    fullName: prefill?.full_name ?? null,
    address: prefill?.address ?? null,
  };
  const reused = await reuseUntouchedDraft(db, viewer.browserOrderIds, market, { ...contacts, wizardStep: stepNumber("contacts"), language });
  if (reused) return redirect("/order", { headers: await rememberOrderHeaders(viewer.browserOrderIds, reused.id, false) });

  const limit = await hitRateLimit(db, limitKey("drafts", { clientAddress, accountEmail: viewer.user?.email }), getConfig().draftsPerIpDay, DRAFT_WINDOW_SECONDS);
  if (!limit.allowed) {
    return refusal({ title: "wizard.errors.draftLimitTitle", message: "wizard.errors.draftLimit" }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
  }

  try {
    const created = await createOrder(
      db,
      {
        market,
        currency: MARKET_TRAITS[market].currency,
        ...contacts,
        // In the same transaction: a failure after it cannot leave a draft this browser never learns of.
        wizardStep: stepNumber("contacts"),
        language,
        sender: orderSender({ clientAddress, accountEmail: viewer.user?.email }),
        contactsPrefilled: Object.values(contacts).some((value) => value !== null),
      },
      viewer.user ? { kind: "customer", label: viewer.user.email } : { kind: "customer", label: "anonymous browser" },
    );
    return redirect("/order", {
      headers: await rememberOrderHeaders(viewer.browserOrderIds, created.id, true),
    });
  } catch (error) {
    if (error instanceof UnpaidOrdersExceeded) {
      return refusal({ title: "wizard.errors.draftLimitTitle", message: "wizard.errors.unpaidLimit" }, 429, { "Retry-After": String(error.retryAfterSeconds) });
    }
    if (!(error instanceof OrderCodeExhaustedError)) throw error;
    // Staff see the code space filling on the dashboard; this says it has run out.
    logger.error("a new order was refused: every order code is held (ADR 038)");
    return refusal({ title: "wizard.errors.noOrderCodeTitle", message: "wizard.errors.noOrderCode" }, 409);
  }
}

/** Step 1 again, with why no draft was made; never a 5xx: the visitor did nothing wrong, and the page stays. */
function refusal(saveFailure: NonNullable<ActionFailure["saveFailure"]>, status: number, headers?: Record<string, string>) {
  return data(wizardReply({ errors: {}, saveFailure }), { status, headers });
}
