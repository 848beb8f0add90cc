import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { passwordGateAction } from "~/modules/auth/password-gate.server";
import { getStaff, safeRedirect } from "~/modules/auth/guards.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";

export async function loadLoginPage({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/backoffice");
  if (await getStaff(request, context)) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  return { title: t("gate.backofficeTitle") };
}

export async function loginPageAction({ request, context }: ActionFunctionArgs) {
  return passwordGateAction(request, context, { gate: "backoffice", home: "/backoffice", within: (path) => path.startsWith("/backoffice"), wrongPassword: "gate.wrongPasswordBackoffice" });
}
