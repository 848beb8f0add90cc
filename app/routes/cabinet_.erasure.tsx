import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { erasurePageAction, loadErasurePage } from "~/modules/cabinet/erasure-page.server";
import type { FormReply } from "~/modules/http/forms/submission.server";
import { formatDate } from "~/modules/partners/format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadErasurePage(args);
}

export async function action(args: ActionFunctionArgs) {
  return erasurePageAction(args);
}

/**
 * /cabinet/erasure (ADR 079): what erasing this clinic's data removes and what accounting keeps,
 * the request with a box that must be ticked, its state, and withdrawing it while it waits.
 */
export default function CabinetErasurePage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const busy = useNavigation().state === "submitting";
  const confirmError = reply?.error?.confirm?.[0];
  return (
    <section className="container cabinet stack erasure-page">
      <p className="small">
        <Link to="/cabinet">{t("cabinet.backToOrders")}</Link>
      </p>
      <h1>{t("cabinet.erasure.title")}</h1>
      <p>{t("cabinet.erasure.intro", { email: data.email })}</p>
      <ul>
        <li>{t("cabinet.erasure.deleted", { count: data.orders.deleted })}</li>
        <li>{t("cabinet.erasure.anonymised", { count: data.orders.anonymised })}</li>
        <li>{t("cabinet.erasure.waiting", { count: data.orders.waiting })}</li>
        <li>{t("cabinet.erasure.account")}</li>
      </ul>
      <p>{t("cabinet.erasure.kept", { years: data.years })}</p>
      <p className="muted small">{t("cabinet.erasure.exportFirst")}</p>
      {data.request ? (
        <div className="card stack" role="status">
          <p>
            {data.request.approvedAt
              ? t("cabinet.erasure.stateApproved", { date: formatDate(data.request.approvedAt, language), waiting: data.request.waiting })
              : t("cabinet.erasure.stateRequested", { date: formatDate(data.request.requestedAt, language) })}
          </p>
          {data.request.approvedAt ? null : (
            <Form method="post">
              <input type="hidden" name="intent" value="withdraw" />
              <button type="submit" className="button button-secondary" disabled={busy}>
                {t("cabinet.erasure.withdraw")}
              </button>
            </Form>
          )}
        </div>
      ) : (
        <Form method="post" className="card stack" noValidate>
          <input type="hidden" name="intent" value="request" />
          <label className="checkbox">
            <input type="checkbox" name="confirm" value="yes" required aria-invalid={confirmError ? true : undefined} aria-describedby={confirmError ? "erasure-confirm-error" : undefined} />
            <span>{t("cabinet.erasure.confirm")}</span>
          </label>
          {confirmError ? (
            <p id="erasure-confirm-error" className="field-error" role="alert">
              {t(confirmError)}
            </p>
          ) : null}
          <div>
            <button type="submit" className="button button-danger" disabled={busy}>
              {t("cabinet.erasure.submit")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
