import { useTranslation } from "~/components/i18n/i18n-context";
import { numberFormat } from "~/modules/i18n/intl";
import type { ScanSummary } from "~/modules/orders/recorded-scan";
import { staffScanNotes } from "~/modules/backoffice/scan-facts";

/**
 * A file's scan as staff read it (ADR 061): the reader's facts (format, triangles, size) and each
 * warning with its numbers — the technical side of the plain note the doctor saw in the wizard.
 */
export function FileScan({ scan }: { scan: ScanSummary }) {
  const { t, i18n } = useTranslation();
  const format = (values: Record<string, number>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, numberFormat(i18n.language).format(value)]));
  const { facts, notes } = staffScanNotes(scan);
  return (
    <div className="scan small">
      <span className="muted">{facts.map((fact) => t(fact.key, format(fact.values))).join(" · ")}</span>
      {notes.length ? (
        <ul className="scan-warnings">
          {notes.map((note) => (
            <li key={note.key}>{t(note.key, format(note.values))}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
