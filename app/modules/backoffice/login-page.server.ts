import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { passwordGateAction } from "~/modules/auth/password-gate.server";
import { getStaff, safeRedirect } from "~/modules/auth/guards.server";
import { getRequestTranslator, getViewer } from "~/modules/http/request-context.server";

export async function loadLoginPage({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/backoffice");
  if (await getStaff(request, context)) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  // Someone signed in here has an address without a staff role: the gate says so and who can grant one.
  const { user } = await getViewer(request, context);
  return { title: t("gate.backofficeTitle"), signedInAs: user?.email ?? null, redirectTo };
}

export async function loginPageAction({ request, context }: ActionFunctionArgs) {
  return passwordGateAction(request, context, { gate: "backoffice", home: "/backoffice", within: (path) => path.startsWith("/backoffice"), wrongPassword: "gate.wrongPasswordBackoffice" });
}
