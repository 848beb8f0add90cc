import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { failureCause, loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { FieldError } from "~/components/wizard/fields";
import { requireUser } from "~/modules/auth/guards.server";
import { publicOrigin } from "~/modules/market/market.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getLocale, getRequestTranslator } from "~/modules/http/request-context.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { isPaid, statusLabelKey } from "~/modules/orders/status";
import { CopyLinkField } from "~/modules/partners/copy-link-field";
import { formatDate, formatPercent } from "~/modules/partners/format";
import { ensurePartnerCode, partnerBalance, referralCounts, referralOrders, savePartnerContacts, savePartnerName } from "~/modules/partners/partners.server";
import { ACTIVITY_FILTERS, checkContacts, checkName, NAME_MAX, readFilter, REFERRAL_STATUS_FILTERS } from "~/modules/partners/validation";
import { readFormData } from "~/modules/http/request.server";

const PAGE_SIZE = 25;

type ActionReply = {
  intent: "name" | "contacts";
  errors: Record<string, string>;
  summary?: string;
  failure?: { message: string; values: Record<string, string> };
  values: Record<string, string>;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const status = readFilter(url.searchParams.get("status"), REFERRAL_STATUS_FILTERS);
  const activity = readFilter(url.searchParams.get("activity"), ACTIVITY_FILTERS);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const db = await getDb();
  const base = { title: t("partners.title"), search, status, activity, page };
  // Created on the first visit (spec §4 "Partner code"). Each part of the page loads on its own and
  // says so in place when it cannot (ADR 026); without the code nothing else of it can load.
  const code = await loadSection("partner: loading the partner code", { message: "failures.partnerCode" }, () => ensurePartnerCode(db, user.email));
  if (!code.ok)
    return {
      ...base,
      partner: null,
      codeFailure: code.failure,
      ordersFailure: null,
      orders: [],
      hasMore: false,
    };
  const partner = code.data;
  const [balance, counts, list] = await Promise.all([
    partnerBalance(db, partner.id),
    referralCounts(db, partner.id),
    loadSection("partner: loading referral orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, () =>
      referralOrders(db, partner.id, {
        search,
        status,
        activity,
        page,
        pageSize: PAGE_SIZE,
      }),
    ),
  ]);
  const origin = publicOrigin((await getLocale(request, context)).market);
  return {
    ...base,
    partner: {
      code: partner.code,
      name: partner.user_name,
      // The link is shown once a name is saved (spec §2 "/partner").
      link: partner.user_name ? `${origin.replace(/\/$/, "")}/${partner.code}` : null,
      contactEmail: partner.contact_email ?? user.email,
      contactPhone: partner.contact_phone ?? "",
      offerAcceptedAt: partner.offer_accepted_at ? new Date(partner.offer_accepted_at).toISOString() : null,
      percentage: Number(partner.reward_percentage).toFixed(2),
      balance,
      referrals: counts,
    },
    codeFailure: null,
    ordersFailure: sectionFailure(list),
    ...sectionData(list, { orders: [], hasMore: false }),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const db = await getDb();
  const partner = await ensurePartnerCode(db, user.email);

  if (intent === "name") {
    const name = checkName(String(form.get("user_name") ?? ""));
    if (name.error !== null) {
      return data<ActionReply>(
        {
          intent,
          errors: { user_name: name.error },
          values: { user_name: String(form.get("user_name") ?? "") },
        },
        { status: 400 },
      );
    }
    try {
      await savePartnerName(db, partner.id, name.value);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      console.error("partner name not saved:", error);
      // Said in place with the typed name kept (staff side §8 "Не удалось сохранить имя: " + cause).
      const failure = {
        message: "failures.partnerName",
        values: { causeKey: failureCause(error) },
      };
      return data<ActionReply>(
        {
          intent,
          errors: {},
          failure,
          values: { user_name: String(form.get("user_name") ?? "") },
        },
        { status: 500 },
      );
    }
    return redirectWithToast("/partner", {
      type: "success",
      title: "partners.toasts.nameSaved",
    });
  }

  if (intent === "contacts") {
    const contacts = checkContacts(form, partner.offer_accepted_at !== null);
    if (contacts.errors !== null) {
      const values = {
        contact_email: String(form.get("contact_email") ?? ""),
        contact_phone: String(form.get("contact_phone") ?? ""),
      };
      return data<ActionReply>({ intent, errors: contacts.errors, summary: contacts.summary, values }, { status: 400 });
    }
    try {
      await savePartnerContacts(db, partner.id, contacts.value);
    } catch (error) {
      console.error("partner contacts not saved:", error);
      return redirectWithToast("/partner", {
        type: "error",
        title: "partners.toasts.errorTitle",
        description: "partners.toasts.contactsFailed",
      });
    }
    return redirectWithToast("/partner", {
      type: "success",
      title: "partners.toasts.contactsSavedTitle",
      description: "partners.toasts.contactsSavedText",
    });
  }

  throw new Response("Unknown action", { status: 400 });
}

export default function PartnerCabinet() {
  const screen = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ActionReply | undefined;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [params] = useSearchParams();
  const nameErrors = reply?.intent === "name" ? reply.errors : {};
  const contactErrors = reply?.intent === "contacts" ? reply.errors : {};
  const contactValues = reply?.intent === "contacts" ? reply.values : null;
  const money = (minor: number) => formatMoney(minor, "rub", language);
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };

  const view = screen.partner;
  if (!view) {
    return (
      <section className="container partner-page">
        <h1>{t("partners.title")}</h1>
        {screen.codeFailure ? <SectionError failure={screen.codeFailure} /> : null}
        <p>
          <Link to="/refdoc">{t("partners.intro.offerLink")}</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="container partner-page">
      <h1>{t("partners.title")}</h1>

      <aside className="note partner-intro" aria-labelledby="partner-intro-title">
        <h2 id="partner-intro-title">{t("partners.intro.title")}</h2>
        <ol>
          <li>{t("partners.intro.step1")}</li>
          <li>{t("partners.intro.step2")}</li>
          <li>
            {t("partners.intro.step3", {
              percentage: formatPercent(view.percentage, language),
            })}
          </li>
        </ol>
        <p>
          <Link to="/refdoc">{t("partners.intro.offerLink")}</Link>
        </p>
      </aside>

      <div className="partner-grid">
        <section className="card stack" aria-labelledby="partner-code-title">
          <h2 id="partner-code-title">{t("partners.code.title")}</h2>
          <p className="partner-code-line">
            {t("partners.code.label")}: <strong className="partner-code">{view.code}</strong>
          </p>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="name" />
            {reply?.intent === "name" && reply.failure ? <SectionError failure={reply.failure} /> : null}
            <div className="field">
              <label htmlFor="partner-name">{t("partners.code.nameLabel")}</label>
              <input
                id="partner-name"
                name="user_name"
                type="text"
                maxLength={NAME_MAX}
                autoComplete="organization"
                defaultValue={reply?.intent === "name" ? reply.values.user_name : view.name ?? ""}
                aria-invalid={nameErrors.user_name ? true : undefined}
                aria-describedby={nameErrors.user_name ? "partner-name-error" : undefined}
              />
              <FieldError id="partner-name" error={nameErrors.user_name} />
            </div>
            <div>
              <button type="submit" className="button button-small" disabled={busy}>
                {t("partners.code.nameSave")}
              </button>
            </div>
          </Form>
          {view.link ? <CopyLinkField id="partner-link" label={t("partners.code.linkLabel")} link={view.link} /> : <p className="hint">{t("partners.code.linkHint")}</p>}
        </section>

        <section className="card stack" aria-labelledby="partner-contacts-title" id="partner-contacts">
          <h2 id="partner-contacts-title">{t("partners.contacts.title")}</h2>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="contacts" />
            {reply?.intent === "contacts" && reply.summary ? (
              <p className="field-error" role="alert">
                <strong>{t(reply.summary)}</strong>
              </p>
            ) : null}
            <div className="field">
              <label htmlFor="partner-contact-email">{t("partners.contacts.email")}</label>
              <input
                id="partner-contact-email"
                name="contact_email"
                type="email"
                autoComplete="email"
                defaultValue={contactValues?.contact_email ?? view.contactEmail}
                aria-invalid={contactErrors.contact_email ? true : undefined}
                aria-describedby={contactErrors.contact_email ? "partner-contact-email-error" : undefined}
              />
              <FieldError id="partner-contact-email" error={contactErrors.contact_email} />
            </div>
            <div className="field">
              <label htmlFor="partner-contact-phone">{t("partners.contacts.phone")}</label>
              <input
                id="partner-contact-phone"
                name="contact_phone"
                type="tel"
                autoComplete="tel"
                defaultValue={contactValues?.contact_phone ?? view.contactPhone}
                aria-invalid={contactErrors.contact_phone ? true : undefined}
                aria-describedby={contactErrors.contact_phone ? "partner-contact-phone-error" : undefined}
              />
              <FieldError id="partner-contact-phone" error={contactErrors.contact_phone} />
            </div>
            {view.offerAcceptedAt ? (
              <p className="hint">
                {t("partners.contacts.offerAccepted", {
                  date: formatDate(view.offerAcceptedAt, language),
                })}{" "}
                <Link to="/refdoc">{t("partners.contacts.offerDocument")}</Link>
              </p>
            ) : (
              <div className="field">
                <label className="checkbox" htmlFor="partner-offer">
                  <input
                    id="partner-offer"
                    name="offer"
                    type="checkbox"
                    aria-invalid={contactErrors.offer ? true : undefined}
                    aria-describedby={contactErrors.offer ? "partner-offer-error" : undefined}
                  />
                  <span>
                    {t("partners.contacts.offer")} <Link to="/refdoc">{t("partners.contacts.offerLink")}</Link>
                  </span>
                </label>
                <FieldError id="partner-offer" error={contactErrors.offer} />
              </div>
            )}
            <div>
              <button type="submit" className="button button-small" disabled={busy}>
                {t("partners.contacts.save")}
              </button>
            </div>
          </Form>
        </section>

        <section className="card stack partner-balance" aria-labelledby="partner-balance-title">
          <h2 id="partner-balance-title">{t("partners.balance.title")}</h2>
          <dl>
            <div>
              <dt>{t("partners.balance.accrued")}</dt>
              <dd>{money(view.balance.accrued)}</dd>
            </div>
            <div>
              <dt>{t("partners.balance.paid")}</dt>
              <dd>{money(view.balance.paid)}</dd>
            </div>
            <div className="partner-due">
              <dt>{t("partners.balance.due")}</dt>
              <dd>{money(view.balance.due)}</dd>
            </div>
          </dl>
          <p className="hint">
            {t("partners.balance.percentage")}: <strong>{`${formatPercent(view.percentage, language)} %`}</strong>
          </p>
          <p className="hint">
            {t("partners.balance.referrals", {
              total: view.referrals.total,
              active: view.referrals.active,
            })}
          </p>
          <p className="hint">{t("partners.balance.rule")}</p>
        </section>
      </div>

      <section className="partner-orders" aria-labelledby="partner-orders-title">
        <h2 id="partner-orders-title">{t("partners.orders.title")}</h2>
        <Form method="get" className="filters" role="search">
          <label htmlFor="partner-q" className="visually-hidden">
            {t("partners.orders.search")}
          </label>
          <input id="partner-q" type="search" name="q" defaultValue={screen.search} placeholder={t("partners.orders.search")} />
          <label htmlFor="partner-status" className="visually-hidden">
            {t("partners.orders.status")}
          </label>
          <select id="partner-status" name="status" defaultValue={screen.status ?? ""}>
            <option value="">{t("partners.orders.allStatuses")}</option>
            {REFERRAL_STATUS_FILTERS.map((status) => (
              <option key={status} value={status}>
                {t(statusLabelKey(status))}
              </option>
            ))}
          </select>
          <label htmlFor="partner-activity" className="visually-hidden">
            {t("partners.orders.activity")}
          </label>
          <select id="partner-activity" name="activity" defaultValue={screen.activity ?? ""}>
            <option value="">{t("partners.orders.allActivity")}</option>
            <option value="active">{t("partners.orders.active")}</option>
            <option value="inactive">{t("partners.orders.inactive")}</option>
          </select>
          <button type="submit" className="button button-secondary button-small">
            {t("partners.orders.apply")}
          </button>
        </Form>

        {screen.ordersFailure ? (
          <SectionError failure={screen.ordersFailure} />
        ) : screen.orders.length === 0 ? (
          <p className="empty">{screen.search || screen.status || screen.activity ? t("partners.orders.nothingFound") : t("partners.orders.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("partners.orders.columns.date")}</th>
                  <th scope="col">{t("partners.orders.columns.number")}</th>
                  <th scope="col">{t("partners.orders.columns.client")}</th>
                  <th scope="col">{t("partners.orders.columns.status")}</th>
                  <th scope="col">{t("partners.orders.columns.referral")}</th>
                  <th scope="col" className="num">
                    {t("partners.orders.columns.amount")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {screen.orders.map((order) => (
                  <tr key={order.id}>
                    <td>{formatDate(order.createdAt, language)}</td>
                    <td>
                      <code>{order.number}</code>
                    </td>
                    <td>
                      {order.client ?? "—"}
                      <div className="muted small">{order.email}</div>
                    </td>
                    <td>
                      <span className={`badge badge-${order.status}`}>{t(statusLabelKey(order.status))}</span>
                    </td>
                    <td className="small">
                      {order.expiresAt === null
                        ? t("partners.orders.awaitingPayment")
                        : order.active
                        ? t("partners.orders.activeUntil", {
                            date: formatDate(order.expiresAt, language),
                          })
                        : t("partners.orders.expiredOn", {
                            date: formatDate(order.expiresAt, language),
                          })}
                    </td>
                    <td className="num">
                      {order.total === null ? "—" : formatMoney(order.total, order.currency, language)}
                      {isPaid(order.status) ? (
                        <div className={order.counts ? "small partner-counts" : "small muted"}>{order.counts ? t("partners.orders.counts") : t("partners.orders.notCounted")}</div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {screen.page > 1 || screen.hasMore ? (
          <nav className="pagination" aria-label={t("pagination.label")}>
            {screen.page > 1 ? <Link to={pageLink(screen.page - 1)}>{t("pagination.previous")}</Link> : <span />}
            <span>{t("pagination.page", { page: screen.page })}</span>
            {screen.hasMore ? <Link to={pageLink(screen.page + 1)}>{t("pagination.next")}</Link> : <span />}
          </nav>
        ) : null}
      </section>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
