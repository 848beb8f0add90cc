import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getTaskTracker, type TestStep } from "~/modules/tracker/tracker.server";
import { flag, readQuery } from "~/modules/http/request/list-query";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

/** `?run=1` runs the connection test; anything else only shows the page. */
const trackerTestQuery = z.object({ run: flag });

export async function loadTrackerTestPage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const { run } = readQuery(request, trackerTestQuery);
  const tracker = getTaskTracker(getConfig());
  if (!run) return { title: t("bo.trackerTest.title"), enabled: tracker.enabled, ran: false, ok: false, steps: [] as TestStep[], maskedToken: null };
  const steps: TestStep[] = [];
  const outcome = await tracker.testConnection((step) => steps.push(step));
  return { title: t("bo.trackerTest.title"), enabled: tracker.enabled, ran: true, ok: outcome.ok, steps, maskedToken: outcome.maskedToken };
}

export async function trackerTestPageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  return redirect("/backoffice/test");
}
