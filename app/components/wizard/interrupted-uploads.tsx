import { useEffect, useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { UploadTarget } from "./tus-upload.client";

/** Uploads this browser began for the step and did not finish (closed tab, reload): choose them again to continue. */
export function InterruptedUploads({ target }: { target: UploadTarget }) {
  const { t } = useTranslation();
  const [names, setNames] = useState<string[]>([]);
  const { orderId, patientId, type } = target;
  useEffect(() => {
    try {
      const prefix = `tus::tus-ord/${orderId}/${patientId}/${type}/`;
      setNames([
        ...new Set(
          Object.keys(localStorage)
            .filter((key) => key.startsWith(prefix))
            .map((key) => key.slice(prefix.length).split("/")[0]!),
        ),
      ]);
    } catch {
      setNames([]);
    }
  }, [orderId, patientId, type]);
  if (names.length === 0) return null;
  return (
    <div className="note upload-resume" role="status">
      <strong>{t("uploads.resume.title")}</strong> {t("uploads.resume.hint")} {names.join(", ")}
    </div>
  );
}
