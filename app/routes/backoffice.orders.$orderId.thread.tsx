import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { ThreadForm, ThreadMessages } from "~/components/thread/order-thread";
import { loadOrderThreadPage, orderThreadPageAction } from "~/modules/backoffice/order-thread-page.server";

/**
 * The order's thread with the clinic, and the lab's own notes (ADR 104): a tab of the order's page.
 * Every form is a plain post that comes back here (POST-redirect-GET).
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadOrderThreadPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return orderThreadPageAction(args);
}

export default function OrderThreadTab() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="bo-order-thread" aria-labelledby="thread-title">
      <h2 id="thread-title">{t("thread.title")}</h2>
      {page.state.waitingOn ? <p className="note" role="status">{t(page.state.waitingOn === "clinic" ? "thread.bo.waitingClinic" : "thread.bo.waitingLab")}</p> : null}
      <ThreadMessages messages={page.messages} viewer="lab" staff={page.staff} />
      {page.open ? (
        <ThreadForm intent="message" reply={reply} label="thread.bo.messageLabel" submit="thread.send" asks />
      ) : (
        <p className="muted">{t("thread.bo.noEmail")}</p>
      )}
      <div className="thread-note-form">
        <ThreadForm intent="note" reply={reply} label="thread.bo.noteLabel" submit="thread.bo.addNote" />
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
