import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import { completeSignIn, readSignInLink, signInWithLink } from "~/modules/auth/authenticator.server";
import { readQuery } from "~/modules/http/request/list-query";
import { localTarget } from "~/modules/http/request/redirect-target";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { getClientAddress, getLocale } from "~/modules/http/request/request-context.server";
import { verifySchema } from "./forms";

/** The sign-in link's token, whole (its cipher text runs past a word's 200 characters), "" when absent. */
const verifyQuery = z.object({ token: z.pipe(z.unknown(), z.transform((value) => (typeof value === "string" ? value : ""))) });

export async function loadVerifyPage({ request }: LoaderFunctionArgs) {
  const { token } = readQuery(request, verifyQuery);
  const preview = token ? await readSignInLink(token) : null;
  return { email: preview?.email ?? null, token: preview ? token : "" };
}

export async function verifyPageAction({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, verifySchema);
  const token = submission.status === "success" ? submission.value.token : "";
  const signedIn = await signInWithLink(request, (await getLocale(request, context)).market, token);
  if (!signedIn) return redirect("/auth/verify?token=invalid");
  const cookie = await completeSignIn(request, signedIn, getClientAddress(context));
  // The link's return address was checked when it was sent; one stored before that check falls back.
  return redirect(localTarget(signedIn.redirectTo, "/cabinet") ?? "/cabinet", { headers: { "Set-Cookie": cookie } });
}
