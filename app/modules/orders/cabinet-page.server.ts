import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { requireUser } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { readSubmission } from "~/modules/http/submission.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import type { PaidDocument } from "~/modules/payments/payments.server";
import type { NotificationChannel, Patient, PaymentReceipt } from "~db/schema";
import { filesOf } from "~/modules/orders/files.server";
import { containsPattern } from "./order-search.server";
import { longOrderNumber } from "./orders.server";
import { CABINET_COUNT_CAP, CABINET_TABS, type CabinetQuery, type CabinetTab, cursorParam, readCabinetQuery } from "./cabinet-query";
import { channelSchema } from "./forms";
import { carrierName, trackingLink } from "~/modules/config/carriers";
import { getConfig } from "~/modules/config/config.server";
import { canPay, type OrderStatus } from "./status";

/** The client's cabinet (customer side §6): their orders as a case inbox, and the channel they are told of changes by (ADR 070). */
const PAGE_SIZE = 20;

/** A patient of a listed order, as the list query aggregates it. */
type CabinetPatient = Pick<Patient, "id" | "patient_name" | "matrix_files_info" | "aligner_files_info" | "retainer_files_info">;
/** The order's last succeeded payment, as the list query picks it (amounts in minor units, as JSON numbers). */
interface PaymentDocumentRow {
  amount: number | string;
  currency: PaidDocument["currency"];
  customer_vat_number: string | null;
  customer_business_name: string | null;
  receipt: PaymentReceipt | null;
}

function paidDocument(row: PaymentDocumentRow | null): PaidDocument | null {
  return row ? { amount: Number(row.amount), currency: row.currency, vatNumber: row.customer_vat_number, businessName: row.customer_business_name, receipt: row.receipt } : null;
}
/** This client's placed orders (drafts are hidden, as the spec says), of one status or all. */
function clientOrders(db: DB, email: string, status: OrderStatus | null) {
  let query = db.selectFrom("orders").where("orders.email", "=", email);
  query = status ? query.where("orders.status", "=", status) : query.where("orders.status", "<>", "draft");
  return query;
}

/**
 * Each tab's orders, each counted up to `CABINET_COUNT_CAP` from orders_email_status_idx, and the
 * client's channel, in one round trip. Counts are of the tab, not of the search (as the back-office's tabs).
 */
export async function countCabinetTabs(db: DB, email: string): Promise<{ counts: Record<CabinetTab, number>; channel: NotificationChannel | null }> {
  const row = await db
    .selectNoFrom((eb) => [
      ...CABINET_TABS.map((tab) =>
        eb
          .selectFrom(
            clientOrders(db, email, tab === "all" ? null : tab)
              .select(sql<number>`1`.as("one"))
              .limit(CABINET_COUNT_CAP + 1)
              .as("capped"),
          )
          .select(sql<number>`count(*)::int`.as("count"))
          .as(tab),
      ),
      eb.selectFrom("client_settings").select("notification_channel").where("email", "=", email).as("channel"),
    ])
    .executeTakeFirstOrThrow();
  const values = row as Record<string, unknown>;
  return {
    counts: Object.fromEntries(CABINET_TABS.map((tab) => [tab, Number(values[tab])])) as Record<CabinetTab, number>,
    channel: (values.channel as NotificationChannel | null) ?? null,
  };
}

/**
 * One page of the client's orders by date (newest or oldest first), keyset-paged from `after`, and one
 * more to tell whether another page follows. A search looks for the client name of the order or a
 * patient's name, any case, within this client's orders only: the plan walks the client's orders by
 * their index and looks into each one's patients (a LATERAL probe of orders_patients_order_idx), so a
 * clinic with thousands of orders never reads other clinics' patients (ADR 042).
 */
export async function listCabinetOrders(db: DB, email: string, query: CabinetQuery) {
  let rows = clientOrders(db, email, query.status).select([
    "orders.id",
    "orders.status",
    "orders.created_at",
    sql<string>`orders.created_at::text`.as("cursor_time"),
    "orders.address",
    "orders.delivery_comment",
    "orders.total_cost",
    "orders.currency",
    "orders.tracking_number",
    "orders.carrier",
    "orders.parcel_received_at",
    // The order's patients and its payment document ride along (ADR 070): one round trip for the page's orders.
    sql<CabinetPatient[]>`coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'patient_name', p.patient_name, 'matrix_files_info', p.matrix_files_info, 'aligner_files_info', p.aligner_files_info, 'retainer_files_info', p.retainer_files_info) order by p.created_at, p.id) from orders_patients p where p.order_id = orders.id), '[]'::jsonb)`.as("patients"),
    sql<PaymentDocumentRow | null>`(select jsonb_build_object('amount', pm.amount, 'currency', pm.currency, 'customer_vat_number', pm.customer_vat_number, 'customer_business_name', pm.customer_business_name, 'receipt', pm.receipt) from payments pm where pm.order_id = orders.id and pm.status = 'succeeded' order by pm.updated_at desc limit 1)`.as("payment"),
  ]);
  if (query.search) {
    const pattern = containsPattern(query.search);
    rows = rows
      .leftJoinLateral(
        (eb) => eb.selectFrom("orders_patients").select(sql<number>`1`.as("found")).whereRef("orders_patients.order_id", "=", "orders.id").where("orders_patients.patient_name", "ilike", pattern).limit(1).as("patient"),
        (join) => join.onTrue(),
      )
      .where((eb) => eb.or([eb("orders.full_name", "ilike", pattern), eb("patient.found", "is not", null)]));
  }
  const newest = query.sort === "newest";
  if (query.after) {
    const { createdAt, id } = query.after;
    rows = rows.where(newest ? sql<boolean>`(orders.created_at, orders.id) < (${createdAt}::timestamptz, ${id}::uuid)` : sql<boolean>`(orders.created_at, orders.id) > (${createdAt}::timestamptz, ${id}::uuid)`);
  }
  return rows
    .orderBy("orders.created_at", newest ? "desc" : "asc")
    .orderBy("orders.id", newest ? "desc" : "asc")
    .limit(PAGE_SIZE + 1)
    .execute();
}

export async function loadCabinetPage({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const t = await getRequestTranslator(request, context);
  const query = readCabinetQuery(request);
  const db = await getDb();

  // The orders load on their own: when they cannot, the list says so in place and the rest of the
  // cabinet (channel, new order, search) still works (ADR 026). The channel and the tabs' counts load beside them.
  const [loaded, tabs] = await Promise.all([
    loadSection("cabinet: loading orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, async () => {
      const rows = await listCabinetOrders(db, user.email, query);
      return { rows, orders: rows.slice(0, PAGE_SIZE) };
    }),
    countCabinetTabs(db, user.email).catch(() => null),
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
      canPay: canPay(order.status, order.total_cost === null ? null : Number(order.total_cost)),
      // The payment document: amount paid and, for a clinic that asked for an invoice, its VAT number.
      paid: paidDocument(order.payment),
      patients: order.patients.map((patient) => ({
          id: patient.id,
          name: patient.patient_name,
          matrix: filesOf(patient, "matrix").map((file) => file.originalName),
          aligners: filesOf(patient, "aligners").map((file) => file.originalName),
          retainers: filesOf(patient, "retainer").map((file) => file.originalName),
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
