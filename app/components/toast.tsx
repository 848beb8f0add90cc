import { useTranslation } from "~/modules/i18n/i18n-context";

interface ToastProps {
  toast: {
    type: "success" | "error" | "info" | "warning";
    title: string;
    description?: string;
    values?: Record<string, string | number>;
    lines?: Array<{ key: string; values?: Record<string, string | number> }>;
  };
}

/** Rendered by the server from the one-time toast cookie; fades out by CSS, no JavaScript needed. */
export function ToastMessage({ toast }: ToastProps) {
  const { t } = useTranslation();
  const urgent = toast.type === "error" || toast.type === "warning";
  return (
    <div className={`toast toast-${toast.type}`} role={urgent ? "alert" : "status"}>
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
    </div>
  );
}
