import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PasswordGate } from "~/components/password-gate";
import { tryGatePassword } from "~/modules/auth/gate.server";
import { getStaff, safeRedirect } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { clientIp, readFormData } from "~/modules/http/request.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { logger } from "~/modules/log/logger.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/backoffice");
  if (await getStaff(request, context)) throw redirect(redirectTo);
  const { t } = await getTranslator(request);
  return { title: t("gate.backofficeTitle") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const password = String(form.get("password") ?? "");
  const redirectTo = safeRedirect(form.get("redirectTo"), "/backoffice");
  try {
    const attempt = await tryGatePassword(await getDb(), "backoffice", password, clientIp(request, context));
    if (attempt.ok) return redirect(redirectTo.startsWith("/backoffice") ? redirectTo : "/backoffice", { headers: { "Set-Cookie": attempt.setCookie } });
    const error = attempt.reason === "limited" ? "gate.tooManyAttempts" : "gate.wrongPasswordBackoffice";
    return data({ error }, { status: attempt.reason === "limited" ? 429 : 401 });
  } catch (cause) {
    logger.error("back-office password check failed:", cause);
    return data({ error: "gate.checkFailed" }, { status: 500 });
  }
}

export default function BackofficeLogin() {
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  return <PasswordGate titleKey="gate.backofficeTitle" error={actionData?.error} redirectTo={params.get("redirectTo") ?? "/backoffice"} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
