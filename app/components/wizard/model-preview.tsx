import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { ScanSummary } from "~/modules/uploads/scan";
import { numberFormat } from "~/modules/i18n/intl";
import { doctorScanNotes } from "~/modules/uploads/scan-notes";

/** A stored model in a dialog, turnable in 3D; three.js loads only now (stl-viewer.client.ts). */
export function ModelPreview({ name, url, onClose }: { name: string; url: string; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    dialog.current?.showModal();
    let dispose: (() => void) | undefined;
    let closed = false;
    import("./stl-viewer.client")
      .then((viewer) => viewer.showModel(canvas.current!, url))
      .then(
        (free) => (closed ? free() : ((dispose = free), setState("ready"))),
        () => !closed && setState("failed"),
      );
    return () => {
      closed = true;
      dispose?.();
    };
  }, [url]);
  return (
    <dialog ref={dialog} className="model-preview" onClose={onClose} aria-labelledby="model-preview-title">
      <h2 id="model-preview-title">{t("uploads.viewer.title", { name })}</h2>
      <canvas ref={canvas} className="model-canvas" />
      <p className="small muted" role="status">
        {t(`uploads.viewer.${state}`)}
      </p>
      <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
        {t("uploads.viewer.close")}
      </button>
    </dialog>
  );
}

/**
 * The scan checks of a file as a doctor reads them (ADR 061): the model's size, and what each finding
 * means for the order in plain words. The reader's counts are for staff (the order's files page).
 */
export function ScanInfo({ scan }: { scan: ScanSummary }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => numberFormat(i18n.language).format(value);
  const notes = doctorScanNotes(scan);
  return (
    <div className="scan small">
      {scan.size ? <span className="muted">{t("uploads.scan.size", { x: number(scan.size.x), y: number(scan.size.y), z: number(scan.size.z) })}</span> : null}
      {notes.length ? (
        <ul className="scan-warnings">
          {notes.map((note) => (
            <li key={note.key}>{t(note.key)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
