import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { openErasureOf, requestErasure, withdrawErasure } from "~/modules/jobs/erasure.server";
import { clientOrdersByStatus } from "~/modules/orders/cabinet-orders.server";
import { erasureSchema } from "~/modules/orders/forms";

/**
 * The cabinet's erasure page (ADR 079): what erasure removes from this clinic's orders and what
 * accounting keeps, and for how long; the request, its state, and withdrawing it before an admin
 * approves. The counts are the clinic's own orders by status (one range of the cabinet's index).
 */

const PATH = "/cabinet/erasure";

export async function loadErasurePage({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  const [open, byStatus] = await Promise.all([
    openErasureOf(db, user.email),
    clientOrdersByStatus(db, user.email),
  ]);
  const count = (...statuses: string[]) => byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.count), 0);
  return {
    title: t("cabinet.erasure.title"),
    email: user.email,
    orders: { deleted: count("draft", "pending"), anonymised: count("shipped", "completed", "cancelled"), waiting: count("paid", "processing") },
    years: getConfig().retention.accountingRecords,
    request: open ? { requestedAt: open.requested_at.toISOString(), approvedAt: open.approved_at?.toISOString() ?? null, waiting: open.orders_waiting } : null,
  };
}

export async function erasurePageAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = await readSubmission(request, context, erasureSchema);
  const db = await getDb();
  const handler = intentHandler(
    {
      request: async () => {
        if (!intentValue(submission, "request")) return refused(submission);
        await requestErasure(db, user.email);
        return redirectWithToast(PATH, { type: "success", title: "cabinet.erasure.requested" });
      },
      withdraw: async () => {
        const withdrawn = await withdrawErasure(db, user.email);
        return redirectWithToast(PATH, withdrawn ? { type: "success", title: "cabinet.erasure.withdrawn" } : { type: "error", title: "cabinet.erasure.notWithdrawn" });
      },
    },
    submittedIntent(submission),
  );
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler();
}
