import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { tryGatePassword } from "~/modules/auth/gate.server";
import { getStaff, safeRedirect } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator, getClientAddress } from "~/modules/http/request-context.server";

export async function loadLoginPage({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/backoffice");
  if (await getStaff(request, context)) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  return { title: t("gate.backofficeTitle") };
}

export async function loginPageAction({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const password = String(form.get("password") ?? "");
  const redirectTo = safeRedirect(form.get("redirectTo"), "/backoffice");
  try {
    const attempt = await tryGatePassword(await getDb(), "backoffice", password, getClientAddress(context));
    if (attempt.ok) return redirect(redirectTo.startsWith("/backoffice") ? redirectTo : "/backoffice", { headers: { "Set-Cookie": attempt.setCookie } });
    const error = attempt.reason === "limited" ? "gate.tooManyAttempts" : "gate.wrongPasswordBackoffice";
    return data({ error }, { status: attempt.reason === "limited" ? 429 : 401 });
  } catch (cause) {
    logger.error("back-office password check failed:", cause);
    return data({ error: "gate.checkFailed" }, { status: 500 });
  }
}
