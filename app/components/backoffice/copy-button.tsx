import { useEffect, useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * Copies the text of the element with `targetId`. It needs JavaScript, so it appears only once the
 * page is hydrated; without JavaScript the text stays selectable in its <pre>.
 */
export function CopyButton({ targetId, label }: { targetId: string; label: string }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(document.getElementById(targetId)?.textContent ?? "");
          setState("copied");
        } catch {
          setState("failed");
        }
      }}
    >
      {label}
      <span role="status" className="bo-copy-state">
        {state === "copied" ? ` · ${t("bo.copy.done")}` : state === "failed" ? ` · ${t("bo.copy.failed")}` : ""}
      </span>
    </button>
  );
}
