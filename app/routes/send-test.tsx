import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatFileSize } from "~/modules/i18n/file-size";
import { loadSendTestPage, sendTestPageAction } from "~/modules/ftp/send-test-page.server";


export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * /send-test (staff only): the result of the last upload travels in the query string, which the
 * loader checks — a path below the test folder made of safe characters, or one of the error codes.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadSendTestPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return sendTestPageAction(args);
}

interface Message {
  key: string;
  values?: Record<string, string | number>;
}

export default function SendTest() {
  const { folder, maxBytes, result } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [clientError, setClientError] = useState<Message | null>(null);
  const sending = progress !== null;

  // With JavaScript: the same POST through XMLHttpRequest, for a real progress bar. The server
  // streams the body straight on to the file server, so bytes sent is the progress of the transfer.
  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const file = (form.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
    if (!file) return setClientError({ key: "ftp.sendTest.noFile" });
    try {
      await file.slice(0, 1).arrayBuffer();
    } catch {
      return setClientError({ key: "ftp.sendTest.readError" });
    }
    setClientError(null);
    setProgress(0);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.upload.onprogress = (progressEvent) => {
      if (progressEvent.lengthComputable) setProgress(Math.round((progressEvent.loaded / progressEvent.total) * 100));
    };
    xhr.onload = () => {
      setProgress(null);
      if (xhr.status < 200 || xhr.status >= 300) return setClientError({ key: "ftp.sendTest.httpError", values: { status: xhr.status } });
      // The action redirected to the result page; show it.
      const landed = new URL(xhr.responseURL);
      navigate(`${landed.pathname}${landed.search}`, { replace: true });
    };
    xhr.onerror = () => {
      setProgress(null);
      setClientError({ key: "ftp.sendTest.failed" });
    };
    xhr.send(new FormData(form));
  }

  const alert: { ok: boolean; title: string; lines: Message[] } | null = clientError
    ? { ok: false, title: "ftp.sendTest.errorTitle", lines: [clientError] }
    : sending || !result
      ? null
      : result.ok
        ? {
            ok: true,
            title: "ftp.sendTest.successTitle",
            lines: [
              { key: "ftp.sendTest.successPath", values: { path: result.path } },
              { key: "ftp.sendTest.size", values: { size: formatFileSize(result.size, i18n.language) } },
            ],
          }
        : { ok: false, title: "ftp.sendTest.errorTitle", lines: [{ key: `ftp.sendTest.${result.error}`, values: { max: formatFileSize(maxBytes, i18n.language) } }] };

  return (
    <section className="container narrow-page send-test">
      <h1>{t("ftp.sendTest.title")}</h1>
      <p>{t("ftp.sendTest.intro", { path: folder })}</p>
      <form method="post" encType="multipart/form-data" action="/send-test" onSubmit={send} className="card">
        <div className="field">
          <label htmlFor="send-test-file">{t("ftp.sendTest.file")}</label>
          <input
            id="send-test-file"
            type="file"
            name="file"
            disabled={sending}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              setChosen(file ? { name: file.name, size: file.size } : null);
              setClientError(null);
            }}
          />
          {chosen ? <p className="hint">{t("ftp.sendTest.size", { size: formatFileSize(chosen.size, i18n.language) })}</p> : null}
        </div>
        {sending ? (
          <div className="field">
            <label htmlFor="send-test-progress">{t("ftp.sendTest.progress", { percent: progress })}</label>
            <progress id="send-test-progress" max={100} value={progress} />
          </div>
        ) : null}
        <p>
          <button type="submit" className="button" disabled={sending}>
            {sending ? t("ftp.sendTest.sending") : t("ftp.sendTest.submit")}
          </button>
        </p>
      </form>
      {alert ? (
        <div className={`alert ${alert.ok ? "alert-success" : "alert-error"}`} role={alert.ok ? "status" : "alert"}>
          <strong>{t(alert.title)}</strong>
          {alert.lines.map((line) => (
            <p key={line.key}>{t(line.key, line.values)}</p>
          ))}
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
