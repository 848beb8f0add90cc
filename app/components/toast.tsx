import { useLocation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";

interface ToastProps {
  toast: {
    type: "success" | "error" | "info" | "warning";
    title: string;
    description?: string;
    values?: Record<string, string | number>;
    lines?: Array<{ key: string; values?: Record<string, string | number> }>;
    action?: { label: string; url: string; fields: Record<string, string> };
  };
}

/** Rendered by the server from the one-time toast cookie; fades out by CSS, no JavaScript needed. */
export function ToastMessage({ toast }: ToastProps) {
  const { t } = useTranslation();
  const urgent = toast.type === "error" || toast.type === "warning";
  return (
    <div className={`toast toast-${toast.type}${toast.action ? " toast-action" : ""}`} role={urgent ? "alert" : "status"}>
      <strong>{t(toast.title, toast.values)}</strong>
      {toast.description ? <p>{t(toast.description, toast.values)}</p> : null}
      {toast.lines?.length ? (
        <ul>
          {toast.lines.map((line, index) => {
            const values = Object.fromEntries(
              Object.entries(line.values ?? {}).map(([name, value]) => [name.endsWith("Key") ? name.slice(0, -3) : name, name.endsWith("Key") ? t(String(value)) : value]),
            );
            return <li key={index}>{t(line.key, values)}</li>;
          })}
        </ul>
      ) : null}
      {toast.action ? (
        // A plain form: it works before and without the page's JavaScript (an undo, ADR 062).
        <form method="post" action={toast.action.url}>
          {Object.entries(toast.action.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="button button-secondary button-small">
            {t(toast.action.label)}
          </button>
        </form>
      ) : null}
    </div>
  );
}

/**
 * A toast belongs to the page it came with (ADR 087): once the browser moves on — a step answered in
 * place keeps the root's data, and with it the toast — it is gone with its cause, not left on the
 * next page saying what no longer holds.
 */
export function usePageToast<T>(toast: T | null): T | null {
  const { key } = useLocation();
  const [shown, setShown] = useState({ toast, key });
  if (shown.toast !== toast) {
    setShown({ toast, key });
    return toast;
  }
  return shown.key === key ? toast : null;
}
