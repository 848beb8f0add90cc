import type { Failure } from "~/modules/http/forms/failure";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { completeSignIn, sendSignInLink, signInWithCode } from "~/modules/auth/authenticator.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { localTarget } from "~/modules/http/request/redirect-target";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { type FormReply, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getClientAddress, getLocale, getRequestTranslator, getViewer } from "~/modules/http/request/request-context.server";
import { BAD_CODE, signInPageSchema } from "./forms";

/** A value of the address as sent, null when absent: a return address or an e-mail may run long, and "" is kept. */
/** Where to go once signed in, and the e-mail a link was just sent to. */
const signInQuery = z.object({ redirectTo: asSent, sent: asSent });

export async function loadSignInPage({ request, context }: LoaderFunctionArgs) {
  const query = readQuery(request, signInQuery);
  const redirectTo = await redirectTarget(request, context, query.redirectTo, "/cabinet");
  if ((await getViewer(request, context)).user) throw redirect(redirectTo);
  const t = await getRequestTranslator(request, context);
  return {
    title: t("auth.title"),
    sentTo: query.sent,
    redirectTo,
  };
}

/** A link that could not be sent, said in place with its title (ADR 026). */
export const SEND_FAILED: Failure = { title: "auth.toasts.sendFailedTitle", message: "auth.toasts.sendFailedText" };

/** The sign-in page's reply: the form as typed and why it was refused (a code refused is said at the code field). */
export type SignInReply = FormReply & { failure?: Failure };

/**
 * Asking for a link, or typing the code: the address is checked here, once (auth/forms.ts), and
 * handed to the strategies checked.
 */
export async function signInPageAction({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, signInPageSchema);
  const value = submission.status === "success" ? submission.value : null;

  if (submittedIntent(submission) === "code") {
    const form = value?.intent === "code" ? value : null;
    const back = await redirectTarget(request, context, form?.redirectTo, "/cabinet");
    const signedIn = form ? await signInWithCode(request, { email: form.email, code: form.code }) : null;
    // Said at the code field, which the page shows again for this e-mail wherever the code came from.
    if (!form || !signedIn) return refused(submission, undefined, 400, { code: [BAD_CODE] });
    const cookie = await completeSignIn(request, signedIn, getClientAddress(context));
    // The link's own return address first (checked when it was sent), else the form's.
    return redirect(localTarget(signedIn.redirectTo, back) ?? back, { headers: { "Set-Cookie": cookie } });
  }

  if (!value || value.intent === "code") return refused(submission);
  const { email } = value;
  const redirectTo = await redirectTarget(request, context, value.redirectTo, "/cabinet");
  const { market, language } = await getLocale(request, context);
  const result = await sendSignInLink(request, { email, redirectTo, market, language, clientIp: getClientAddress(context) });
  // Too many links is said at the field; a mail that could not go out, in place with its title (ADR 026).
  if (!result.ok && result.reason === "rate_limited") return refused(submission, undefined, 429, { email: ["auth.errors.rateLimited"] }, { "Retry-After": String(result.retryAfterSeconds) });
  if (!result.ok) return refused(submission, { failure: SEND_FAILED }, 502);
  const params = new URLSearchParams({ sent: email, redirectTo });
  return redirectWithToast(
    `/auth?${params}`,
    { type: "success", title: "auth.toasts.sentTitle", description: "auth.toasts.sentText" },
    { headers: result.setCookie ? { "Set-Cookie": result.setCookie } : undefined },
  );
}
