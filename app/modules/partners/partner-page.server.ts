import type { Failure } from "~/modules/http/forms/failure";
import type { Submission } from "@conform-to/react";
import { type LoaderFunctionArgs, type ActionFunctionArgs, redirect } from "@remix-run/node";
import type * as z from "zod/mini";
import { requireUser } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { intentHandler } from "~/modules/http/forms/intents";
import { getLocale, getRequestTranslator } from "~/modules/http/request/request-context.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { failureCause, loadSection, sectionData, sectionFailure } from "~/modules/http/answers/section.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { publicOrigin } from "~/modules/market/market.server";
import { ensurePartnerCode, findPartnerCode, partnerBalance, partnerPayouts, referralCounts, referralOrders, savePartnerContacts, savePartnerName } from "./partners.server";
import { partnerPageSchema } from "./forms";
import { ACTIVITY_FILTERS, REFERRAL_STATUS_FILTERS } from "./page-helpers";
import { listQuerySchema, oneOf, readQuery } from "~/modules/http/request/list-query";
import { logger } from "~/modules/log/logger.server";
import { REFERRAL_CURSOR_CASTS } from "~/modules/orders/partner-orders.server";

/** The partner's own page (partners spec §2 "/partner"): its data, and the saving of its name and contacts. */
const PAGE_SIZE = 25;

/** The referred orders' address (ADR 067): the kit's page, search and status, and the client's activity. */
const referralsQuery = listQuerySchema({ statuses: REFERRAL_STATUS_FILTERS }, { activity: oneOf(ACTIVITY_FILTERS, null) });

/** A refused name or contacts form, shown in place with what was typed; a failed save says why in place. */
export type PartnerReply = FormReply & { failure?: Failure };

export async function loadPartnerPage({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const { q: search, status, activity, page, after, before } = readQuery(request, referralsQuery);
  const db = await getDb();
  const base = { title: t("partners.title"), search, status, activity, page, pageSize: PAGE_SIZE };
  // The code is created by the page's "create" post, never by opening it (ADR 083): a GET writes
  // nothing. Each part of the page loads on its own and says so in place when it cannot (ADR 026);
  // without the code nothing else of it can load.
  const code = await loadSection("partner: loading the partner code", { message: "failures.partnerCode" }, () => findPartnerCode(db, user.email));
  if (!code.ok || !code.data)
    return {
      ...base,
      partner: null,
      codeFailure: code.ok ? null : code.failure,
      ordersFailure: null,
      payoutsFailure: null,
      payouts: [],
      orders: [],
      hasMore: false,
    };
  const partner = code.data;
  // An old `?page=N` address goes to its page's cursor first (ADR 091).
  const moved = await oldPageRedirect(new URL(request.url), { page, after, before }, REFERRAL_CURSOR_CASTS, (from) =>
    referralOrders(db, partner.id, { search, status, activity, pageSize: PAGE_SIZE, after: from, before: null }),
  );
  if (moved) throw moved;
  const [balance, counts, payouts, list] = await Promise.all([
    partnerBalance(db, partner.id),
    referralCounts(db, partner.id),
    loadSection("partner: loading payouts", { message: "failures.partnerPayouts" }, () => partnerPayouts(db, partner.id)),
    loadSection("partner: loading referral orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, () =>
      referralOrders(db, partner.id, {
        search,
        status,
        activity,
        pageSize: PAGE_SIZE,
        after,
        before,
      }),
    ),
  ]);
  const origin = publicOrigin((await getLocale(request, context)).market);
  return {
    ...base,
    partner: {
      code: partner.code,
      name: partner.user_name,
      // The link is shown once a name is saved (spec §2 "/partner").
      link: partner.user_name ? `${origin.replace(/\/$/, "")}/${partner.code}` : null,
      contactEmail: partner.contact_email ?? user.email,
      contactPhone: partner.contact_phone ?? "",
      offerAcceptedAt: partner.offer_accepted_at ? new Date(partner.offer_accepted_at).toISOString() : null,
      percentage: Number(partner.reward_percentage).toFixed(2),
      balance,
      referrals: counts,
    },
    codeFailure: null,
    payoutsFailure: sectionFailure(payouts),
    payouts: sectionData(payouts, []),
    ordersFailure: sectionFailure(list),
    ...sectionData(list, { orders: [], hasMore: false, cursors: { next: null, previous: null } }),
  };
}

interface PartnerIntentArgs {
  db: DB;
  submission: Submission<z.output<ReturnType<typeof partnerPageSchema>>, string[]>;
  email: string;
  /** The user's code, if they have one yet. */
  partner: Awaited<ReturnType<typeof findPartnerCode>>;
}

/** "Получить партнёрский код" (spec §4 "Partner code", asked for by a post, ADR 083): one code per e-mail, then the page shows it. */
async function createCode({ db, email }: PartnerIntentArgs) {
  try {
    await ensurePartnerCode(db, email);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error("partner code not created:", error);
    return redirectWithToast("/partner", { type: "error", title: "partners.toasts.errorTitle", description: "partners.toasts.codeFailed" });
  }
  return redirect("/partner");
}

/** The code a save is for: the user's, or one made now for a form sent before there was one (a save is a post too). */
const codeFor = async ({ db, email, partner }: PartnerIntentArgs) => partner ?? (await ensurePartnerCode(db, email));

async function saveName(args: PartnerIntentArgs) {
  const { db, submission } = args;
  const form = intentValue(submission, "name");
  if (!form) return refused(submission);
  try {
    await savePartnerName(db, (await codeFor(args)).id, form.user_name);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error("partner name not saved:", error);
    // Said in place with the typed name kept (staff side §8 "Не удалось сохранить имя: " + cause).
    return refused(submission, { failure: { message: "failures.partnerName", values: { causeKey: failureCause(error) } } }, 500);
  }
  return redirectWithToast("/partner", {
    type: "success",
    title: "partners.toasts.nameSaved",
  });
}

async function saveContacts(args: PartnerIntentArgs) {
  const { db, submission } = args;
  const form = intentValue(submission, "contacts");
  if (!form) return refused(submission);
  try {
    await savePartnerContacts(db, (await codeFor(args)).id, { contactEmail: form.contact_email, contactPhone: form.contact_phone, acceptOffer: form.offer });
  } catch (error) {
    logger.error("partner contacts not saved:", error);
    return redirectWithToast("/partner", {
      type: "error",
      title: "partners.toasts.errorTitle",
      description: "partners.toasts.contactsFailed",
    });
  }
  return redirectWithToast("/partner", {
    type: "success",
    title: "partners.toasts.contactsSavedTitle",
    description: "partners.toasts.contactsSavedText",
  });
}

const PARTNER_INTENTS = {
  create: createCode,
  name: saveName,
  contacts: saveContacts,
};

export async function partnerPageAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const db = await getDb();
  const partner = await findPartnerCode(db, user.email);
  const submission = await readSubmission(request, context, partnerPageSchema(Boolean(partner?.offer_accepted_at)));
  const handler = intentHandler(PARTNER_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db, submission, email: user.email, partner });
}
