import type { Failure } from "~/modules/http/forms/failure";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { clientSummaries, findConditions, isKnownClient, listClients, parseClientFilter, saveConditions } from "~/modules/backoffice/clients.server";
import { conditionsFormDefaults, type ConditionsFormValues, type PriceField, unusualPrices } from "~/modules/backoffice/conditions";
import { conditionsSchema } from "~/modules/backoffice/conditions-forms";
import { toConditionsValues } from "~/modules/backoffice/conditions.server";
import { getDb } from "~/modules/db/db.server";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { CLIENT_CURSOR_CASTS } from "~/modules/orders/client-list.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { normalizeEmail } from "~/modules/validation/email";
import { type FormReply, readSubmission, refused } from "~/modules/http/forms/submission.server";
import { logger } from "~/modules/log/logger.server";
import { failureCause } from "~/modules/http/answers/section.server";
import { listSearch } from "./client-list";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

export type Editing =
  | { email: string; defaults: ConditionsFormValues; hasSettings: boolean; failure: null }
  | { email: string; defaults: null; hasSettings: false; failure: Failure };

export async function loadClientsPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const { client: opened, ...filter } = parseClientFilter(request);
  const db = await getDb();
  // An old `?page=N` address goes to its page's cursor first (ADR 091).
  const moved = await oldPageRedirect(new URL(request.url), { page: filter.page, after: filter.after ?? null, before: filter.before ?? null }, CLIENT_CURSOR_CASTS, (after) => clientSummaries(db, { ...filter, after, before: null }));
  if (moved) throw moved;
  const { clients, hasMore, cursors } = await listClients(db, filter);

  let editing: Editing | null = null;
  const client = normalizeEmail(opened);
  if (client) {
    try {
      const [settings, known] = await Promise.all([findConditions(db, client), isKnownClient(db, client)]);
      const fallbackCurrency = known?.currency ?? "rub";
      editing = {
        email: client,
        defaults: conditionsFormDefaults(settings, fallbackCurrency),
        hasSettings: Boolean(settings),
        failure: null,
      };
    } catch (error) {
      logger.error("back-office: loading client conditions failed:", error);
      // The cause as a translation key: the exception's own text (table names, data) stays in the log.
      editing = { email: client, defaults: null, hasSettings: false, failure: { message: "bo.conditions.loadFailed", values: { messageKey: failureCause(error) } } };
    }
  }

  return {
    title: t("bo.clients.title"),
    filter,
    hasMore,
    cursors,
    clients: clients.map((row) => ({ ...row, lastOrderAt: row.lastOrderAt.toISOString() })),
    editing,
  };
}

/** A refused conditions form (ADR 053): what was typed and why; a save that failed says so in place, its cause a translation key (ADR 026). */
export type ConditionsReply = FormReply & { failure?: Failure; unusual?: { fields: PriceField[]; fingerprint: string } };

export async function clientsPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const submission = await readSubmission(request, context, conditionsSchema);
  if (submission.status !== "success") return refused(submission);
  const values = toConditionsValues(submission.value);
  // A price far from the base one is saved only once staff confirm it (a second submit, no JavaScript needed).
  const unusual = unusualPrices(values, values.currency);
  const confirmed = (submission.payload as Record<string, unknown>).confirmUnusual;
  if (unusual.fields.length > 0 && confirmed !== unusual.fingerprint) return refused(submission, { unusual }, 409);
  try {
    await saveConditions(await getDb(), submission.value.email, values);
  } catch (error) {
    logger.error("back-office: saving client conditions failed:", error);
    return refused(submission, { failure: { message: "bo.conditions.saveFailed", values: { messageKey: failureCause(error) } } }, 500);
  }
  return redirectWithToast(`/backoffice/clients${listSearch(new URL(request.url).search)}`, { type: "success", title: "bo.conditions.saved" });
}
