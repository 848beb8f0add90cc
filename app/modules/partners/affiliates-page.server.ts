import type { Submission } from "@conform-to/react";
import { type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import type * as z from "zod/mini";
import { requireStaff, type Staff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { type Cursor, encodeCursor, listQuerySchema, readQuery, word } from "~/modules/http/request/list-query";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { isUuid } from "~/modules/orders/orders.server";
import { addPayout, deletePayout, listPartners, ORDERS_PER_PARTNER, PARTNER_CURSOR_CASTS, partnerCodeById, partnerCodesPage, partnerDetails, type PartnerDetails, setRewardPercentage } from "./affiliates.server";
import { affiliatesSchema } from "./forms";
import { currentPeriod } from "./page-helpers";
import { logger } from "~/modules/log/logger.server";

/** The back office's partners page (partners spec §5): the list, and the actions on one partner. */
const PAGE_SIZE = 20;

/** A refused payout or percentage, shown on the partner's card (the one its `partner_code_id` names) with what was typed. */
export type AffiliateReply = FormReply;

/** The partners list's address (ADR 067): the kit's page and search, and the partner whose card is whole. */
const affiliatesQuery = listQuerySchema({}, { open: word });

export async function affiliatesList(db: DB, url: URL) {
  const { q: search, page, after, before, open } = readQuery(url, affiliatesQuery);
  // An old `?page=N` address goes to its page's cursor first (ADR 091).
  const moved = await oldPageRedirect(url, { page, after, before }, PARTNER_CURSOR_CASTS, (from) => partnerCodesPage(db, { search, pageSize: PAGE_SIZE, after: from, before: null }));
  if (moved) throw moved;
  const { partners, hasMore, cursors } = await listPartners(db, { search, pageSize: PAGE_SIZE, after, before });
  const at = { search, page, after, before };
  // Payouts, referrals and orders are read and rendered for one partner only — the one opened by
  // `?open=CODE`, or the only one a search found — so the page costs what it shows (ADR 064).
  const detailed = partners.filter((partner) => partner.code === open || partners.length === 1);
  const details = await partnerDetails(
    db,
    detailed.map((partner) => partner.id),
  );
  return {
    search,
    page,
    pageSize: PAGE_SIZE,
    hasMore,
    cursors,
    open,
    period: currentPeriod(),
    ordersLimit: ORDERS_PER_PARTNER,
    partners: partners.map((partner) => ({
      ...partner,
      detailed: details.has(partner.id),
      /** The same list with this partner's card whole. */
      openHref: `?${listParams(at, partner.code)}#partner-${partner.code}`,
      ...(details.get(partner.id) ?? NO_DETAILS),
    })),
  };
}

/** Where in the list a page is: its search, its number and the cursor it was reached by. */
interface ListPlace {
  search: string;
  page: number;
  after: Cursor | null;
  before: Cursor | null;
}

/** The list's search and page (its number and cursor), with `open` naming the partner whose card is whole. */
function listParams({ search, page, after, before }: ListPlace, open: string | null): URLSearchParams {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (page > 1) params.set("page", String(page));
  if (after) params.set("after", encodeCursor(after));
  else if (before) params.set("before", encodeCursor(before));
  if (open) params.set("open", open);
  return params;
}

const NO_DETAILS: PartnerDetails = { payouts: [], referrals: [], orders: [], ordersFailure: null };

type AffiliateSubmission = Submission<z.output<typeof affiliatesSchema>, string[]>;

interface AffiliateIntentArgs {
  db: DB;
  submission: AffiliateSubmission;
  staff: Staff;
  partner: Awaited<ReturnType<typeof partnerCodeById>>;
  /** The list as it was, with this partner's summary open. */
  to: string;
  failed: (description: string) => Promise<Response>;
}

async function addPartnerPayout({ db, submission, staff, partner, to, failed }: AffiliateIntentArgs) {
  if (!partner) return failed("partners.toasts.payoutAddFailed");
  const payout = intentValue(submission, "add_payout");
  if (!payout) return refused(submission);
  try {
    await addPayout(db, partner.id, { amount: payout.amount, year: payout.year, quarter: payout.quarter, note: payout.note || null }, staff.actorLabel);
  } catch (error) {
    logger.error("payout not added:", error);
    return failed("partners.toasts.payoutAddFailed");
  }
  return redirectWithToast(to, {
    type: "success",
    title: "partners.toasts.payoutAdded",
  });
}

async function deletePartnerPayout({ db, submission, partner, to, failed }: AffiliateIntentArgs) {
  const form = intentValue(submission, "delete_payout");
  if (!partner || !form) return failed("partners.toasts.payoutDeleteFailed");
  const deleted = await deletePayout(db, partner.id, form.payout_id).catch((error) => {
    logger.error("payout not deleted:", error);
    return false;
  });
  if (!deleted) return failed("partners.toasts.payoutDeleteFailed");
  return redirectWithToast(to, {
    type: "success",
    title: "partners.toasts.payoutDeleted",
  });
}

async function setPartnerPercentage({ db, submission, partner, to, failed }: AffiliateIntentArgs) {
  if (!partner) return failed("partners.errors.partnerNotFound");
  const form = intentValue(submission, "set_percentage");
  if (!form) return refused(submission);
  // Empty input keeps the current value (spec §5).
  if (form.percentage === undefined)
    return redirectWithToast(to, {
      type: "info",
      title: "partners.toasts.percentageKept",
    });
  const saved = await setRewardPercentage(db, partner.id, form.percentage).catch((error) => {
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

const AFFILIATE_INTENTS = {
  add_payout: addPartnerPayout,
  delete_payout: deletePartnerPayout,
  set_percentage: setPartnerPercentage,
};

export async function affiliatesAction(request: Request, context: AppLoadContext, staff: Staff) {
  const { q: search, page, after, before } = readQuery(request, affiliatesQuery);
  const submission = await readSubmission(request, context, affiliatesSchema);
  const partnerId = submission.payload.partner_code_id;
  if (typeof partnerId !== "string" || !isUuid(partnerId)) throw new Response("Unknown partner", { status: 400 });
  const handler = intentHandler(AFFILIATE_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  const db = await getDb();
  const partner = await partnerCodeById(db, partnerId);
  // Back to the same list with this partner's summary open.
  const back = listParams({ search, page, after, before }, partner?.code ?? null);
  const to = `/backoffice/affiliates?${back}${partner ? `#partner-${partner.code}` : ""}`;
  const failed = (description: string) =>
    redirectWithToast(to, {
      type: "error",
      title: "partners.toasts.errorTitle",
      description,
    });
  return handler({ db, submission, staff, partner, to, failed });
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
  return affiliatesAction(request, context, staff);
}
