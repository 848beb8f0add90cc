import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff, type Staff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/intents";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { readFormData } from "~/modules/http/request.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { isUuid } from "~/modules/orders/orders.server";
import { addPayout, deletePayout, listPartners, ORDERS_PER_PARTNER, partnerCodeById, partnerDetails, setRewardPercentage } from "./affiliates.server";
import { checkPayout, checkPercentage, currentPeriod } from "./validation";
import { logger } from "~/modules/log/logger.server";

/** The back office's partners page (partners spec §5): the list, and the actions on one partner. */
const PAGE_SIZE = 20;

/** A refused payout or percentage, shown on the partner's card with what was typed. */
export type AffiliateReply = {
  partnerId: string;
  intent: "add_payout" | "set_percentage";
  errors: Record<string, string>;
  values: Record<string, string>;
};

export async function affiliatesList(db: DB, url: URL) {
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const { partners, hasMore } = await listPartners(db, {
    search,
    page,
    pageSize: PAGE_SIZE,
  });
  const details = await partnerDetails(
    db,
    partners.map((partner) => partner.id),
  );
  return {
    search,
    page,
    hasMore,
    open: url.searchParams.get("open"),
    period: currentPeriod(),
    ordersLimit: ORDERS_PER_PARTNER,
    partners: partners.map((partner) => ({
      ...partner,
      ...details.get(partner.id)!,
    })),
  };
}

interface AffiliateIntentArgs {
  db: DB;
  form: FormData;
  staff: Staff;
  partnerId: string;
  partner: Awaited<ReturnType<typeof partnerCodeById>>;
  /** The list as it was, with this partner's summary open. */
  to: string;
  failed: (description: string) => Promise<Response>;
}

async function addPartnerPayout({ db, form, staff, partnerId, partner, to, failed }: AffiliateIntentArgs) {
  if (!partner) return failed("partners.toasts.payoutAddFailed");
  const payout = checkPayout(form);
  if (payout.errors !== null) {
    const values = Object.fromEntries(["amount", "year", "quarter", "note"].map((name) => [name, String(form.get(name) ?? "")]));
    return data<AffiliateReply>({ partnerId, intent: "add_payout", errors: payout.errors, values }, { status: 400 });
  }
  try {
    await addPayout(db, partner.id, payout.value, staff.actorLabel);
  } catch (error) {
    logger.error("payout not added:", error);
    return failed("partners.toasts.payoutAddFailed");
  }
  return redirectWithToast(to, {
    type: "success",
    title: "partners.toasts.payoutAdded",
  });
}

async function deletePartnerPayout({ db, form, partner, to, failed }: AffiliateIntentArgs) {
  const payoutId = String(form.get("payout_id") ?? "");
  if (!partner || !isUuid(payoutId)) return failed("partners.toasts.payoutDeleteFailed");
  const deleted = await deletePayout(db, partner.id, payoutId).catch((error) => {
    logger.error("payout not deleted:", error);
    return false;
  });
  if (!deleted) return failed("partners.toasts.payoutDeleteFailed");
  return redirectWithToast(to, {
    type: "success",
    title: "partners.toasts.payoutDeleted",
  });
}

async function setPartnerPercentage({ db, form, partnerId, partner, to, failed }: AffiliateIntentArgs) {
  if (!partner) return failed("partners.errors.partnerNotFound");
  const percentage = checkPercentage(String(form.get("percentage") ?? ""));
  if (percentage.kind === "invalid") {
    return data<AffiliateReply>(
      {
        partnerId,
        intent: "set_percentage",
        errors: { percentage: percentage.error },
        values: { percentage: String(form.get("percentage") ?? "") },
      },
      { status: 400 },
    );
  }
  // Empty input keeps the current value (spec §5).
  if (percentage.kind === "keep")
    return redirectWithToast(to, {
      type: "info",
      title: "partners.toasts.percentageKept",
    });
  const saved = await setRewardPercentage(db, partner.id, percentage.value).catch((error) => {
    logger.error("percentage not saved:", error);
    return null;
  });
  if (saved === null) return failed("partners.toasts.percentageFailed");
  if (!saved) return failed("partners.errors.partnerNotFound");
  return redirectWithToast(to, {
    type: "success",
    title: "partners.toasts.percentageSaved",
  });
}

const AFFILIATE_INTENTS: Record<string, (args: AffiliateIntentArgs) => Promise<Response | ReturnType<typeof data<AffiliateReply>>>> = {
  add_payout: addPartnerPayout,
  delete_payout: deletePartnerPayout,
  set_percentage: setPartnerPercentage,
};

export async function affiliatesAction(url: URL, form: FormData, staff: Staff) {
  const intent = form.get("intent");
  const partnerId = String(form.get("partner_code_id") ?? "");
  if (!isUuid(partnerId)) throw new Response("Unknown partner", { status: 400 });
  const db = await getDb();
  const partner = await partnerCodeById(db, partnerId);
  // Back to the same list with this partner's summary open.
  const back = new URLSearchParams();
  for (const name of ["q", "page"]) if (url.searchParams.get(name)) back.set(name, url.searchParams.get(name)!);
  if (partner) back.set("open", partner.code);
  const to = `/backoffice/affiliates?${back}${partner ? `#partner-${partner.code}` : ""}`;
  const failed = (description: string) =>
    redirectWithToast(to, {
      type: "error",
      title: "partners.toasts.errorTitle",
      description,
    });

  const handler = intentHandler(AFFILIATE_INTENTS, intent);
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db, form, staff, partnerId, partner, to, failed });
}

/** The affiliates page's loader: staff only. */
export async function loadAffiliatesPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  return {
    title: `${t("partners.backoffice.title")} — ${t("backoffice.title")}`,
    ...(await affiliatesList(db, new URL(request.url))),
  };
}

/** The affiliates page's action: staff only; the intents are `affiliatesAction`'s table. */
export async function affiliatesPageAction({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const form = await readFormData(request, context);
  return affiliatesAction(url, form, staff);
}
