import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useRequestId } from "~/modules/http/document-facts";
import { useTranslation } from "~/modules/i18n/i18n-context";

/** One error boundary for every route: status-specific messages, never a stack trace. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const requestId = useRequestId();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) return <NotFound />;
  const key = status === 403 ? "forbidden" : status === 400 ? "badRequest" : status === 429 ? "tooMany" : status === 413 ? "tooLarge" : status === 409 ? "conflict" : status === 503 ? "unavailable" : "unexpected";
  return (
    <section className="container error-page">
      <h1>{t(`errors.${key}.title`)}</h1>
      <p>{t(`errors.${key}.text`)}</p>
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
