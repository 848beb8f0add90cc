import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff, safeRedirect } from "~/modules/auth/guards.server";
import { CopyButton } from "~/modules/backoffice/copy-button";
import { PageDialog } from "~/modules/backoffice/ui";
import { getConfig } from "~/modules/config/config.server";
import { publicOrigin } from "~/modules/market/market.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { buildTrackerRequest, canSendToTracker } from "~/modules/tracker/order-request.server";
import { isTaskSignature, taskSignature } from "~/modules/tracker/signature.server";
import { getTaskTracker, type TrackerResult } from "~/modules/tracker/tracker.server";
import { logger } from "~/modules/log/logger.server";

/**
 * Send to tracker (staff side §2, §7 "pyrus-api"): GET shows the prepared request (the dry run,
 * no network); POST sends it and redirects to GET with the signed task id, which shows the request
 * as sent, Pyrus's answer and the catalogue items found.
 */

const backTo = (request: Request) => safeRedirect(new URL(request.url).searchParams.get("back"), "/backoffice");

async function orderFor(params: LoaderFunctionArgs["params"]) {
  const order = await findOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  return order;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const order = await orderFor(params);
  const config = getConfig();
  const tracker = getTaskTracker(config);
  const base = { title: t("bo.tracker.title", { number: shortOrderNumber(order.id) }), number: shortOrderNumber(order.id), back: backTo(request), enabled: tracker.enabled };
  if (!canSendToTracker(order.status)) return data({ ...base, state: "not_allowed" as const, status: order.status }, { status: 409 });

  let prepared;
  try {
    prepared = await buildTrackerRequest(await getDb(), order, { formId: config.pyrus?.formId ?? null, origin: publicOrigin(order.market) });
  } catch (error) {
    logger.error("tracker: preparing the request failed:", error);
    return data({ ...base, state: "prepare_failed" as const, message: error instanceof Error ? error.message : String(error) }, { status: 500 });
  }

  const url = new URL(request.url);
  const taskId = url.searchParams.get("task");
  if (taskId && isTaskSignature(config.secrets.SESSION_SECRET, order.id, taskId, url.searchParams.get("sig"))) {
    let result: TrackerResult | null = null;
    let message: string | null = null;
    try {
      result = await tracker.describe(prepared, taskId);
    } catch (error) {
      logger.error("tracker: reading the task failed:", error);
      message = error instanceof Error ? error.message : String(error);
    }
    return { ...base, state: "sent" as const, taskId, result, message, prepared };
  }
  return { ...base, state: "dry_run" as const, prepared };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const order = await orderFor(params);
  const config = getConfig();
  const here = new URL(request.url);
  const back = backTo(request);
  const dryRun = `${here.pathname}?back=${encodeURIComponent(back)}`;
  if (!canSendToTracker(order.status)) return redirectWithToast(back, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.notAllowed" });
  const tracker = getTaskTracker(config);
  if (!tracker.enabled) return redirectWithToast(dryRun, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.disabled" });

  let result: TrackerResult;
  try {
    const prepared = await buildTrackerRequest(await getDb(), order, { formId: config.pyrus?.formId ?? null, origin: publicOrigin(order.market) });
    result = await tracker.send(prepared);
  } catch (error) {
    logger.error("tracker: sending failed:", error);
    const message = error instanceof Error ? error.message : String(error);
    return redirectWithToast(dryRun, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.cause", values: { message } });
  }
  const sig = taskSignature(config.secrets.SESSION_SECRET, order.id, result.task.id);
  return redirectWithToast(`${here.pathname}?task=${encodeURIComponent(result.task.id)}&sig=${sig}&back=${encodeURIComponent(back)}`, {
    type: "success",
    title: "bo.tracker.sent",
    description: "bo.tracker.taskCreated",
    values: { id: result.task.id },
  });
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
