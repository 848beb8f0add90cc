import { useTranslation } from "~/modules/i18n/i18n-context";

/** Form pieces with their error wiring: aria-invalid and aria-describedby point at the message. */

export function FieldError({ id, error }: { id: string; error?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="field-error">
      {t(error)}
    </p>
  );
}

interface TextFieldProps {
  name: string;
  label: string;
  defaultValue?: string | null;
  error?: string;
  type?: "text" | "email" | "tel";
  placeholder?: string;
  autoComplete?: string;
  multiline?: boolean;
  required?: boolean;
  hint?: string;
}

export function TextField({ name, label, defaultValue, error, type = "text", placeholder, autoComplete, multiline, required, hint }: TextFieldProps) {
  const { t } = useTranslation();
  const id = `field-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    defaultValue: defaultValue ?? "",
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    placeholder,
    autoComplete,
    required,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {t(label)}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {multiline ? <textarea rows={3} {...common} /> : <input type={type} {...common} />}
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {t(hint)}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

interface ChoiceProps {
  name: string;
  legend: string;
  options: Array<{ value: string; label: string; description?: string }>;
  value?: string | null;
  error?: string;
}

export function ChoiceField({ name, legend, options, value, error }: ChoiceProps) {
  const { t } = useTranslation();
  const id = `field-${name}`;
  return (
    <fieldset className="choices" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{t(legend)}</legend>
      {options.map((option) => (
        <label key={option.value} className="choice">
          <input type="radio" name={name} value={option.value} defaultChecked={value === option.value} />
          <span>
            <strong>{t(option.label)}</strong>
            {option.description ? <span className="muted small">{t(option.description)}</span> : null}
          </span>
        </label>
      ))}
      <FieldError id={id} error={error} />
    </fieldset>
  );
}

export function ErrorSummary({ errors, formError }: { errors?: Record<string, string>; formError?: string }) {
  const { t } = useTranslation();
  const entries = Object.entries(errors ?? {});
  if (!entries.length && !formError) return null;
  return (
    <div className="error-summary" role="alert" tabIndex={-1}>
      <strong>{t("wizard.errors.summaryTitle")}</strong>
      <ul>
        {formError ? <li>{t(formError)}</li> : null}
        {entries.map(([name, key]) => (
          <li key={name}>
            <a href={`#field-${name}`}>{t(key)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
