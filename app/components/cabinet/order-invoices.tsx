import { getFormProps, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { CabinetOrderReply, loadCabinetOrderPage } from "~/modules/cabinet/cabinet-order-page.server";
import { invoiceAmount, invoiceDate } from "~/modules/payments/invoice";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

type Data = SerializeFrom<typeof loadCabinetOrderPage>;

const orderForms = () => import("~/modules/orders/forms");

/**
 * "Оплата по счёту" on the cabinet's order page (ADR 072): the order's invoices, each a link to its
 * printable page, and while the order can be paid, a plain form for one more — the company that pays
 * and its ИНН, refused in place with what was typed when either is wrong.
 */
export function OrderInvoices({ data, reply }: { data: Data; reply: CabinetOrderReply | undefined }) {
  const { t, i18n } = useTranslation();
  const { invoiceForm, invoices } = data;
  if (!invoiceForm && invoices.length === 0) return null;
  return (
    <section className="card" aria-labelledby="order-invoices">
      <h2 id="order-invoices">{t("cabinet.invoice.title")}</h2>
      {invoices.length > 0 ? (
        <ul className="plain-list">
          {invoices.map((invoice) => (
            <li key={invoice.id}>
              <Link to={invoice.href}>{t("cabinet.invoice.link", { number: invoice.number, date: invoiceDate(invoice.createdAt, i18n.language) })}</Link>
              {" · "}
              {invoice.company}, {t("payments.invoice.innValue", { inn: invoice.inn })} · {invoiceAmount(invoice.total, i18n.language)} ₽
              {invoice.paidAt ? <strong> · {t("cabinet.invoice.paid", { date: invoiceDate(invoice.paidAt, i18n.language) })}</strong> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {invoiceForm ? <InvoiceRequestForm defaults={invoiceForm} reply={reply} /> : null}
    </section>
  );
}

function InvoiceRequestForm({ defaults, reply }: { defaults: { company: string; inn: string }; reply: CabinetOrderReply | undefined }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const own = replyFor(reply, { intent: "invoice" });
  const { onValidate, warm } = useBrowserCheck(orderForms, (forms) => forms.invoiceRequestSchema);
  const [form, fields] = useForm({ id: "invoice-request", lastResult: own, defaultValue: defaults, onValidate });
  return (
    <Form method="post" className="stack" {...getFormProps(form)} onFocus={warm}>
      <input type="hidden" name="intent" value="invoice" />
      <p className="small muted">{t("cabinet.invoice.hint")}</p>
      <Field field={fields.company} id="invoice-company" label="cabinet.invoice.company" required control={{ autoComplete: "organization" }} />
      <Field field={fields.inn} id="invoice-inn" label="cabinet.invoice.inn" hint="cabinet.invoice.innHint" required control={{ inputMode: "numeric", autoComplete: "off" }} />
      <div>
        <button type="submit" className="button button-small" disabled={busy}>
          {t("cabinet.invoice.submit")}
        </button>
      </div>
    </Form>
  );
}
