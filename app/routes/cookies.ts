import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { cookies } from "~/modules/http/request/cookies.server";
import { cookieChoiceSchema } from "~/modules/http/forms/forms";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { rememberPartnerHeader } from "~/modules/partners/referral.server";

export async function loader() {
  return redirect("/");
}

/**
 * The cookie notice's "OK" (remembered for a year), and the international landing's "remember the
 * partner" (ADR 044): the partner cookie only for a code that exists. Either way back where it was.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, cookieChoiceSchema);
  const form = submission.status === "success" ? submission.value : {};
  const back = await redirectTarget(request, context, form.redirectTo, "/");
  const headers = new Headers();
  if (form.intent === "partner") {
    const header = await rememberPartnerHeader(form.partner);
    if (header) headers.append("Set-Cookie", header);
  } else {
    headers.append("Set-Cookie", await cookies.cookieConsent().serialize("1"));
  }
  return redirect(back, { headers });
}
