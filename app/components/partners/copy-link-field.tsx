import { useEffect, useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * The partner link as a read-only field anyone can select and copy. With JavaScript and a clipboard,
 * a Copy button appears as an enhancement and says whether copying worked.
 */
export function CopyLinkField({ id, label, link }: { id: string; label: string; link: string }) {
  const { t } = useTranslation();
  const [canCopy, setCanCopy] = useState(false);
  const [result, setResult] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard));
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setResult("copied");
    } catch {
      setResult("failed");
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="partner-link-row">
        <input id={id} type="text" readOnly value={link} onFocus={(event) => event.currentTarget.select()} aria-describedby={`${id}-status`} />
        {canCopy ? (
          <button type="button" className="button button-secondary button-small" onClick={copy}>
            {t("partners.code.copy")}
          </button>
        ) : null}
      </div>
      <p id={`${id}-status`} className={result === "failed" ? "field-error" : "hint"} role="status">
        {result === "copied" ? t("partners.code.copied") : result === "failed" ? t("partners.code.copyFailed") : canCopy ? "" : t("partners.code.selectHint")}
      </p>
    </div>
  );
}
