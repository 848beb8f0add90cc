import { Form, useNavigation } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { FieldError } from "~/components/wizard/fields";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import type { AffiliateReply, affiliatesList } from "~/modules/partners/affiliates-page.server";
import { formatDateTime } from "~/modules/partners/format";
import { NOTE_MAX } from "~/modules/partners/validation";

type Partner = SerializeFrom<typeof affiliatesList>["partners"][number];

/** A partner's payouts, each deletable after a confirmation, and the form to add one (partners spec §5). */
export function PartnerPayouts({ partner, reply, period }: { partner: Partner; reply?: AffiliateReply; period: { year: number; quarter: number } }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const money = (minor: number) => formatMoney(minor, "rub", language);
  const errors = reply?.errors ?? {};
  const payoutValues = reply?.intent === "add_payout" ? reply.values : null;
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
                  <td>
                    {t("partners.backoffice.payouts.periodValue", {
                      year: payout.year,
                      quarter: payout.quarter,
                    })}
                  </td>
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
      <Form method="post" className="payout-form" noValidate aria-labelledby={id("payout-form-title")}>
        <h4 id={id("payout-form-title")}>{t("partners.backoffice.payouts.add")}</h4>
        <input type="hidden" name="intent" value="add_payout" />
        <input type="hidden" name="partner_code_id" value={partner.id} />
        <div className="field">
          <label htmlFor={id("payout-amount")}>{t("partners.backoffice.payouts.amount")}</label>
          <input
            id={id("payout-amount")}
            name="amount"
            type="text"
            inputMode="decimal"
            defaultValue={payoutValues?.amount ?? ""}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? `${id("payout-amount")}-error` : undefined}
          />
          <FieldError id={id("payout-amount")} error={errors.amount} />
        </div>
        <div className="field">
          <label htmlFor={id("payout-year")}>{t("partners.backoffice.payouts.year")}</label>
          <input
            id={id("payout-year")}
            name="year"
            type="text"
            inputMode="numeric"
            defaultValue={payoutValues?.year ?? String(period.year)}
            aria-invalid={errors.year ? true : undefined}
            aria-describedby={errors.year ? `${id("payout-year")}-error` : undefined}
          />
          <FieldError id={id("payout-year")} error={errors.year} />
        </div>
        <div className="field">
          <label htmlFor={id("payout-quarter")}>{t("partners.backoffice.payouts.quarter")}</label>
          <input
            id={id("payout-quarter")}
            name="quarter"
            type="text"
            inputMode="numeric"
            defaultValue={payoutValues?.quarter ?? String(period.quarter)}
            aria-invalid={errors.quarter ? true : undefined}
            aria-describedby={errors.quarter ? `${id("payout-quarter")}-error` : undefined}
          />
          <FieldError id={id("payout-quarter")} error={errors.quarter} />
        </div>
        <div className="field payout-note">
          <label htmlFor={id("payout-note")}>{t("partners.backoffice.payouts.note")}</label>
          <input
            id={id("payout-note")}
            name="note"
            type="text"
            maxLength={NOTE_MAX}
            defaultValue={payoutValues?.note ?? ""}
            aria-invalid={errors.note ? true : undefined}
            aria-describedby={errors.note ? `${id("payout-note")}-error` : undefined}
          />
          <FieldError id={id("payout-note")} error={errors.note} />
        </div>
        <div>
          <button type="submit" className="button button-small" disabled={busy}>
            {t("partners.backoffice.payouts.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
