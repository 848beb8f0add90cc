import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { PageDialog } from "~/components/backoffice/ui";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { ListPager } from "~/components/lists/list-pager";
import { erasuresPageAction, loadErasuresPage } from "~/modules/backoffice/erasures-page.server";
import { listHref } from "~/modules/http/request/list-query";
import { formatDate } from "~/modules/partners/format";

const BACK = "/backoffice/erasures";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadErasuresPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return erasuresPageAction(args);
}

/** /backoffice/erasures (ADR 079): the clinics' erasure requests, their state, and approving one after a question. */
export default function BackofficeErasures() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const busy = useNavigation().state === "submitting";
  const date = (iso: string | null) => formatDate(iso, language);
  const { search } = useLocation();
  // The same page of the list (its number and cursor), with or without a request asked about.
  const samePage = (confirm: string | null) => listHref(BACK, search, { confirm }, { samePage: true });
  const back = samePage(null);
  return (
    <section className="bo-page">
      <h1>{t("bo.erasures.title")}</h1>
      <p className="muted">{t("bo.erasures.intro", { years: data.years })}</p>
      {data.question ? (
        <PageDialog titleId="erasure-confirm-title" title={t("bo.erasures.confirmTitle")} closeTo={back}>
          {data.question.blocker ? (
            <p role="alert">{t(`bo.erasures.blocked.${data.question.blocker}`)}</p>
          ) : (
            <>
              <p>{t("bo.erasures.confirmText", { email: data.question.email, years: data.years })}</p>
              <Form method="post" className="bo-dialog-actions">
                <input type="hidden" name="intent" value="approve" />
                <input type="hidden" name="id" value={data.question.id} />
                <Link to={back} className="button button-secondary">
                  {t("bo.dialog.cancel")}
                </Link>
                <button type="submit" className="button bo-danger" disabled={busy}>
                  {t("bo.erasures.approve")}
                </button>
              </Form>
            </>
          )}
        </PageDialog>
      ) : null}
      {data.requests.length === 0 ? (
        <p className="empty">{t("bo.erasures.none")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("bo.erasures.columns.client")}</th>
                <th scope="col">{t("bo.erasures.columns.requested")}</th>
                <th scope="col">{t("bo.erasures.columns.state")}</th>
                <th scope="col">{t("bo.erasures.columns.result")}</th>
              </tr>
            </thead>
            <tbody>
              {data.requests.map((row) => (
                <tr key={row.id}>
                  <td data-label={t("bo.erasures.columns.client")}>{row.email ?? <span className="muted">{t("bo.erasures.erased")}</span>}</td>
                  <td data-label={t("bo.erasures.columns.requested")}>{date(row.requestedAt)}</td>
                  <td data-label={t("bo.erasures.columns.state")}>
                    {row.completedAt ? (
                      t("bo.erasures.stateDone", { date: date(row.completedAt) })
                    ) : row.approvedAt ? (
                      t("bo.erasures.stateGoing", { date: date(row.approvedAt), by: row.approvedBy ?? "—", waiting: row.waiting })
                    ) : (
                      <Link to={samePage(row.id)} className="button button-small bo-danger">
                        {t("bo.erasures.approve")}
                      </Link>
                    )}
                  </td>
                  <td data-label={t("bo.erasures.columns.result")}>
                    {row.approvedAt ? t("bo.erasures.result", { deleted: row.deleted, anonymised: row.anonymised, files: row.files }) : "—"}
                    {row.keptUntil ? (
                      <>
                        <br />
                        <span className="muted small">{t("bo.erasures.keptUntil", { date: date(row.keptUntil) })}</span>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager page={data.page} pageSize={data.pageSize} shown={data.requests.length} total={null} hasMore={data.hasMore} cursors={data.cursors} without={["confirm"]} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
