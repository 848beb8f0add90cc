import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CopyButton } from "~/components/backoffice/copy-button";
import { PageDialog } from "~/components/backoffice/ui";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadOrderTrackerPage, orderTrackerPageAction } from "~/modules/backoffice/order-tracker-page.server";

/**
 * Send to tracker (staff side §2, §7 "pyrus-api"): GET shows the prepared request (the dry run,
 * no network); POST sends it and redirects to GET with the signed task id, which shows the request
 * as sent, Pyrus's answer and the catalogue items found.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadOrderTrackerPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return orderTrackerPageAction(args);
}

export default function TrackerDialog() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const json = (value: unknown) => JSON.stringify(value, null, 2);

  return (
    <section className="bo-page">
      <PageDialog titleId="tracker-title" title={page.state === "sent" ? t("bo.tracker.resultTitle", { number: page.number }) : page.title} closeTo={page.back} wide>
        {page.state === "not_allowed" ? (
          <p role="alert">{t("bo.tracker.notAllowed")}</p>
        ) : page.state === "prepare_failed" ? (
          <p role="alert" className="field-error">
            {t("bo.tracker.prepareFailed")} {page.message}
          </p>
        ) : page.state === "dry_run" ? (
          <>
            <p>{t("bo.tracker.dryRunIntro")}</p>
            <JsonBlock id="tracker-request" title={t("bo.tracker.request")} text={json(page.prepared)} />
            {page.enabled ? null : (
              <p className="note" role="note">
                {t("bo.tracker.disabled")}
              </p>
            )}
            <Form method="post" action={`${location.pathname}${location.search}`} className="bo-dialog-actions">
              <Link to={page.back} className="button button-secondary">
                {t("bo.dialog.cancel")}
              </Link>
              <button type="submit" className="button" disabled={!page.enabled || busy}>
                {t("bo.tracker.send")}
              </button>
            </Form>
          </>
        ) : (
          <>
            {page.result ? (
              <>
                <p>
                  {t("bo.tracker.taskCreated", { id: page.result.task.id })}{" "}
                  <a href={page.result.task.url} target="_blank" rel="noreferrer">
                    {t("bo.tracker.openTask")}
                  </a>
                </p>
                <JsonBlock id="tracker-sent" title={t("bo.tracker.request")} text={json(page.result.body)} />
                <JsonBlock id="tracker-response" title={t("bo.tracker.response")} text={json(page.result.response)} />
                <h3>{t("bo.tracker.catalogItems")}</h3>
                {page.result.catalogItems.length === 0 ? (
                  <p className="muted">{t("bo.tracker.noCatalogItems")}</p>
                ) : (
                  <div className="table-wrap">
                    <table>
                      <thead>
                        <tr>
                          <th scope="col">{t("bo.tracker.columns.field")}</th>
                          <th scope="col">{t("bo.tracker.columns.catalog")}</th>
                          <th scope="col">{t("bo.tracker.columns.item")}</th>
                          <th scope="col">{t("bo.tracker.columns.values")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {page.result.catalogItems.map((item) => (
                          <tr key={item.field}>
                            <td>{item.field}</td>
                            <td>{item.catalogId ?? t("bo.tracker.choice")}</td>
                            <td>{item.itemId}</td>
                            <td>{item.values.join(" · ")}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {page.result.skipped.length ? <p className="hint">{t("bo.tracker.skipped", { fields: page.result.skipped.join(", ") })}</p> : null}
              </>
            ) : (
              <>
                <p>{t("bo.tracker.taskCreated", { id: page.taskId })}</p>
                <p role="alert" className="field-error">
                  {t("bo.tracker.readFailed")} {page.message}
                </p>
                <JsonBlock id="tracker-request" title={t("bo.tracker.request")} text={json(page.prepared)} />
              </>
            )}
            <div className="bo-dialog-actions">
              <Link to={page.back} className="button">
                {t("bo.dialog.close")}
              </Link>
            </div>
          </>
        )}
      </PageDialog>
    </section>
  );
}

function JsonBlock({ id, title, text }: { id: string; title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <div className="bo-json">
      <div className="bo-json-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <CopyButton targetId={id} label={t("bo.copy.button")} />
      </div>
      <pre id={id} role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
