import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field } from "~/components/field";
import { failureText } from "~/components/section-error";
import { basePriceHint, CURRENCIES, PRICE_FIELDS } from "~/modules/backoffice/conditions";
import { useTranslation } from "~/components/i18n/i18n-context";
import { zonedDates } from "~/modules/i18n/clock";
import { useStaffTimeZone } from "~/components/backoffice/staff-clock";
import { formatMoney } from "~/modules/money/format";
import { isShortSearch } from "~/modules/orders/search-length";
import { PageDialog } from "~/components/backoffice/ui";
import { ListPager } from "~/components/lists/list-pager";
import { CLIENTS_PAGE_SIZE } from "~/modules/backoffice/client-list";
import { clientsPageAction, type ConditionsReply, type Editing, loadClientsPage } from "~/modules/backoffice/clients-page.server";
import { useBrowserCheck } from "~/modules/validation/browser";
import { listSearch } from "~/modules/backoffice/client-list";

const conditionsForms = () => import("~/modules/backoffice/conditions-forms");
/** A price field's label: its translation key. */
const priceLabel = (name: (typeof PRICE_FIELDS)[number]) => `bo.conditions.${name}`;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadClientsPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return clientsPageAction(args);
}

export default function BackofficeClients() {
  const { filter, clients, hasMore, cursors, editing } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const [search, setSearch] = useState(filter.search);
  const date = zonedDates(i18n.language, useStaffTimeZone());
  const emptyKey = filter.search ? "bo.clients.emptySearch" : filter.showAll ? "bo.clients.empty" : "bo.clients.emptyPaid";
  const conditionsLink = (email: string) => {
    const next = new URLSearchParams(params);
    next.set("client", email);
    return `?${next}`;
  };

  return (
    <section className="bo-page">
      <h1>{t("bo.clients.title")}</h1>
      <Form method="get" className="filters" role="search">
        <label htmlFor="clients-q" className="visually-hidden">
          {t("bo.clients.search")}
        </label>
        <input id="clients-q" type="search" name="q" defaultValue={filter.search} placeholder={t("bo.clients.search")} onChange={(event) => setSearch(event.currentTarget.value.trim())} />
        <label className="checkbox bo-toggle">
          <input type="checkbox" name="all" value="1" defaultChecked={filter.showAll} disabled={search !== ""} aria-describedby="clients-all-hint" />
          <span>{t("bo.clients.showAll")}</span>
        </label>
        <button type="submit" className="button button-secondary button-small">
          {t("bo.clients.find")}
        </button>
        <p id="clients-all-hint" className="hint bo-filter-hint">
          {search ? t("bo.clients.searchAllHint") : t("bo.clients.showAllHint")}
        </p>
        {isShortSearch(filter.search) ? <p className="hint bo-filter-hint">{t("bo.clients.shortSearch")}</p> : null}
      </Form>

      {clients.length === 0 ? (
        <p className="empty">{t(emptyKey, { q: filter.search })}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("bo.clients.columns.email")}</th>
                <th scope="col">{t("bo.clients.columns.name")}</th>
                <th scope="col" className="num">
                  {t("bo.clients.columns.orders")}
                </th>
                <th scope="col" className="num">
                  {t("bo.clients.columns.paid30")}
                </th>
                <th scope="col">{t("bo.clients.columns.lastOrder")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("bo.clients.columns.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {clients.map((client) => (
                <tr key={client.email}>
                  <td>
                    <span className="bo-email">{client.email}</span>
                    {client.everPaid ? <span className="badge badge-paid bo-mark">{t("bo.clients.everPaid")}</span> : null}
                  </td>
                  <td>{client.name ?? "—"}</td>
                  <td className="num">{client.orders}</td>
                  <td className="num">{client.paidLast30.length ? client.paidLast30.map((sum) => formatMoney(sum.amount, sum.currency, i18n.language)).join(" + ") : "—"}</td>
                  <td>{date(client.lastOrderAt)}</td>
                  <td>
                    <Link to={conditionsLink(client.email)} className="button button-secondary button-small" preventScrollReset aria-label={t("bo.clients.conditionsFor", { email: client.email })}>
                      {t("bo.clients.conditions")}
                      {client.hasConditions ? <span aria-hidden="true"> ★</span> : null}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager page={filter.page} pageSize={CLIENTS_PAGE_SIZE} shown={clients.length} total={null} hasMore={hasMore} cursors={cursors} without={["client"]} />
      {editing ? <ConditionsDialog key={editing.email} editing={editing} closeTo={`/backoffice/clients${listSearch(location.search)}`} /> : null}
    </section>
  );
}

function ConditionsDialog({ editing, closeTo }: { editing: Editing; closeTo: string }) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const reply = useActionData<typeof action>() as ConditionsReply | undefined;
  const { onValidate, warm } = useBrowserCheck(conditionsForms, (forms) => forms.conditionsSchema);
  const [form, fields] = useForm({
    id: `conditions-${editing.email}`,
    lastResult: reply,
    defaultValue: editing.defaults ?? undefined,
    onValidate,
  });
  // The e-mail is a hidden field: its error is shown with the form's, as is a save that failed (ADR 026).
  const formErrors = [...(form.errors ?? []), ...(form.allErrors.email ?? [])].map((error) => t(error));
  if (reply?.failure) formErrors.push(failureText(t, reply.failure));
  const number = { inputMode: "decimal" as const };
  // The base prices of the currency chosen (as it changes, where JavaScript runs).
  const currency = fields.currency.value === "eur" || fields.currency.value === "rub" ? fields.currency.value : (editing.defaults?.currency ?? "rub");

  return (
    <PageDialog titleId="conditions-title" title={t("bo.conditions.title")} closeTo={closeTo}>
      <p className="muted">{t("bo.conditions.for", { email: editing.email })}</p>
      {editing.failure !== null ? (
        <p className="field-error" role="alert">
          {failureText(t, editing.failure)}
        </p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="stack bo-conditions" onFocus={warm}>
          <input type="hidden" name="email" value={editing.email} />
          {formErrors.length ? (
            <p id={form.errorId} className="field-error" role="alert">
              {formErrors.join(" ")}
            </p>
          ) : null}
          <Field
            field={fields.currency}
            label="bo.conditions.currency"
            options={CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {t(`bo.conditions.currencies.${currency}`)}
              </option>
            ))}
          />
          <div className="bo-form-grid">
            {PRICE_FIELDS.map((name) => {
              const hint = basePriceHint(name, currency, i18n.language);
              return <Field key={name} field={fields[name]} label={priceLabel(name)} control={number} hint={hint.key} hintValues={hint.values} />;
            })}
            <Field field={fields.discountPercentage} label="bo.conditions.discountPercentage" control={number} />
          </div>
          <Field field={fields.personalComment} label="bo.conditions.personalComment" hint="bo.conditions.personalCommentHint" multiline />
          <Field field={fields.internalComment} label="bo.conditions.internalComment" hint="bo.conditions.internalCommentHint" multiline />
          <p className="hint">{t("bo.conditions.hint")}</p>
          <p className="hint" id="conditions-which-wins">
            {t("bo.conditions.whichWins")}
          </p>
          {reply?.unusual && reply.unusual.fields.length > 0 ? (
            // Far from the base price: said, and saved by submitting again (the fingerprint carries the values asked about).
            <div className="field-error" role="alert" id="conditions-unusual">
              <p>{t("bo.conditions.unusual.title")}</p>
              <ul>
                {reply.unusual.fields.map((field) => (
                  <li key={field}>{t(priceLabel(field))}</li>
                ))}
              </ul>
              <p>{t("bo.conditions.unusual.confirm")}</p>
              <input type="hidden" name="confirmUnusual" value={reply.unusual.fingerprint} />
            </div>
          ) : null}
          <div className="bo-dialog-actions bo-save-bar">
            <Link to={closeTo} className="button button-secondary" preventScrollReset>
              {t("bo.dialog.cancel")}
            </Link>
            <button type="submit" className="button" disabled={navigation.state === "submitting"}>
              {t("bo.conditions.save")}
            </button>
          </div>
        </Form>
      )}
    </PageDialog>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
