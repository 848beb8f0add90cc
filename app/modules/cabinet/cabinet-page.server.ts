import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { requireUser } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/answers/section.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import type { PaidDocument } from "~/modules/payments/payments.server";
import { CABINET_PAGE_SIZE as PAGE_SIZE, countAwaitingClinic, countCabinetTabs, listCabinetOrders, type PaymentDocumentRow } from "~/modules/orders/cabinet-orders.server";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { channelSchema } from "~/modules/orders/forms";
import { canPay } from "~/modules/orders/status";
import { CABINET_COUNT_CAP, CABINET_TABS, cursorParam, readCabinetQuery } from "./cabinet-query";
import { carrierName, trackingLink } from "~/modules/config/carriers";
import { getConfig } from "~/modules/config/config.server";

/** The client's cabinet (customer side §6): their orders as a case inbox, and the channel they are told of changes by (ADR 070). */

function paidDocument(row: PaymentDocumentRow | null): PaidDocument | null {
  return row ? { amount: Number(row.amount), currency: row.currency, vatNumber: row.customer_vat_number, businessName: row.customer_business_name, receipt: row.receipt } : null;
}

export async function loadCabinetPage({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const query = readCabinetQuery(request);
  const db = await getDb();

  // The orders load on their own: when they cannot, the list says so in place and the rest of the
  // cabinet (channel, new order, search) still works (ADR 026). The channel and the tabs' counts load beside them.
  const [loaded, tabs, awaiting] = await Promise.all([
    loadSection("cabinet: loading orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, async () => {
      const rows = await listCabinetOrders(db, user.email, query);
      return { rows, orders: rows.slice(0, PAGE_SIZE) };
    }),
    countCabinetTabs(db, user.email, CABINET_TABS, CABINET_COUNT_CAP).catch(() => null),
    countAwaitingClinic(db, user.email, CABINET_COUNT_CAP).catch(() => null),
  ]);
  const { rows, orders } = sectionData(loaded, { rows: [], orders: [] });
  // Without the counts the channel is read alone: the form shows the client's own choice either way.
  const channel = tabs ? tabs.channel : ((await db.selectFrom("client_settings").select("notification_channel").where("email", "=", user.email).executeTakeFirst())?.notification_channel ?? null);
  const last = orders.at(-1);

  return {
    title: t("cabinet.title"),
    email: user.email,
    ordersFailure: sectionFailure(loaded),
    // The partner card is for partners only (customer side §6: "a partner section if a partner code exists").
    isPartner: user.hasPartnerCode,
    channel: channel ?? "email",
    search: query.search,
    status: query.status,
    sort: query.sort,
    /** Each tab's orders up to the cap; null when they could not be counted (the tabs stay, without numbers). */
    counts: tabs?.counts ?? null,
    /** "Нужен ваш ответ" (ADR 104): whether the list shows it, and its count (null when it could not be counted). */
    answer: query.answer,
    answerCount: awaiting,
    countCap: CABINET_COUNT_CAP,
    isFirstPage: query.after === null,
    next: rows.length > PAGE_SIZE && last ? cursorParam({ createdAt: last.cursor_time, id: last.id }) : null,
    orders: orders.map((order) => ({
      id: order.id,
      number: longOrderNumber(order.id),
      status: order.status,
      createdAt: order.created_at.toISOString(),
      address: order.address,
      deliveryComment: order.delivery_comment,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency,
      // The parcel: its tracking number, carrier and the page that follows it (ADR 062).
      tracking: order.tracking_number
        ? { number: order.tracking_number, carrier: carrierName(getConfig().carriers, order.carrier), link: trackingLink(getConfig().carriers, order.carrier, order.tracking_number) }
        : null,
      received: order.parcel_received_at?.toISOString() ?? null,
      unread: order.unread ?? 0,
      canPay: canPay(order.status, order.total_cost === null ? null : Number(order.total_cost)),
      // The payment document: amount paid and, for a clinic that asked for an invoice, its VAT number.
      paid: paidDocument(order.payment),
      patients: order.patients.map((patient) => ({
          id: patient.id,
          name: patient.patient_name,
          matrix: patient.matrix,
          aligners: patient.aligners,
          retainers: patient.retainers,
        })),
    })),
  };
}

/** The cabinet's one form: how the client wants to hear of their orders. */
export async function saveNotificationChannel({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = await readSubmission(request, context, channelSchema);
  if (submission.status !== "success") throw new Response("Unknown channel", { status: 400 });
  const { channel } = submission.value;
  const db = await getDb();
  await db
    .insertInto("client_settings")
    .values({
      email: user.email,
      notification_channel: channel,
    })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet({
        notification_channel: channel,
        updated_at: sql<Date>`now()`,
      }),
    )
    .execute();
  return redirectWithToast("/cabinet", {
    type: "success",
    title: "cabinet.channelSaved",
  });
}
