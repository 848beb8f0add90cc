import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { sql } from "kysely";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { requireUser } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { canPay, ORDER_STATUSES, type OrderStatus } from "~/modules/orders/status";
import { filesOf } from "~/modules/wizard/wizard.server";
import type { NotificationChannel } from "~db/schema";
import { readFormData } from "~/modules/http/request.server";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { paidDocuments } from "~/modules/payments/payments.server";

const PAGE_SIZE = 20;
const FILTER_STATUSES: OrderStatus[] = ORDER_STATUSES.filter((status) => status !== "draft");
const CHANNELS: NotificationChannel[] = ["email", "whatsapp", "none"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim();
  const statusParam = url.searchParams.get("status");
  const status = FILTER_STATUSES.includes(statusParam as OrderStatus) ? (statusParam as OrderStatus) : null;
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const db = await getDb();

  // The orders load on their own: when they cannot, the list says so in place and the rest of the
  // cabinet (channel, new order, search) still works (ADR 026).
  const loaded = await loadSection("cabinet: loading orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, async () => {
    // Only this user's orders (by e-mail), never drafts (spec: drafts are hidden from the list).
    let query = db.selectFrom("orders").selectAll().where("email", "=", user.email).where("status", "<>", "draft");
    if (status) query = query.where("status", "=", status);
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb("full_name", "ilike", pattern),
          eb.exists(eb.selectFrom("orders_patients").select("id").whereRef("orders_patients.order_id", "=", "orders.id").where("patient_name", "ilike", pattern)),
        ]),
      );
    }
    const rows = await query
      .orderBy("created_at", "desc")
      .limit(PAGE_SIZE + 1)
      .offset((page - 1) * PAGE_SIZE)
      .execute();
    const orders = rows.slice(0, PAGE_SIZE);
    const patients = orders.length
      ? await db
          .selectFrom("orders_patients")
          .selectAll()
          .where(
            "order_id",
            "in",
            orders.map((order) => order.id),
          )
          .orderBy("created_at")
          .execute()
      : [];
    return { rows, orders, patients };
  });
  const { rows, orders, patients } = sectionData(loaded, {
    rows: [],
    orders: [],
    patients: [],
  });
  const [settings, partnerCode] = await Promise.all([
    db.selectFrom("client_settings").select("notification_channel").where("email", "=", user.email).executeTakeFirst(),
    // The partner card is for partners only (customer side §6: "a partner section if a partner code exists").
    db.selectFrom("partner_codes").select("id").where("user_email", "=", user.email).executeTakeFirst(),
  ]);
  const documents = await paidDocuments(
    db,
    orders.map((order) => order.id),
  );

  return {
    title: t("cabinet.title"),
    email: user.email,
    ordersFailure: sectionFailure(loaded),
    isPartner: partnerCode !== undefined,
    channel: settings?.notification_channel ?? "email",
    search,
    status,
    page,
    hasMore: rows.length > PAGE_SIZE,
    orders: orders.map((order) => ({
      id: order.id,
      number: longOrderNumber(order.id),
      status: order.status,
      createdAt: order.created_at.toISOString(),
      address: order.address,
      deliveryComment: order.delivery_comment,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency,
      canPay: canPay(order.status, order.total_cost === null ? null : Number(order.total_cost)),
      // The payment document: amount paid and, for a clinic that asked for an invoice, its VAT number.
      paid: documents.get(order.id) ?? null,
      patients: patients
        .filter((patient) => patient.order_id === order.id)
        .map((patient) => ({
          id: patient.id,
          name: patient.patient_name,
          matrix: filesOf(patient, "matrix").map((file) => file.originalName),
          aligners: filesOf(patient, "aligners").map((file) => file.originalName),
          retainers: filesOf(patient, "retainer").map((file) => file.originalName),
        })),
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const form = await readFormData(request);
  const channel = form.get("channel");
  if (!CHANNELS.includes(channel as NotificationChannel)) throw new Response("Unknown channel", { status: 400 });
  const db = await getDb();
  await db
    .insertInto("client_settings")
    .values({
      email: user.email,
      notification_channel: channel as NotificationChannel,
    })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet({
        notification_channel: channel as NotificationChannel,
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
  return redirectWithToast("/cabinet", {
    type: "success",
    title: "cabinet.channelSaved",
  });
}

export default function Cabinet() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  return (
    <section className="container cabinet">
      <div className="cabinet-head">
        <div>
          <h1>{t("cabinet.title")}</h1>
          <p className="muted">{data.email}</p>
        </div>
        <Form method="post" action="/order/new" reloadDocument>
          <button type="submit" className="button">
            {t("header.newOrder")}
          </button>
        </Form>
      </div>

      <details className="card channel">
        <summary>
          {t("cabinet.channel")}: <strong>{t(`cabinet.channels.${data.channel}`)}</strong> <span className="link-button">{t("cabinet.change")}</span>
        </summary>
        <Form method="post" className="stack">
          <fieldset className="choices">
            <legend>{t("cabinet.channelLegend")}</legend>
            {CHANNELS.map((channel) => (
              <label key={channel} className="choice">
                <input type="radio" name="channel" value={channel} defaultChecked={channel === data.channel} />
                <span>{t(`cabinet.channels.${channel}`)}</span>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className="button button-small">
              {t("cabinet.save")}
            </button>
          </div>
        </Form>
      </details>

      <details className="card sessions">
        <summary>{t("cabinet.sessions.title")}</summary>
        <Form method="post" action="/auth/sign-out" className="stack">
          <input type="hidden" name="scope" value="everywhere" />
          <p className="muted small">{t("cabinet.sessions.text")}</p>
          <div>
            <button type="submit" className="button button-small button-secondary">
              {t("cabinet.sessions.signOutEverywhere")}
            </button>
          </div>
        </Form>
      </details>

      {data.isPartner ? (
        <aside className="card partner-invite">
          <h2>{t("cabinet.partnerTitle")}</h2>
          <p className="muted small">{t("cabinet.partnerText")}</p>
          <Link to="/partner">{t("cabinet.partnerLink")}</Link>
        </aside>
      ) : null}

      <Form method="get" className="filters" role="search">
        <label htmlFor="cabinet-q" className="visually-hidden">
          {t("cabinet.search")}
        </label>
        <input id="cabinet-q" type="search" name="q" defaultValue={data.search} placeholder={t("cabinet.search")} />
        <label htmlFor="cabinet-status" className="visually-hidden">
          {t("cabinet.statusFilter")}
        </label>
        <select id="cabinet-status" name="status" defaultValue={data.status ?? ""}>
          <option value="">{t("cabinet.allStatuses")}</option>
          {FILTER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`orderStatus.${status}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-secondary button-small">
          {t("cabinet.apply")}
        </button>
      </Form>

      {data.ordersFailure ? (
        <SectionError failure={data.ordersFailure} />
      ) : data.orders.length === 0 ? (
        <p className="empty">{data.search || data.status ? t("cabinet.nothingFound") : t("cabinet.noOrders")}</p>
      ) : (
        <ul className="order-cards">
          {data.orders.map((order) => (
            <li key={order.id} className="card order-card">
              <div className="order-card-head">
                <h2>
                  {t("cabinet.orderNumber", { number: order.number })}
                  <span className="muted small">
                    {" "}
                    ·{" "}
                    {dateTimeFormat(locale, {
                      dateStyle: "short",
                      timeStyle: "short",
                    }).format(new Date(order.createdAt))}
                  </span>
                </h2>
                <span className={`badge badge-${order.status}`}>
                  {order.status === "paid" ? <span aria-hidden="true">✓ </span> : null}
                  {t(`orderStatus.${order.status}`)}
                </span>
              </div>
              {order.address ? <p className="small">{order.address}</p> : null}
              {order.deliveryComment ? <p className="small muted">{order.deliveryComment}</p> : null}
              <details>
                <summary>{t("cabinet.composition", { count: order.patients.length })}</summary>
                <ul className="plain-list small">
                  {order.patients.map((patient) => (
                    <li key={patient.id}>
                      <strong>{patient.name}</strong>
                      <div>
                        {t("wizard.summary.matrix")}: {patient.matrix.length ? patient.matrix.join(", ") : t("cabinet.noFiles")}
                      </div>
                      <div>
                        {t("wizard.summary.aligners")}: {patient.aligners.length ? patient.aligners.join(", ") : t("cabinet.noFiles")}
                      </div>
                      <div>
                        {t("wizard.summary.retainers")}: {patient.retainers.length ? patient.retainers.join(", ") : t("cabinet.noFiles")}
                      </div>
                    </li>
                  ))}
                </ul>
              </details>
              <div className="order-card-foot">
                <strong>{order.total === null ? "—" : formatMoney(order.total, order.currency, i18n.language)}</strong>
                {order.paid ? (
                  <p className="muted small">
                    {t("cabinet.paidAmount", { amount: formatMoney(order.paid.amount, order.paid.currency, i18n.language) })}
                    {order.paid.vatNumber ? (
                      <>
                        <br />
                        {t("cabinet.vatNumber", { vat: order.paid.vatNumber })}
                      </>
                    ) : null}
                  </p>
                ) : null}
                {order.canPay ? (
                  <Link to={`/pay/${order.id}`} className="button button-small">
                    {t("cabinet.pay")}
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {data.page > 1 || data.hasMore ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {data.page > 1 ? <Link to={pageLink(data.page - 1)}>{t("pagination.previous")}</Link> : <span />}
          <span>{t("pagination.page", { page: data.page })}</span>
          {data.hasMore ? <Link to={pageLink(data.page + 1)}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
