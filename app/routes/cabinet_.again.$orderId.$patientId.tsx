import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ChoiceField, ErrorSummary, FieldError } from "~/components/wizard/fields";
import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { formatFileSize } from "~/modules/i18n/file-size";
import { refusalHeaders } from "~/modules/http/answers/route-headers";
import { againPageAction, loadAgainPage } from "~/modules/wizard/again-page.server";

/** "Заказать снова" from a patient of a past order (ADR 071): a plain form that starts a new order. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadAgainPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return againPageAction(args);
}

export const headers = refusalHeaders;

const FILE_GROUPS = [
  { type: "aligners", label: "orderAgain.files.aligners" },
  { type: "retainer", label: "orderAgain.files.retainer" },
] as const;

export default function OrderAgain() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const typed = (reply?.initialValue ?? {}) as { kind?: unknown; files?: unknown };
  const kind = typeof typed.kind === "string" ? typed.kind : data.suggested;
  const ticked = new Set(Array.isArray(typed.files) ? typed.files : typeof typed.files === "string" ? [typed.files] : []);
  const errors = Object.fromEntries(Object.entries(reply?.error ?? {}).flatMap(([name, messages]) => (messages?.[0] ? [[name, messages[0]]] : [])));
  const date = dateTimeFormat(locale, { dateStyle: "long" }).format(new Date(data.createdAt));
  return (
    <section className="container narrow-page order-again">
      <h1>{t("orderAgain.heading", { patient: data.patient })}</h1>
      <p className="note">{t("orderAgain.intro", { number: data.number, date })}</p>
      <Form method="post" className="stack" noValidate>
        <ErrorSummary errors={errors} />
        <ChoiceField
          name="kind"
          legend="orderAgain.kindLegend"
          value={kind}
          error={errors.kind}
          options={data.kinds.map((value) => ({ value, label: `orderAgain.kinds.${value}`, description: `orderAgain.kindHints.${value}` }))}
        />
        <fieldset id="field-files" className="choices" aria-describedby={errors.files ? "field-files-error" : "field-files-hint"}>
          <legend>{t("orderAgain.filesLegend")}</legend>
          {data.filesRemoved ? (
            <p className="hint">{t("orderAgain.filesRemoved")}</p>
          ) : data.files.length === 0 ? (
            <p className="hint">{t("orderAgain.noFiles")}</p>
          ) : (
            <>
              <p id="field-files-hint" className="hint">
                {t("orderAgain.filesHint")}
              </p>
              {FILE_GROUPS.map((group) => {
                const files = data.files.filter((file) => file.type === group.type);
                if (files.length === 0) return null;
                return (
                  <div key={group.type} className="stack">
                    <strong>{t(group.label)}</strong>
                    {files.map((file) => (
                      <label key={file.path} className="choice">
                        <input type="checkbox" name="files" value={file.path} defaultChecked={ticked.has(file.path)} />
                        <span>
                          <span>{file.name}</span>
                          <span className="muted small">
                            {t(file.jaw === "lower" ? "wizard.files.lower" : "wizard.files.upper")}
                            {file.step !== null ? ` · ${t("wizard.files.step")} ${file.step}` : null} · {formatFileSize(file.size, i18n.language)}
                          </span>
                        </span>
                      </label>
                    ))}
                  </div>
                );
              })}
            </>
          )}
          <FieldError id="field-files" error={errors.files} />
        </fieldset>
        {/* The minimum order before the doctor confirms: two replacement aligners can cost the minimum, most of it the fee. */}
        <div className="note" id="again-minimum">
          <p>{t("orderAgain.minimum.rule", { minimum: data.minimumOrder.minimum })}</p>
          <ul className="plain-list">
            <li>
              {t(data.minimumOrder.aligners.fee ? "orderAgain.minimum.exampleFee" : "orderAgain.minimum.example", {
                what: t("orderAgain.minimum.aligners", { count: data.minimumOrder.aligners.count }),
                total: data.minimumOrder.aligners.total,
                fee: data.minimumOrder.aligners.fee ?? "",
              })}
            </li>
            <li>
              {t(data.minimumOrder.retainer.fee ? "orderAgain.minimum.exampleFee" : "orderAgain.minimum.example", {
                what: t("orderAgain.minimum.retainer"),
                total: data.minimumOrder.retainer.total,
                fee: data.minimumOrder.retainer.fee ?? "",
              })}
            </li>
          </ul>
          {data.minimumOrder.upTo > 0 ? <p>{t("orderAgain.minimum.upTo", { count: data.minimumOrder.upTo, minimum: data.minimumOrder.minimum })}</p> : null}
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {t("orderAgain.submit")}
          </button>
          <Link to="/cabinet">{t("orderAgain.back")}</Link>
        </div>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
