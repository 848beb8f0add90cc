import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";

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

/**
 * A text field of a step: the one field component (ADR 053) with the step's value — what was typed
 * when the server gave it back, else what the order holds — and the server's error.
 */
export function TextField({ name, label, defaultValue, error, type = "text", placeholder, autoComplete, multiline, required, hint }: TextFieldProps) {
  const field = { id: `field-${name}`, name, errors: error ? [error] : undefined, initialValue: defaultValue ?? "" };
  return <Field field={field} label={label} hint={hint} type={type} multiline={multiline} required={required} control={{ placeholder, autoComplete, required }} />;
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
