import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { completeSignIn, sendSignInLink, signInWithCode } from "~/modules/auth/authenticator.server";
import { safeRedirect } from "~/modules/auth/guards.server";
import { readFormData } from "~/modules/http/request.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { isEmail } from "~/modules/wizard/validation";
import { getClientAddress, getLocale, getRequestTranslator, getViewer } from "~/modules/http/request-context.server";

export async function loadSignInPage({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/cabinet");
  if ((await getViewer(request, context)).user) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  return {
    title: t("auth.title"),
    sentTo: url.searchParams.get("sent"),
    redirectTo,
  };
}

export async function signInPageAction({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const email = String(form.get("email") ?? "").trim().toLowerCase();
  const redirectTo = safeRedirect(form.get("redirectTo"), "/cabinet");

  if (form.get("intent") === "code") {
    const signedIn = await signInWithCode(request, { email, code: String(form.get("code") ?? "").trim() });
    // Said at the code field, which the page shows again for this e-mail wherever the code came from.
    if (!signedIn) return data({ errors: { code: "auth.errors.badCode" }, email }, { status: 400 });
    const cookie = await completeSignIn(request, signedIn, getClientAddress(context));
    return redirect(safeRedirect(signedIn.redirectTo, redirectTo), { headers: { "Set-Cookie": cookie } });
  }

  if (!email) return data({ errors: { email: "auth.errors.emailRequired" }, email }, { status: 400 });
  if (!isEmail(email)) return data({ errors: { email: "auth.errors.emailInvalid" }, email }, { status: 400 });
  const { market, language } = await getLocale(request, context);
  const result = await sendSignInLink(request, { email, redirectTo, market, language, clientIp: getClientAddress(context) });
  if (!result.ok) {
    const description = result.reason === "rate_limited" ? "auth.errors.rateLimited" : "auth.toasts.sendFailedText";
    return data({ errors: { email: description }, email }, { status: result.reason === "rate_limited" ? 429 : 502 });
  }
  const params = new URLSearchParams({ sent: email, redirectTo });
  return redirectWithToast(
    `/auth?${params}`,
    { type: "success", title: "auth.toasts.sentTitle", description: "auth.toasts.sentText" },
    { headers: result.setCookie ? { "Set-Cookie": result.setCookie } : undefined },
  );
}
