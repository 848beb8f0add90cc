import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { FieldError } from "~/components/wizard/fields";
import { requireStaff } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { isUuid } from "~/modules/orders/orders.server";
import { statusLabelKey } from "~/modules/orders/status";
import { addPayout, deletePayout, listPartners, ORDERS_PER_PARTNER, partnerCodeById, partnerDetails, setRewardPercentage } from "~/modules/partners/affiliates.server";
import { formatDate, formatDateTime, formatPercent } from "~/modules/partners/format";
import { checkPayout, checkPercentage, currentPeriod, NOTE_MAX } from "~/modules/partners/validation";
import type { OrderStatus } from "~db/schema";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";

const PAGE_SIZE = 20;

type ActionReply = {
  partnerId: string;
  intent: "add_payout" | "set_percentage";
  errors: Record<string, string>;
  values: Record<string, string>;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const db = await getDb();
  const { partners, hasMore } = await listPartners(db, {
    search,
    page,
    pageSize: PAGE_SIZE,
  });
  const details = await partnerDetails(
    db,
    partners.map((partner) => partner.id),
  );
  return {
    title: `${t("partners.backoffice.title")} — ${t("backoffice.title")}`,
    search,
    page,
    hasMore,
    open: url.searchParams.get("open"),
    period: currentPeriod(),
    ordersLimit: ORDERS_PER_PARTNER,
    partners: partners.map((partner) => ({
      ...partner,
      ...details.get(partner.id)!,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const partnerId = String(form.get("partner_code_id") ?? "");
  if (!isUuid(partnerId)) throw new Response("Unknown partner", { status: 400 });
  const db = await getDb();
  const partner = await partnerCodeById(db, partnerId);
  // Back to the same list with this partner's summary open.
  const back = new URLSearchParams();
  for (const name of ["q", "page"]) if (url.searchParams.get(name)) back.set(name, url.searchParams.get(name)!);
  if (partner) back.set("open", partner.code);
  const to = `/backoffice/affiliates?${back}${partner ? `#partner-${partner.code}` : ""}`;
  const failed = (description: string) =>
    redirectWithToast(to, {
      type: "error",
      title: "partners.toasts.errorTitle",
      description,
    });

  if (intent === "add_payout") {
    if (!partner) return failed("partners.toasts.payoutAddFailed");
    const payout = checkPayout(form);
    if (payout.errors !== null) {
      const values = Object.fromEntries(["amount", "year", "quarter", "note"].map((name) => [name, String(form.get(name) ?? "")]));
      return data<ActionReply>({ partnerId, intent, errors: payout.errors, values }, { status: 400 });
    }
    try {
      await addPayout(db, partner.id, payout.value, staff.actorLabel);
    } catch (error) {
      logger.error("payout not added:", error);
      return failed("partners.toasts.payoutAddFailed");
    }
    return redirectWithToast(to, {
      type: "success",
      title: "partners.toasts.payoutAdded",
    });
  }

  if (intent === "delete_payout") {
    const payoutId = String(form.get("payout_id") ?? "");
    if (!partner || !isUuid(payoutId)) return failed("partners.toasts.payoutDeleteFailed");
    const deleted = await deletePayout(db, partner.id, payoutId).catch((error) => {
      logger.error("payout not deleted:", error);
      return false;
    });
    if (!deleted) return failed("partners.toasts.payoutDeleteFailed");
    return redirectWithToast(to, {
      type: "success",
      title: "partners.toasts.payoutDeleted",
    });
  }

  if (intent === "set_percentage") {
    if (!partner) return failed("partners.errors.partnerNotFound");
    const percentage = checkPercentage(String(form.get("percentage") ?? ""));
    if (percentage.kind === "invalid") {
      return data<ActionReply>(
        {
          partnerId,
          intent,
          errors: { percentage: percentage.error },
          values: { percentage: String(form.get("percentage") ?? "") },
        },
        { status: 400 },
      );
    }
    // Empty input keeps the current value (spec §5).
    if (percentage.kind === "keep")
      return redirectWithToast(to, {
        type: "info",
        title: "partners.toasts.percentageKept",
      });
    const saved = await setRewardPercentage(db, partner.id, percentage.value).catch((error) => {
      logger.error("percentage not saved:", error);
      return null;
    });
    if (saved === null) return failed("partners.toasts.percentageFailed");
    if (!saved) return failed("partners.errors.partnerNotFound");
    return redirectWithToast(to, {
      type: "success",
      title: "partners.toasts.percentageSaved",
    });
  }

  throw new Response("Unknown action", { status: 400 });
}

export default function BackofficeAffiliates() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ActionReply | undefined;
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    next.delete("open");
    return `?${next}`;
  };
  return (
    <section className="affiliates">
      <h1>{t("partners.backoffice.title")}</h1>
      <Form method="get" className="filters" role="search">
        <label htmlFor="affiliates-q" className="visually-hidden">
          {t("partners.backoffice.search")}
        </label>
        <input id="affiliates-q" type="search" name="q" defaultValue={view.search} placeholder={t("partners.backoffice.search")} />
        <button type="submit" className="button button-secondary button-small">
          {t("partners.backoffice.apply")}
        </button>
      </Form>
      {view.partners.length === 0 ? (
        <p className="empty">{view.search ? t("partners.backoffice.nothingFound") : t("partners.backoffice.empty")}</p>
      ) : (
        <ul className="plain-list affiliate-list">
          {view.partners.map((partner) => (
            <PartnerCard
              key={partner.id}
              partner={partner}
              open={view.open === partner.code || reply?.partnerId === partner.id}
              reply={reply?.partnerId === partner.id ? reply : undefined}
              period={view.period}
              ordersLimit={view.ordersLimit}
            />
          ))}
        </ul>
      )}
      {view.page > 1 || view.hasMore ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {view.page > 1 ? <Link to={pageLink(view.page - 1)}>{t("pagination.previous")}</Link> : <span />}
          <span>{t("pagination.page", { page: view.page })}</span>
          {view.hasMore ? <Link to={pageLink(view.page + 1)}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

type Partner = ReturnType<typeof useLoaderData<typeof loader>>["partners"][number];

function PartnerCard({ partner, open, reply, period, ordersLimit }: { partner: Partner; open: boolean; reply?: ActionReply; period: { year: number; quarter: number }; ordersLimit: number }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const money = (minor: number) => formatMoney(minor, "rub", language);
  const errors = reply?.errors ?? {};
  const payoutValues = reply?.intent === "add_payout" ? reply.values : null;
  const id = (name: string) => `${name}-${partner.code}`;
  const active = partner.referrals.filter((referral) => referral.active);
  const expired = partner.referrals.filter((referral) => !referral.active);

  return (
    <li className="card affiliate" id={`partner-${partner.code}`}>
      <div className="affiliate-head">
        <h2>
          <code className="partner-code">{partner.code}</code> {partner.name ?? <span className="muted">{t("partners.backoffice.noName")}</span>}
        </h2>
        <p className="muted small">{partner.email}</p>
        <dl className="affiliate-figures">
          <div>
            <dt>{t("partners.backoffice.referralsSum")}</dt>
            <dd>{money(partner.referralsSum)}</dd>
          </div>
          <div>
            <dt>{t("partners.balance.due")}</dt>
            <dd>{money(partner.balance.due)}</dd>
          </div>
        </dl>
      </div>

      <details open={open || undefined}>
        <summary>{t("partners.backoffice.summary")}</summary>
        <div className="affiliate-body">
          <div className="affiliate-columns">
            <section aria-labelledby={id("balance")}>
              <h3 id={id("balance")}>{t("partners.balance.title")}</h3>
              <dl className="affiliate-balance">
                <div>
                  <dt>{t("partners.balance.accrued")}</dt>
                  <dd>{money(partner.balance.accrued)}</dd>
                </div>
                <div>
                  <dt>{t("partners.balance.paid")}</dt>
                  <dd>{money(partner.balance.paid)}</dd>
                </div>
                <div>
                  <dt>{t("partners.balance.due")}</dt>
                  <dd>
                    <strong>{money(partner.balance.due)}</strong>
                  </dd>
                </div>
              </dl>
              <p className="small">
                {t("partners.backoffice.contacts")}: {partner.contactEmail ?? "—"}, {partner.contactPhone ?? "—"}
                <br />
                {partner.offerAcceptedAt
                  ? t("partners.backoffice.offerAccepted", {
                      date: formatDate(partner.offerAcceptedAt, language),
                    })
                  : t("partners.backoffice.offerNotAccepted")}
              </p>
            </section>

            <section aria-labelledby={id("percentage")}>
              <h3 id={id("percentage")}>{t("partners.backoffice.percentage")}</h3>
              <p className="affiliate-percentage">
                <strong>{`${formatPercent(partner.percentage, language)} %`}</strong>
              </p>
              <Form method="post" className="stack" noValidate>
                <input type="hidden" name="intent" value="set_percentage" />
                <input type="hidden" name="partner_code_id" value={partner.id} />
                <div className="field">
                  <label htmlFor={id("percentage-input")}>{t("partners.backoffice.newPercentage")}</label>
                  <input
                    id={id("percentage-input")}
                    name="percentage"
                    type="text"
                    inputMode="decimal"
                    placeholder={formatPercent(partner.percentage, language)}
                    defaultValue={reply?.intent === "set_percentage" ? reply.values.percentage : ""}
                    aria-invalid={errors.percentage ? true : undefined}
                    aria-describedby={[errors.percentage ? `${id("percentage-input")}-error` : null, id("percentage-input-hint")].filter(Boolean).join(" ")}
                  />
                  <p id={id("percentage-input-hint")} className="hint">
                    {t("partners.backoffice.percentageHint")}
                  </p>
                  <FieldError id={id("percentage-input")} error={errors.percentage} />
                </div>
                <div>
                  <button type="submit" className="button button-small button-secondary" disabled={busy}>
                    {t("partners.backoffice.percentageSave")}
                  </button>
                </div>
              </Form>
            </section>
          </div>

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

          <section aria-labelledby={id("referrals")} className="referrals">
            <h3 id={id("referrals")}>{t("partners.backoffice.referrals.title")}</h3>
            <fieldset className="referral-toggle">
              <legend className="visually-hidden">{t("partners.backoffice.referrals.title")}</legend>
              <label>
                <input type="radio" name={id("referrals-view")} value="active" defaultChecked />
                {t("partners.backoffice.referrals.active", {
                  count: active.length,
                })}
              </label>
              <label>
                <input type="radio" name={id("referrals-view")} value="expired" />
                {t("partners.backoffice.referrals.expired", {
                  count: expired.length,
                })}
              </label>
            </fieldset>
            <ReferralTable className="referrals-active" referrals={active} empty={t("partners.backoffice.referrals.noneActive")} />
            <ReferralTable className="referrals-expired" referrals={expired} empty={t("partners.backoffice.referrals.noneExpired")} />
          </section>
        </div>
      </details>

      <details>
        <summary>
          {t("partners.backoffice.orders.toggle", {
            count: partner.orders.length,
          })}
        </summary>
        {partner.ordersFailure ? (
          <SectionError failure={partner.ordersFailure} />
        ) : partner.orders.length === 0 ? (
          <p className="muted">{t("partners.backoffice.orders.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("partners.orders.columns.date")}</th>
                  <th scope="col">{t("partners.orders.columns.number")}</th>
                  <th scope="col">{t("partners.backoffice.orders.doctor")}</th>
                  <th scope="col">{t("partners.backoffice.orders.email")}</th>
                  <th scope="col" className="num">
                    {t("partners.orders.columns.amount")}
                  </th>
                  <th scope="col">{t("partners.orders.columns.status")}</th>
                </tr>
              </thead>
              <tbody>
                {partner.orders.map((order) => (
                  <tr key={order.id}>
                    <td>{formatDate(order.createdAt, language)}</td>
                    <td>
                      <code>{order.number}</code>
                    </td>
                    <td>{order.client ?? "—"}</td>
                    <td>{order.email}</td>
                    <td className="num">{order.total === null ? "—" : formatMoney(order.total, order.currency, language)}</td>
                    <td>
                      <span className={`badge badge-${order.status}`}>{t(statusLabelKey(order.status as OrderStatus))}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {partner.orders.length >= ordersLimit ? (
              <p className="muted small">
                {t("partners.backoffice.orders.limited", {
                  count: ordersLimit,
                })}
              </p>
            ) : null}
          </div>
        )}
      </details>
    </li>
  );
}

function ReferralTable({ className, referrals, empty }: { className: string; referrals: Partner["referrals"]; empty: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  if (referrals.length === 0) return <p className={`muted ${className}`}>{empty}</p>;
  return (
    <div className={`table-wrap ${className}`}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("partners.backoffice.referrals.email")}</th>
            <th scope="col">{t("partners.backoffice.referrals.firstPaid")}</th>
            <th scope="col">{t("partners.backoffice.referrals.expires")}</th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.orders")}
            </th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.sum")}
            </th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.eligible")}
            </th>
          </tr>
        </thead>
        <tbody>
          {referrals.map((referral) => (
            <tr key={referral.email}>
              <td>{referral.email}</td>
              <td>{referral.firstPaidAt ? formatDate(referral.firstPaidAt, language) : t("partners.backoffice.referrals.notPaidYet")}</td>
              <td>{formatDate(referral.expiresAt, language)}</td>
              <td className="num">{referral.ordersCount}</td>
              <td className="num">{formatMoney(referral.ordersSum, "rub", language)}</td>
              <td className="num">{formatMoney(referral.eligibleSum, "rub", language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
