import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadTrackerTestPage, trackerTestPageAction } from "~/modules/backoffice/tracker-test-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * The tracker connection test (staff side §2 "/backoffice/test"): gets a token with the configured
 * login and key and logs each step, showing only a masked token (DESIGN §4.26). Getting a token
 * changes nothing, so the test runs on a GET (`?run=1`) and a reload simply runs it again.
 */

export async function loader(args: LoaderFunctionArgs) {
  return loadTrackerTestPage(args);
}

/** Nothing to post here; guarded like every action. */
export async function action(args: ActionFunctionArgs) {
  return trackerTestPageAction(args);
}

export default function TrackerTest() {
  const { enabled, ran, ok, steps, maskedToken } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const busy = useNavigation().state === "loading";
  return (
    <section className="bo-page">
      <p>
        <Link to="/backoffice">{t("bo.back")}</Link>
      </p>
      <h1>{t("bo.trackerTest.title")}</h1>
      <p className="muted">{t("bo.trackerTest.intro")}</p>
      {enabled ? null : <p className="note">{t("bo.tracker.disabled")}</p>}
      <Form method="get">
        <button type="submit" name="run" value="1" className="button" disabled={busy}>
          {t("bo.trackerTest.run")}
        </button>
      </Form>
      {ran ? (
        <div className="card bo-test-log" aria-live="polite">
          <h2>{ok ? t("bo.trackerTest.ok") : t("bo.trackerTest.failed")}</h2>
          <ol>
            {steps.map((step, index) => (
              <li key={index} className={step.ok === false ? "danger" : undefined}>
                {t(`bo.trackerTest.steps.${step.key}`, step.values)}
              </li>
            ))}
          </ol>
          {maskedToken ? (
            <p>
              {t("bo.trackerTest.maskedToken")} <code>{maskedToken}</code>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
