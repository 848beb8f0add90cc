import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/modules/i18n/i18n-context";
import type { ScanSummary } from "~/modules/uploads/scan";
import { numberFormat } from "~/modules/i18n/intl";

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

/** The scan checks of a file: format, triangles, size in mm, and the warnings a lab looks at. */
export function ScanInfo({ scan }: { scan: ScanSummary }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => numberFormat(i18n.language).format(value);
  const counts: Record<string, number> = { degenerate: scan.degenerate, open_mesh: scan.boundaryEdges, bad_coordinates: scan.badTriangles, extra_bytes: scan.triangles };
  return (
    <div className="scan small">
      <span className="muted">
        {t(`uploads.scan.${scan.format}`)} · {t("uploads.scan.triangles", { count: number(scan.triangles) })}
        {scan.size ? ` · ${t("uploads.scan.size", { x: number(scan.size.x), y: number(scan.size.y), z: number(scan.size.z) })}` : ""}
      </span>
      {scan.warnings.length ? (
        <ul className="scan-warnings">
          {scan.warnings.map((warning) => (
            <li key={warning}>{t(`uploads.scan.warnings.${warning}`, { count: number(counts[warning] ?? 0), bytes: number(scan.extraBytes ?? 0) })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
