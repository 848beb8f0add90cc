import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * A part of a page that could not load or save, said in place with the specification's words
 * (ADR 026); the rest of the page keeps working. `title` and `message` are translation keys.
 */
export function SectionError({
  failure,
  prefix,
  id,
}: {
  failure: {
    title?: string;
    message: string;
    values?: Record<string, string | number>;
  };
  prefix?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  // A value whose name ends in "Key" is a text of its own (a cause), translated first.
  const values = failure.values ? Object.fromEntries(Object.entries(failure.values).map(([name, value]) => (name.endsWith("Key") ? [name.slice(0, -3), t(String(value))] : [name, value]))) : undefined;
  return (
    <div className="section-error" role="alert" id={id}>
      {failure.title ? <strong>{t(failure.title)}</strong> : null}
      <p>
        {prefix ?? ""}
        {t(failure.message, values)}
      </p>
    </div>
  );
}
