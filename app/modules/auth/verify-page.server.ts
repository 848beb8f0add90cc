import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { completeSignIn, readSignInLink, signInWithLink } from "~/modules/auth/authenticator.server";
import { safeRedirect } from "~/modules/auth/guards.server";
import { readFormData } from "~/modules/http/request.server";
import { getClientAddress, getLocale } from "~/modules/http/request-context.server";

export async function loadVerifyPage({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const preview = token ? await readSignInLink(token) : null;
  return { email: preview?.email ?? null, token: preview ? token : "" };
}

export async function verifyPageAction({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const signedIn = await signInWithLink(request, (await getLocale(request, context)).market, String(form.get("token") ?? ""));
  if (!signedIn) return redirect("/auth/verify?token=invalid");
  const cookie = await completeSignIn(request, signedIn, getClientAddress(context));
  return redirect(safeRedirect(signedIn.redirectTo, "/cabinet"), { headers: { "Set-Cookie": cookie } });
}
