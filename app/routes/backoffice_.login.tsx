import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { StaffAccess } from "~/components/backoffice/staff-access";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PasswordGate } from "~/components/password-gate";
import { loadLoginPage, loginPageAction } from "~/modules/backoffice/login-page.server";
import { refusalHeaders } from "~/modules/http/answers/route-headers";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadLoginPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return loginPageAction(args);
}

/** A refusal's Retry-After reaches the answer (ADR 056). */
export const headers = refusalHeaders;

export default function BackofficeLogin() {
  const actionData = useActionData<typeof action>();
  const { signedInAs, redirectTo } = useLoaderData<typeof loader>();
  return (
    <>
      <PasswordGate titleKey="gate.backofficeTitle" reply={actionData} redirectTo={redirectTo} />
      <StaffAccess signedInAs={signedInAs} redirectTo={redirectTo} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
