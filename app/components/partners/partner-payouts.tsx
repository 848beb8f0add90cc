import { Form, useNavigation } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import type { AffiliateReply, affiliatesList } from "~/modules/partners/affiliates-page.server";
import { formatDateTime, formatPercent, formatQuarter } from "~/modules/partners/format";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

const partnerForms = () => import("~/modules/partners/forms");

type Partner = SerializeFrom<typeof affiliatesList>["partners"][number];

/** A partner's payouts, each deletable after a confirmation, and the form to add one (partners spec §5). */
export function PartnerPayouts({ partner, reply, period }: { partner: Partner; reply?: AffiliateReply; period: { year: number; quarter: number } }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const money = (minor: number) => formatMoney(minor, "rub", language);
  const id = (name: string) => `${name}-${partner.code}`;
  return (
    <section aria-labelledby={id("payouts")}>
      <h3 id={id("payouts")}>{t("partners.backoffice.payouts.title")}</h3>
      {partner.payouts.length === 0 ? (
        <p className="muted">{t("partners.backoffice.payouts.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("partners.backoffice.payouts.period")}</th>
                <th scope="col" className="num">
                  {t("partners.backoffice.payouts.amount")}
                </th>
                <th scope="col">{t("partners.backoffice.payouts.paidAt")}</th>
                <th scope="col">{t("partners.backoffice.payouts.note")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("partners.backoffice.payouts.delete")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {partner.payouts.map((payout) => (
                <tr key={payout.id}>
                  <td>{formatQuarter(t, payout.year, payout.quarter)}</td>
                  <td className="num">{money(payout.amount)}</td>
                  <td>
                    {formatDateTime(payout.paidAt, language)}
                    {payout.createdBy ? <div className="muted small">{payout.createdBy}</div> : null}
                  </td>
                  <td>{payout.note ?? "—"}</td>
                  <td>
                    <details className="confirm">
                      <summary className="link-button danger">{t("partners.backoffice.payouts.delete")}</summary>
                      <Form method="post">
                        <input type="hidden" name="intent" value="delete_payout" />
                        <input type="hidden" name="partner_code_id" value={partner.id} />
                        <input type="hidden" name="payout_id" value={payout.id} />
                        <p className="small">{t("partners.backoffice.payouts.confirmDelete", { amount: money(payout.amount) })}</p>
                        <button type="submit" className="button button-small" disabled={busy}>
                          {t("partners.backoffice.payouts.confirm")}
                        </button>
                      </Form>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PayoutForm partner={partner} reply={reply} period={period} busy={busy} />
    </section>
  );
}

interface PartnerFormProps {
  partner: Partner;
  reply?: AffiliateReply;
  busy: boolean;
}

/** A payout for a quarter (partners spec §5 "Add payout"). */
function PayoutForm({ partner, reply, period, busy }: PartnerFormProps & { period: { year: number; quarter: number } }) {
  const { t } = useTranslation();
  const id = (name: string) => `${name}-${partner.code}`;
  const { onValidate, warm } = useBrowserCheck(partnerForms, (forms) => forms.payoutSchema);
  const [form, fields] = useForm({
    id: id("payout-form"),
    lastResult: replyFor(reply, { intent: "add_payout" }),
    defaultValue: { year: String(period.year), quarter: String(period.quarter) },
    onValidate,
  });
  return (
    <Form method="post" className="payout-form" aria-labelledby={id("payout-form-title")} {...getFormProps(form)} onFocus={warm}>
      <h4 id={id("payout-form-title")}>{t("partners.backoffice.payouts.add")}</h4>
      <input type="hidden" name="intent" value="add_payout" />
      <input type="hidden" name="partner_code_id" value={partner.id} />
      <Field field={fields.amount} id={id("payout-amount")} label="partners.backoffice.payouts.amount" control={{ inputMode: "decimal" }} />
      <Field field={fields.year} id={id("payout-year")} label="partners.backoffice.payouts.year" control={{ inputMode: "numeric" }} />
      <Field field={fields.quarter} id={id("payout-quarter")} label="partners.backoffice.payouts.quarter" control={{ inputMode: "numeric" }} />
      <Field field={fields.note} id={id("payout-note")} label="partners.backoffice.payouts.note" className="payout-note" />
      <div>
        <button type="submit" className="button button-small" disabled={busy}>
          {t("partners.backoffice.payouts.submit")}
        </button>
      </div>
    </Form>
  );
}

/** A new reward percentage; empty keeps the current one (partners spec §5). */
export function PercentageForm({ partner, reply, busy }: PartnerFormProps) {
  const { t, i18n } = useTranslation();
  const { onValidate, warm } = useBrowserCheck(partnerForms, (forms) => forms.percentageSchema);
  const [form, fields] = useForm({
    id: `percentage-form-${partner.code}`,
    lastResult: replyFor(reply, { intent: "set_percentage" }),
    onValidate,
  });
  return (
    <Form method="post" className="stack" {...getFormProps(form)} onFocus={warm}>
      <input type="hidden" name="intent" value="set_percentage" />
      <input type="hidden" name="partner_code_id" value={partner.id} />
      <Field
        field={fields.percentage}
        id={`percentage-input-${partner.code}`}
        label="partners.backoffice.newPercentage"
        hint="partners.backoffice.percentageHint"
        control={{ inputMode: "decimal", placeholder: formatPercent(partner.percentage, i18n.language) }}
      />
      <div>
        <button type="submit" className="button button-small button-secondary" disabled={busy}>
          {t("partners.backoffice.percentageSave")}
        </button>
      </div>
    </Form>
  );
}
