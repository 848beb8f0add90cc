import type { FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * One form field, for every form (ADR 053): label, control, hint and error, wired the way conform's
 * field metadata says — the control's id, name and value as typed (kept after a refusal), and
 * `aria-invalid` and `aria-describedby` pointing at the error and the hint. Labels, hints and
 * errors are translation keys; a label may also be markup (a checkbox's text with a link). The
 * control is an input, a textarea (`multiline`), a checkbox or a select (`options`); its id comes first
 * in the markup, then what the page adds (`control`).
 */
type ControlProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "defaultValue" | "type" | "form" | "children"> & { rows?: number };

/** What the field reads of conform's metadata; a form without conform (the wizard's steps) gives the same. */
export type FieldState = Pick<FieldMetadata<any, any, string[]>, "id" | "name" | "errors" | "initialValue">;

interface FieldProps {
  field: FieldState;
  /** The control's id when the page names it (its error is `<id>-error`, its hint `<id>-hint`); conform's otherwise. */
  id?: string;
  /** The error's id when the page names it otherwise. */
  errorId?: string;
  /** The error is announced as it appears (a form whose only answer is the error: a password gate). */
  alert?: boolean;
  /** Values the error's message names (a translation's lost placeholders). */
  errorValues?: Record<string, string>;
  label: string | ReactNode;
  hint?: string;
  /** Values the hint names (a base price). */
  hintValues?: Record<string, string>;
  type?: "text" | "email" | "tel" | "password" | "checkbox";
  multiline?: boolean;
  /** A choice from a list: the `<option>`s of a `<select>`. */
  options?: ReactNode;
  className?: string;
  /** Shown beside the label as "*". */
  required?: boolean;
  control?: ControlProps;
}

export function Field({ field, id = field.id, errorId = `${id}-error`, alert, errorValues, label, hint, hintValues, type = "text", multiline, options, className, required, control }: FieldProps) {
  const { t } = useTranslation();
  const error = field.errors?.[0];
  const hintId = hint ? `${id}-hint` : null;
  const describedBy = [error ? errorId : null, hintId].filter(Boolean).join(" ") || undefined;
  const initial = typeof field.initialValue === "string" ? field.initialValue : "";
  const wiring = { id, name: field.name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };
  const text = typeof label === "string" ? t(label) : label;
  const marker = required ? <span aria-hidden="true"> *</span> : null;
  const control_ =
    type === "checkbox" ? (
      <input {...wiring} {...control} type="checkbox" defaultChecked={initial === "on"} />
    ) : options ? (
      <select {...wiring} defaultValue={initial}>
        {options}
      </select>
    ) : multiline ? (
      <textarea {...wiring} rows={3} {...(control as InputHTMLAttributes<HTMLTextAreaElement>)} defaultValue={initial} />
    ) : (
      <input {...wiring} {...control} type={type} defaultValue={initial} />
    );
  return (
    <div className={className ? `field ${className}` : "field"}>
      {type === "checkbox" ? (
        <label className="checkbox" htmlFor={id}>
          {control_}
          <span>
            {text}
            {marker}
          </span>
        </label>
      ) : (
        <>
          <label htmlFor={id}>
            {text}
            {marker}
          </label>
          {control_}
        </>
      )}
      {hint ? (
        <p id={hintId!} className="hint">
          {t(hint, hintValues)}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error" role={alert ? "alert" : undefined}>
          {t(error, errorValues)}
        </p>
      ) : null}
    </div>
  );
}
