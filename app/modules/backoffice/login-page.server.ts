import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { passwordGateAction } from "~/modules/auth/password-gate.server";
import { getStaff } from "~/modules/auth/guards.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { getRequestTranslator, getViewer } from "~/modules/http/request/request-context.server";

/** Where to go once past the gate, as sent (a return address may run long); redirectTarget decides. */
const loginQuery = z.object({ redirectTo: asSent });

export async function loadLoginPage({ request, context }: LoaderFunctionArgs) {
  const redirectTo = await redirectTarget(request, context, readQuery(request, loginQuery).redirectTo, "/backoffice");
  if (await getStaff(request, context)) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  // Someone signed in here has an address without a staff role: the gate says so and who can grant one.
  const { user } = await getViewer(request, context);
  return { title: t("gate.backofficeTitle"), signedInAs: user?.email ?? null, redirectTo };
}

export async function loginPageAction({ request, context }: ActionFunctionArgs) {
  return passwordGateAction(request, context, { gate: "backoffice", home: "/backoffice", within: (path) => path.startsWith("/backoffice"), wrongPassword: "gate.wrongPasswordBackoffice" });
}
