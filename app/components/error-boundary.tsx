import { isRouteErrorResponse, Link, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { StaffAccess } from "~/components/backoffice/staff-access";
import { SIGNED_IN_STAFF_ONLY } from "~/modules/auth/staff";
import { useRequestId } from "~/components/document-facts";
import { useTranslation } from "~/components/i18n/i18n-context";

/** One error boundary for every route: status-specific messages, never a stack trace. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const requestId = useRequestId();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A back-office page refused ("Доступ запрещён": the roles page for a manager, a transfer marked paid with the shared password) says how to get access (ADR 069, 083).
  const backoffice = useRouteLoaderData<{ email: string | null }>("routes/backoffice");
  const { pathname } = useLocation();
  const staffRefused = status === 403 && pathname.startsWith("/backoffice") && backoffice !== undefined;
  if (status === 404) return <NotFound />;
  const key = status === 403 ? "forbidden" : status === 400 ? "badRequest" : status === 429 ? "tooMany" : status === 413 ? "tooLarge" : status === 409 ? "conflict" : status === 503 ? "unavailable" : "unexpected";
  return (
    <section className="container error-page">
      <h1>{t(`errors.${key}.title`)}</h1>
      <p>{t(`errors.${key}.text`)}</p>
      {staffRefused ? <StaffAccess refusal={isRouteErrorResponse(error) && error.data === SIGNED_IN_STAFF_ONLY ? "signedInOnly" : "adminOnly"} signedInAs={backoffice?.email ?? null} redirectTo={pathname} /> : null}
      {/* Rendered on the server only: the id a clinic quotes to support finds the request's log lines. */}
      {requestId ? (
        <p className="error-reference" data-request-id={requestId}>
          {t("errors.reference", { id: requestId })}
        </p>
      ) : null}
      <Link className="button" to="/">
        {t("errors.home")}
      </Link>
    </section>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="container error-page">
      <p className="error-code" aria-hidden="true">
        404
      </p>
      <h1>{t("errors.notFound.title")}</h1>
      <p>{t("errors.notFound.text")}</p>
      <Link className="button" to="/">
        {t("errors.home")}
      </Link>
    </section>
  );
}
