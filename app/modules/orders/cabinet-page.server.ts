import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { requireUser } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { readSubmission } from "~/modules/http/submission.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { type PaidDocument, paidDocuments } from "~/modules/payments/payments.server";
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
/** This client's placed orders (drafts are hidden, as the spec says), of one status or all. */
function clientOrders(db: DB, email: string, status: OrderStatus | null) {
  let query = db.selectFrom("orders").where("orders.email", "=", email);
  query = status ? query.where("orders.status", "=", status) : query.where("orders.status", "<>", "draft");
  return query;
}

/**
 * Each tab's orders, each counted up to `CABINET_COUNT_CAP` from orders_email_status_idx, in one
 * round trip. Counts are of the tab, not of the search (as the back-office's tabs).
 */
export async function countCabinetTabs(db: DB, email: string): Promise<Record<CabinetTab, number>> {
  const row = await db
    .selectNoFrom((eb) =>
      CABINET_TABS.map((tab) =>
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
    )
    .executeTakeFirstOrThrow();
  return Object.fromEntries(CABINET_TABS.map((tab) => [tab, Number((row as Record<string, unknown>)[tab])])) as Record<CabinetTab, number>;
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
  const [loaded, settings, counts] = await Promise.all([
    loadSection("cabinet: loading orders", { title: "failures.ordersLoadTitle", message: "failures.ordersLoadText" }, async () => {
      const rows = await listCabinetOrders(db, user.email, query);
      const orders = rows.slice(0, PAGE_SIZE);
      const ids = orders.map((order) => order.id);
      const [patients, documents] = await Promise.all([
        ids.length
          ? db
              .selectFrom("orders_patients")
              .select(["id", "order_id", "patient_name", "matrix_files_info", "aligner_files_info", "retainer_files_info"])
              .where("order_id", "in", ids)
              .orderBy("created_at")
              .execute()
          : [],
        paidDocuments(db, ids),
      ]);
      return { rows, orders, patients, documents };
    }),
    db.selectFrom("client_settings").select("notification_channel").where("email", "=", user.email).executeTakeFirst(),
    countCabinetTabs(db, user.email).catch(() => null),
  ]);
  const { rows, orders, patients, documents } = sectionData(loaded, {
    rows: [],
    orders: [],
    patients: [],
    documents: new Map<string, PaidDocument>(),
  });
  const last = orders.at(-1);

  return {
    title: t("cabinet.title"),
    email: user.email,
    ordersFailure: sectionFailure(loaded),
    // The partner card is for partners only (customer side §6: "a partner section if a partner code exists").
    isPartner: user.hasPartnerCode,
    channel: settings?.notification_channel ?? "email",
    search: query.search,
    status: query.status,
    sort: query.sort,
    /** Each tab's orders up to the cap; null when they could not be counted (the tabs stay, without numbers). */
    counts,
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
