import type { SerializeFrom } from "@remix-run/node";
import type { loadQueuePage } from "~/modules/ftp/queue-page.server";
import { fileTypeLabelKey, queueStatusLabelKey } from "~/modules/ftp/queue";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatFileSize } from "~/modules/i18n/file-size";

type Entry = SerializeFrom<typeof loadQueuePage>["groups"][number]["entries"][number];

/** One file of the transfer queue under its order: patient, file, destination, status and its actions. */
export function EntryRow({ entry, orderPaid, time, sending }: { entry: Entry; orderPaid: boolean; time: (iso: string) => string; sending: boolean }) {
  const { t, i18n } = useTranslation();
  const status = sending ? "uploading" : entry.status;
  return (
    <tr className={`ftp-row ftp-row-${entry.status}`}>
      <td className="ftp-select">
        <input type="checkbox" name="ids" value={entry.id} aria-label={t("ftp.selectRow", { name: entry.name })} />
      </td>
      <td>{entry.patient ?? "—"}</td>
      <td>{t(fileTypeLabelKey(entry.fileType))}</td>
      <td className="ftp-file">
        <span className="file-name">{entry.name}</span>
        <div className="muted small">
          {entry.size !== null ? `${formatFileSize(entry.size, i18n.language)} · ` : ""}
          <span title={t("ftp.destination")}>
            {entry.destination}/{entry.storedName}
          </span>
        </div>
      </td>
      <td>
        <span className={`badge ftp-status-${status}`}>{t(queueStatusLabelKey(status))}</span>
        {!orderPaid && !entry.released && entry.status !== "completed" ? <div className="muted small">{t("ftp.waitingForPayment")}</div> : null}
        {entry.released ? <div className="muted small">{t("ftp.released")}</div> : null}
        {entry.removed ? <div className="muted small">{t("ftp.removed")}</div> : null}
        {entry.completedAt ? <div className="muted small">{time(entry.completedAt)}</div> : null}
      </td>
      <td className="num">{entry.attempts}</td>
      <td className="ftp-attempt">
        {entry.lastAttemptAt ? <div>{time(entry.lastAttemptAt)}</div> : <span className="muted">—</span>}
        {entry.error ? (
          <div className="ftp-error">
            <span className="visually-hidden">{t("ftp.lastError")}: </span>
            {t(entry.error.key, entry.error.values)}
          </div>
        ) : null}
        {entry.exhausted ? (
          <div className="muted small">{t("ftp.exhausted")}</div>
        ) : entry.nextAttemptAt ? (
          <div className="muted small">{t("ftp.nextAttempt", { time: time(entry.nextAttemptAt) })}</div>
        ) : null}
      </td>
      <td>
        {entry.sendable ? (
          <button type="submit" className="button button-small" name="intent" value={`upload:${entry.id}`} disabled={sending} aria-label={t("ftp.uploadRow", { name: entry.name })}>
            {t("ftp.upload")}
          </button>
        ) : null}
      </td>
    </tr>
  );
}
