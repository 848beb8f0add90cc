import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/modules/auth/guards.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { MAX_TEST_FILE_BYTES, receiveTestUpload, testFolder } from "~/modules/ftp/send-test.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatFileSize } from "~/modules/uploads/file-names";

const ERRORS = ["noFile", "tooLarge", "failed"] as const;
type SendError = (typeof ERRORS)[number];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * /send-test (staff only): the result of the last upload travels in the query string, which the
 * loader checks — a path below the test folder made of safe characters, or one of the error codes.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const params = new URL(request.url).searchParams;
  const folder = testFolder(getFileServer());
  const sent = params.get("sent");
  const size = Number(params.get("size"));
  const error = params.get("error");
  let result: { ok: true; path: string; size: number } | { ok: false; error: SendError } | null = null;
  if (sent && sent.startsWith(`${folder}/`) && /^[A-Za-z0-9._/-]+$/.test(sent) && !sent.includes("/.") && Number.isSafeInteger(size) && size >= 0) {
    result = { ok: true, path: sent, size };
  } else if ((ERRORS as readonly string[]).includes(error ?? "")) {
    result = { ok: false, error: error as SendError };
  }
  return { title: t("ftp.sendTest.title"), folder, maxBytes: MAX_TEST_FILE_BYTES, result };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const result = await receiveTestUpload(request, getFileServer());
  const params = new URLSearchParams(result.ok ? { sent: result.path, size: String(result.size) } : { error: result.error });
  return redirect(`/send-test?${params}`);
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
