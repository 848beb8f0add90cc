import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { findConditions, isKnownClient, listClients, parseClientFilter, saveConditions } from "~/modules/backoffice/clients.server";
import { conditionsFormDefaults, type ConditionsFormValues } from "~/modules/backoffice/conditions";
import { conditionsSchema, toConditionsValues } from "~/modules/backoffice/conditions.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { normalizeEmail } from "~/modules/orders/orders.server";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";
import { listSearch } from "./client-list";
import { getRequestTranslator } from "~/modules/http/request-context.server";

export type Editing =
  | { email: string; defaults: ConditionsFormValues; hasSettings: boolean; error: null }
  | { email: string; defaults: null; hasSettings: false; error: string };

export async function loadClientsPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const url = new URL(request.url);
  const filter = parseClientFilter(url.searchParams);
  const db = await getDb();
  const { clients, hasMore } = await listClients(db, filter);

  let editing: Editing | null = null;
  const client = normalizeEmail(url.searchParams.get("client"));
  if (client) {
    try {
      const [settings, known] = await Promise.all([findConditions(db, client), isKnownClient(db, client)]);
      const fallbackCurrency = known?.currency ?? "rub";
      editing = {
        email: client,
        defaults: conditionsFormDefaults(settings, fallbackCurrency),
        hasSettings: Boolean(settings),
        error: null,
      };
    } catch (error) {
      logger.error("back-office: loading client conditions failed:", error);
      editing = { email: client, defaults: null, hasSettings: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  return {
    title: t("bo.clients.title"),
    filter,
    hasMore,
    clients: clients.map((row) => ({ ...row, lastOrderAt: row.lastOrderAt.toISOString() })),
    editing,
  };
}

export async function clientsPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const url = new URL(request.url);
  const submission = parseWithZod(await readFormData(request, context), { schema: conditionsSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() as SubmissionResult<string[]>, failure: null }, { status: 400 });
  }
  try {
    await saveConditions(await getDb(), submission.value.email, toConditionsValues(submission.value));
  } catch (error) {
    logger.error("back-office: saving client conditions failed:", error);
    const message = error instanceof Error ? error.message : String(error);
    return data({ result: submission.reply({ formErrors: ["bo.conditions.saveFailed"] }) as SubmissionResult<string[]>, failure: message }, { status: 500 });
  }
  return redirectWithToast(`/backoffice/clients${listSearch(url.searchParams)}`, { type: "success", title: "bo.conditions.saved" });
}
