import { Form } from "@remix-run/react";
import type { FileType } from "~db/schema";
import type { DashboardFile } from "~/modules/backoffice/dashboard.server";
import { factsText } from "~/modules/packer/facts-text";
import { useTranslation } from "~/components/i18n/i18n-context";
import { zonedTimes } from "~/modules/i18n/clock";
import { useStaffTimeZone } from "./staff-clock";
import type { FileCorrectionEntry } from "~/modules/orders/files.server";
import { actorText } from "~/modules/orders/actor-text";

/**
 * A file's jaw and step on staff's files page (ADR 058): what its labels print, marked while it is
 * only read from the name, and a plain form to correct it (a `<details>`, so it opens without
 * JavaScript; the answer is a redirect back here with a toast).
 */
export function FileFactsForm({ action, patientId, type, file }: { action: string; patientId: string; type: FileType; file: Pick<DashboardFile, "name" | "storagePath" | "facts"> }) {
  const { t } = useTranslation();
  const { facts } = file;
  return (
    <div className="bo-file-facts">
      <span className="bo-file-declared">{factsText(t, facts)}</span>
      {facts.guessed ? <span className="badge badge-pending">{t("bo.orders.files.guessed")}</span> : null}
      <details className="bo-file-correct">
        <summary>{t("bo.orders.files.correct")}</summary>
        <Form method="post" action={action} className="bo-file-form">
          <input type="hidden" name="patientId" value={patientId} />
          <input type="hidden" name="type" value={type} />
          <input type="hidden" name="path" value={file.storagePath} />
          <label>
            {t("wizard.files.jaw")}
            <select name="jaw" defaultValue={facts.jaw} aria-label={t("wizard.files.jawOf", { name: file.name })}>
              <option value="upper">{t("wizard.files.upper")}</option>
              <option value="lower">{t("wizard.files.lower")}</option>
            </select>
          </label>
          <label>
            {t("wizard.files.step")}
            <input
              name="step"
              type="text"
              inputMode="numeric"
              pattern="[0-9]{1,3}"
              maxLength={3}
              size={3}
              required={type === "aligners"}
              defaultValue={facts.step === null ? "" : String(facts.step)}
              aria-label={t("wizard.files.stepOf", { name: file.name })}
            />
          </label>
          <button type="submit" className="button button-small">
            {t("bo.orders.files.save")}
          </button>
        </Form>
      </details>
    </div>
  );
}

/** The order's history of its files: who corrected which file's jaw and step, from what to what, when. */
export function FileCorrections({ corrections }: { corrections: readonly FileCorrectionEntry[] }) {
  const { t, i18n } = useTranslation();
  const timeZone = useStaffTimeZone();
  if (corrections.length === 0) return null;
  const when = zonedTimes(t, i18n.language, timeZone);
  return (
    <section className="bo-file-history" aria-labelledby="file-history-title">
      <h3 id="file-history-title">{t("bo.orders.files.history")}</h3>
      <ol>
        {corrections.map((entry, index) => (
          <li key={index}>
            <time dateTime={entry.at}>{when(entry.at)}</time> {t("bo.orders.files.change", { name: entry.name, from: factsText(t, entry.from), to: factsText(t, entry.to) })}
            {entry.from.guessed ? <span className="small muted"> ({t("bo.orders.files.wasGuessed")})</span> : null}
            <span className="muted">
              {" "}
              · {entry.patientFolder} · {actorText(t, entry.actor)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
