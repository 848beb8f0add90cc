import { useEffect, useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { FileType } from "~db/schema";
import { formatFileSize } from "~/modules/i18n/file-size";
import { ModelPreview, ScanInfo } from "../model-preview";
import { InterruptedUploads } from "../interrupted-uploads";
import { useLiveSync } from "../live-sync";
import { type UploadItem, UploadProgress } from "../resumable-upload";
import type { StepProps } from "./types";

const SYNC_LABEL: Record<string, string> = {
  pending: "wizard.sync.pending",
  uploading: "wizard.sync.uploading",
  completed: "wizard.sync.completed",
  failed: "wizard.sync.failed",
};

export function UploadStep({
  data,
  patient,
  errors,
  type,
  onFilesChosen,
  uploads,
}: StepProps & {
  type: FileType;
  onFilesChosen?: (chosen: boolean) => void;
  uploads?: { items: UploadItem[]; start: (files: File[]) => void; retry: (item: UploadItem) => void; remove: (item: UploadItem) => void };
}) {
  const { t, i18n } = useTranslation();
  const files = patient?.files[type] ?? [];
  const [hydrated, setHydrated] = useState(false);
  const [preview, setPreview] = useState<{ name: string; path: string } | null>(null);
  useEffect(() => {
    setHydrated(true);
    // Files chosen while the page was still loading its script go the resumable way too.
    takeFiles(document.querySelector<HTMLInputElement>("#field-files"));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const sync = useLiveSync(data.order?.id, Object.fromEntries(files.map((file) => [file.path, file.sync])));
  const target = data.order && patient ? { orderId: data.order.id, patientId: patient.id, type } : null;
  // With JavaScript the chosen files go through the resumable upload; without, the form posts them.
  // A drop on the zone lands in the input itself (it lies over the zone) and arrives here as its change.
  const takeFiles = (input: HTMLInputElement | null) => {
    if (!uploads || !input?.files?.length) return;
    uploads.start([...input.files]);
    input.value = "";
  };
  return (
    <div className="stack">
      <p>{t(`wizard.upload.${type}Intro`)}</p>
      <div className="field">
        {/* The zone is the input's label; the native input, transparent over all of it, stays the control and takes drops. */}
        <label className="drop-zone">
          <input
            id="field-files"
            type="file"
            name="files"
            accept=".stl,.STL,.ply,.PLY,.obj,.OBJ"
            multiple
            onChange={(event) => {
              onFilesChosen?.(Boolean(event.currentTarget.files?.length));
              takeFiles(event.currentTarget);
            }}
            aria-invalid={errors.files ? true : undefined}
            aria-describedby={`field-files-hint${errors.files ? " field-files-error" : ""}`}
          />
          <strong>{t("wizard.upload.choose")}</strong>
          <span>{t("wizard.upload.dropHere")}</span>
          <span className="button button-secondary">
            {t("wizard.upload.pick")}
          </span>
        </label>
        <p id="field-files-hint" className="hint">
          {t("wizard.upload.hint")}
        </p>
        {errors.files ? (
          <p id="field-files-error" className="field-error">
            {t(errors.files)}
          </p>
        ) : null}
        <div>
          <button
            type="submit"
            name="intent"
            value="upload"
            className="button button-secondary"
            onClick={(event) => {
              if (!uploads) return;
              event.preventDefault();
              takeFiles(document.querySelector<HTMLInputElement>("#field-files"));
            }}
          >
            {t("wizard.buttons.upload")}
          </button>
        </div>
      </div>
      {uploads ? <UploadProgress items={uploads.items} onRetry={uploads.retry} onRemove={uploads.remove} /> : null}
      {hydrated && target ? <InterruptedUploads key={files.length} target={target} /> : null}
      <h3 className="files-title">{t("wizard.upload.listTitle", { count: files.length })}</h3>
      {files.length === 0 ? (
        <p className="muted">{t("wizard.upload.noFiles")}</p>
      ) : (
        <p className="hint">{t("wizard.files.declaredHint")}</p>
      )}
      {files.length === 0 ? null : (
        <ul className="file-list">
          {files.map((file) => (
            <li key={file.path} className={file.confirmed ? undefined : "file-unconfirmed"}>
              <span className="file-name">{file.name}</span>
              <span className="muted small">{formatFileSize(file.size, i18n.language)}</span>
              <span className={`sync sync-${sync[file.path] ?? file.sync}`}>{t(SYNC_LABEL[sync[file.path] ?? file.sync] ?? "wizard.sync.pending")}</span>
              {hydrated ? (
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setPreview(file)}
                  aria-label={t("uploads.viewer.openLabel", {
                    name: file.name,
                  })}
                >
                  {t("uploads.viewer.open")}
                </button>
              ) : null}
              <button
                type="submit"
                name="intent"
                value={`remove:${type}:${file.path}`}
                className="link-button danger"
                formNoValidate
                aria-label={t("wizard.files.removeLabel", { name: file.name })}
                onClick={(event) => {
                  if (!window.confirm(t("wizard.files.confirmRemove", { name: file.name }))) event.preventDefault();
                }}
              >
                {t("wizard.files.remove")}
              </button>
              {/* The jaw and step the labels print (ADR 058): prefilled from the name, the doctor's to change. */}
              <span className="file-declaration">
                <input type="hidden" name="file_path" value={file.path} />
                <label>
                  <span className="small">{t("wizard.files.jaw")}</span>
                  <select name="file_jaw" defaultValue={file.jaw ?? ""} aria-label={t("wizard.files.jawOf", { name: file.name })}>
                    <option value="">{t("wizard.files.chooseJaw")}</option>
                    <option value="upper">{t("wizard.files.upper")}</option>
                    <option value="lower">{t("wizard.files.lower")}</option>
                  </select>
                </label>
                <label>
                  <span className="small">{t("wizard.files.step")}</span>
                  <input name="file_step" inputMode="numeric" pattern="[0-9]*" maxLength={3} size={3} defaultValue={file.stepNumber ?? ""} aria-label={t("wizard.files.stepOf", { name: file.name })} />
                </label>
                {file.confirmed ? null : <span className="file-to-confirm small">{t("wizard.files.toConfirm")}</span>}
              </span>
              {file.scan ? <ScanInfo scan={file.scan} /> : null}
            </li>
          ))}
        </ul>
      )}
      {patient && patient.setAside[type].length ? (
        // Files a confirmed skip set aside (ADR 087): kept, not in the order, until "Вернуть в заказ".
        <section className="set-aside" aria-labelledby="set-aside-title">
          <h3 id="set-aside-title" className="files-title">
            {t("wizard.setAside.title", { count: patient.setAside[type].length })}
          </h3>
          <p className="hint">{t("wizard.setAside.hint")}</p>
          <ul className="file-list">
            {patient.setAside[type].map((file) => (
              <li key={file.path}>
                <span className="file-name">{file.name}</span>
                <span className="muted small">{formatFileSize(file.size, i18n.language)}</span>
              </li>
            ))}
          </ul>
          <button type="submit" name="intent" value={`unskip:${type}:${patient.id}`} className="button button-secondary" formNoValidate>
            {t("wizard.buttons.unskip")}
          </button>
        </section>
      ) : null}
      {preview ? <ModelPreview name={preview.name} url={`/files/orders/${preview.path}`} onClose={() => setPreview(null)} /> : null}
    </div>
  );
}
