import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { getTaskTracker, type TestStep } from "~/modules/tracker/tracker.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * The tracker connection test (staff side §2 "/backoffice/test"): gets a token with the configured
 * login and key and logs each step, showing only a masked token (DESIGN §4.26). Getting a token
 * changes nothing, so the test runs on a GET (`?run=1`) and a reload simply runs it again.
 */

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const run = new URL(request.url).searchParams.get("run") === "1";
  const tracker = getTaskTracker(getConfig());
  if (!run) return { title: t("bo.trackerTest.title"), enabled: tracker.enabled, ran: false, ok: false, steps: [] as TestStep[], maskedToken: null };
  const steps: TestStep[] = [];
  const outcome = await tracker.testConnection((step) => steps.push(step));
  return { title: t("bo.trackerTest.title"), enabled: tracker.enabled, ran: true, ok: outcome.ok, steps, maskedToken: outcome.maskedToken };
}

/** Nothing to post here; guarded like every action. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  return redirect("/backoffice/test");
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
