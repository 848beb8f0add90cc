import { useTranslation } from "~/components/i18n/i18n-context";
import type { Failure } from "~/modules/http/forms/failure";
import type { Translate } from "~/modules/i18n/translate";

/**
 * A part of a page that could not load or save, said in place with the specification's words
 * (ADR 026); the rest of the page keeps working. `title` and `message` are translation keys.
 */
/** A failure's words in the reader's language: its message, with a value named "…Key" translated first. */
export function failureText(t: Translate, failure: Failure): string {
  const values = failure.values ? Object.fromEntries(Object.entries(failure.values).map(([name, value]) => (name.endsWith("Key") ? [name.slice(0, -3), t(value)] : [name, value]))) : undefined;
  return t(failure.message, values);
}

export function SectionError({
  failure,
  prefix,
  id,
}: {
  failure: Failure;
  prefix?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="section-error" role="alert" id={id}>
      {failure.title ? <strong>{t(failure.title)}</strong> : null}
      <p>
        {prefix ?? ""}
        {failureText(t, failure)}
      </p>
    </div>
  );
}
