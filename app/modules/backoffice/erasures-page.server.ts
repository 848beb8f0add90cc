import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { requireAdmin } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { listQuerySchema, readQuery } from "~/modules/http/request/list-query";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { approveErasure, ERASURE_CURSOR_CASTS, erasureBlocker, findErasure, listErasures } from "~/modules/jobs/erasure.server";
import { logger } from "~/modules/log/logger.server";
import { isUuid } from "~/modules/orders/orders.server";
import { getStorage } from "~/modules/storage/storage.server";
import { idField } from "~/modules/validation/fields";

/**
 * The back office's erasure requests (admins only, ADR 079): newest first, each with its state and
 * what its passes did; approving one asks first (a page of its own, without JavaScript too), then
 * runs the first bounded pass at once and leaves the rest to the scheduled job.
 */

const BACK = "/backoffice/erasures";
const PER_PAGE = 50;
/** One approval's pass: a few seconds of storage calls at most; what is left goes on in the scheduled runs. */
const APPROVAL_PASS = { batch: 200, budgetMs: 3_000 };

/** The request asked about: an id (a forged one shows the list without a question, as any list field falls back). */
const erasuresQuery = listQuerySchema({}, { confirm: z.pipe(z.unknown(), z.transform((value) => (typeof value === "string" && isUuid(value) ? value : null))) });

export async function loadErasuresPage({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const t = await getRequestTranslator(request, context);
  const { page, after, before, confirm } = readQuery(request, erasuresQuery);
  const db = await getDb();
  // An old `?page=N` address goes to its page's cursor first (ADR 091).
  const moved = await oldPageRedirect(new URL(request.url), { page, after, before }, ERASURE_CURSOR_CASTS, (from) => listErasures(db, { after: from, before: null, perPage: PER_PAGE }));
  if (moved) throw moved;
  const [{ rows, hasMore, cursors }, asked] = await Promise.all([listErasures(db, { after, before, perPage: PER_PAGE }), confirm ? findErasure(db, confirm) : undefined]);
  const question = asked && !asked.approved_at && !asked.completed_at ? { id: asked.id, email: asked.email, blocker: await erasureBlocker(db, asked.email) } : null;
  return {
    title: t("bo.erasures.title"),
    page,
    pageSize: PER_PAGE,
    hasMore,
    cursors,
    years: getConfig().retention.accountingRecords,
    question,
    requests: rows.map((row) => ({
      id: row.id,
      email: row.completed_at ? null : row.email,
      requestedAt: row.requested_at.toISOString(),
      approvedAt: row.approved_at?.toISOString() ?? null,
      approvedBy: row.approved_by,
      completedAt: row.completed_at?.toISOString() ?? null,
      deleted: row.orders_deleted,
      anonymised: row.orders_anonymised,
      files: row.files_deleted,
      waiting: row.orders_waiting,
      keptUntil: row.kept_until?.toISOString() ?? null,
    })),
  };
}

/** A request's id is a UUID: anything else (36 dashes fit the pattern this once had) is refused with 400 before the database sees it. */
const approveSchema = z.object({ intent: z.literal("approve"), id: idField("bo.erasures.gone") });

export async function erasuresPageAction({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const submission = await readSubmission(request, context, approveSchema);
  if (submission.status !== "success") throw new Response("Unknown action", { status: 400 });
  const db = await getDb();
  const asked = await findErasure(db, submission.value.id);
  if (!asked || asked.approved_at || asked.completed_at) return redirectWithToast(BACK, { type: "error", title: "bo.toasts.error", description: "bo.erasures.gone" });
  const blocker = await erasureBlocker(db, asked.email);
  if (blocker) return redirectWithToast(BACK, { type: "error", title: "bo.toasts.error", description: `bo.erasures.blocked.${blocker}` });
  let pass;
  try {
    pass = await approveErasure(db, getStorage(), getConfig().retention, asked.id, admin.actorLabel, { batch: APPROVAL_PASS.batch, deadline: Date.now() + APPROVAL_PASS.budgetMs });
  } catch (error) {
    // The approval is recorded before the pass: the scheduled job goes on with it.
    logger.error("back-office: an erasure pass failed:", error);
    return redirectWithToast(BACK, { type: "error", title: "bo.toasts.error", description: "bo.erasures.passFailed" });
  }
  if (!pass) return redirectWithToast(BACK, { type: "error", title: "bo.toasts.error", description: "bo.erasures.gone" });
  return redirectWithToast(BACK, {
    type: "success",
    title: pass.completed ? "bo.erasures.done" : "bo.erasures.going",
    description: "bo.erasures.passText",
    values: { deleted: pass.ordersDeleted, anonymised: pass.ordersAnonymised, files: pass.filesDeleted, waiting: pass.ordersWaiting },
  });
}
