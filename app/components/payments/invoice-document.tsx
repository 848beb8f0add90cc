import { useEffect, useState } from "react";
import type { SerializeFrom } from "@remix-run/node";
import { useTranslation } from "~/components/i18n/i18n-context";
import { roublesInWords } from "~/modules/money/roubles-in-words";
import { invoiceAmount, invoiceDate } from "~/modules/payments/invoice";
import type { InvoiceDocument as Invoice } from "~/modules/payments/invoices.server";

/**
 * "Счёт на оплату" as it prints (ADR 072): the lab's bank and requisites, the supplier and the buyer,
 * the lines, the total and the VAT note, the payment's purpose. One component for the cabinet and the
 * back office. The page is ready to print as it comes (Ctrl+P, one A4 sheet by invoice.css); the
 * print button only appears where JavaScript runs.
 */
export function InvoiceDocument({ invoice, back, nested = false }: { invoice: SerializeFrom<Invoice>; back: { to: string; label: string }; nested?: boolean }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const money = (minor: number) => invoiceAmount(minor, language);
  const date = invoiceDate(invoice.createdAt, language);
  const { supplier, buyer } = invoice;
  // Under the back office's order page, whose own heading is the page's first.
  const Heading = nested ? "h2" : "h1";
  const innKpp = supplier.kpp ? `${supplier.inn} / ${supplier.kpp}` : supplier.inn;
  return (
    <article className="invoice" aria-labelledby="invoice-title">
      <div className="invoice-actions">
        <a href={back.to}>{back.label}</a>
        <PrintButton />
      </div>
      {supplier.demo ? (
        <p className="invoice-warning" role="note">
          {t("payments.invoice.demo")}
        </p>
      ) : null}
      {invoice.outdated ? (
        <p className="invoice-warning" role="note">
          {t("payments.invoice.outdated")}
        </p>
      ) : null}
      {invoice.paid ? (
        <p className="invoice-paid">
          {invoice.paid.by ? t("payments.invoice.paidBy", { date: invoiceDate(invoice.paid.at, language), by: invoice.paid.by }) : t("payments.invoice.paidOn", { date: invoiceDate(invoice.paid.at, language) })}
        </p>
      ) : null}

      <table className="invoice-bank">
        <caption className="visually-hidden">{t("payments.invoice.bankCaption")}</caption>
        <tbody>
          <tr>
            <th scope="row">{t("payments.invoice.bank")}</th>
            <td>{supplier.bankName}</td>
          </tr>
          <tr>
            <th scope="row">{t("payments.invoice.bik")}</th>
            <td>{supplier.bik}</td>
          </tr>
          <tr>
            <th scope="row">{t("payments.invoice.corrAccount")}</th>
            <td>{supplier.corrAccount}</td>
          </tr>
          <tr>
            <th scope="row">{t("payments.invoice.recipient")}</th>
            <td>{supplier.name}</td>
          </tr>
          <tr>
            <th scope="row">{supplier.kpp ? t("payments.invoice.innKpp") : t("payments.invoice.inn")}</th>
            <td>{innKpp}</td>
          </tr>
          <tr>
            <th scope="row">{t("payments.invoice.account")}</th>
            <td>{supplier.account}</td>
          </tr>
        </tbody>
      </table>

      <Heading id="invoice-title">{t("payments.invoice.title", { number: invoice.number, date })}</Heading>

      <dl className="invoice-parties">
        <div>
          <dt>{t("payments.invoice.supplier")}</dt>
          <dd>
            {supplier.name}, {t("payments.invoice.innValue", { inn: supplier.inn })}
            {supplier.kpp ? `, ${t("payments.invoice.kppValue", { kpp: supplier.kpp })}` : null}, {supplier.address}
          </dd>
        </div>
        <div>
          <dt>{t("payments.invoice.buyer")}</dt>
          <dd>
            {buyer.company}, {t("payments.invoice.innValue", { inn: buyer.inn })}
          </dd>
        </div>
        <div>
          <dt>{t("payments.invoice.basis")}</dt>
          <dd>{t("payments.invoice.basisValue", { order: invoice.orderNumber })}</dd>
        </div>
      </dl>

      <table className="invoice-lines">
        <caption className="visually-hidden">{t("payments.invoice.linesCaption")}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              {t("payments.invoice.position")}
            </th>
            <th scope="col">{t("payments.invoice.item")}</th>
            <th scope="col" className="num">
              {t("payments.invoice.quantity")}
            </th>
            <th scope="col" className="num">
              {t("payments.invoice.price")}
            </th>
            <th scope="col" className="num">
              {t("payments.invoice.sum")}
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line) => (
            <tr key={line.position}>
              <td className="num">{line.position}</td>
              <td>{line.description}</td>
              <td className="num">{line.quantity}</td>
              <td className="num">{money(line.price)}</td>
              <td className="num">{money(line.sum)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4}>
              {t("payments.invoice.total")}
            </th>
            <td className="num">{money(invoice.total)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={4}>
              {t("payments.invoice.vat")}
            </th>
            <td className="num">{supplier.vatNote}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={4}>
              {t("payments.invoice.due")}
            </th>
            <td className="num">
              <strong>{money(invoice.total)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>

      <p>
        {t("payments.invoice.count", { lines: invoice.lines.length, total: money(invoice.total) })}
        <br />
        {/* The total as the bank reads it: in Russian words, whatever the page's language. */}
        <strong className="invoice-in-words">{t("payments.invoice.inWords", { words: roublesInWords(invoice.total) })}</strong>
      </p>
      <p className="invoice-purpose">
        <strong>{t("payments.invoice.purpose")}</strong> {t("payments.invoice.purposeValue", { order: invoice.orderNumber, number: invoice.number, date, vat: supplier.vatNote })}
      </p>
      <p className="small">{t("payments.invoice.terms")}</p>
    </article>
  );
}

/** window.print where JavaScript runs; without it the page says how to print instead. */
function PrintButton() {
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return <span className="muted small">{t("payments.invoice.printHint")}</span>;
  return (
    <button type="button" className="button button-small" onClick={() => window.print()}>
      {t("payments.invoice.print")}
    </button>
  );
}
