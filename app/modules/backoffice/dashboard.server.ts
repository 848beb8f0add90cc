import { type RawBuilder, type Selectable, sql, type SqlBool } from "kysely";
import type {
  Currency,
  CutType,
  FileType,
  MaterialType,
  MatrixType,
  OrderStatus,
  OrderStatusHistoryTable,
} from "~db/schema";
import type { AppConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import {
  changeOrderStatus,
  findOrder,
  isUuid,
  OrderNotFoundError,
  OrderTransitionError,
} from "~/modules/orders/orders.server";
import {
  DASHBOARD_TABS,
  type DashboardSort,
  type DashboardTab,
  type OrdersView,
  readDashboardQuery,
  tabStatuses,
} from "./dashboard-tabs";
import {
  type Cursor,
  encodeCursor,
  endOfDay,
  type ListMarket,
  type SortDirection,
  startOfDay,
} from "~/modules/http/list-query";
import {
  isJump,
  isPaid,
  ORDER_STATUSES,
  PAID_SET,
  UNDO_WINDOW_MINUTES,
  UNDOABLE_TARGETS,
} from "~/modules/orders/status";
import { codeSpaceUsage } from "~/modules/orders/order-codes";
import { countHeldCodes } from "~/modules/orders/order-codes.server";
import { reconcileOrder } from "~/modules/payments/reconciliation.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { fileCorrectionsOf, fileCountOf, filesOf, type RecordedFile } from "~/modules/orders/files.server";
import { packingsOf } from "~/modules/packer/packing.server";
import type { ScanSummary } from "~/modules/orders/recorded-scan";
import {
  declaredOrGuessed,
  type FileFacts,
} from "~/modules/orders/declaration";
import { foundBySearch } from "~/modules/orders/order-search.server";
import {
  buildStatistics,
  type DashboardStatistics,
  STATISTICS_WINDOW_DAYS,
  type WindowRow,
} from "./statistics";
import {
  loadSection,
  sectionData,
  sectionFailure,
} from "~/modules/http/section.server";
import { logger } from "~/modules/log/logger.server";

/**
 * The orders dashboard (staff side §2 "/backoffice"): statistics, the filtered order cards with
 * patients, files and history, and the staff actions — every status change through the state
 * machine (DESIGN §4.1), deletion only for orders never paid (DESIGN §4.7).
 */

export const DASHBOARD_PAGE_SIZE = 10;

export { DASHBOARD_TABS, type DashboardTab };

export interface DashboardFilter {
  /** The tab; a single status is also `status`. */
  tab: DashboardTab;
  status: OrderStatus | null;
  /** Orders without patients are hidden unless asked for. */
  showEmpty: boolean;
  /** Order number (its first characters), client name or e-mail. */
  search: string;
  /** Created on or after / before the end of (dates as YYYY-MM-DD), or null. */
  from: string | null;
  to: string | null;
  market: ListMarket | null;
  /** Cards (the specification's) or a compact table: the address's, else the remembered one. */
  view: OrdersView;
  /** The view the address names (to be remembered), or null. */
  viewAsked: OrdersView | null;
  /** The order (ADR 067); a search lists newest first. */
  sort: DashboardSort;
  dir: SortDirection;
  page: number;
  /** Keyset: the page starts after / ends before the row with these sort values (null: by page number). */
  after: Cursor | null;
  before: Cursor | null;
}

/**
 * The dashboard's query through the list kit (ADR 066, 067): `status` names a tab ("work", "all" or
 * a status); without one the page opens on what needs staff, and a search looks through every order.
 */
export function parseDashboardFilter(
  source: URLSearchParams | URL | Request,
  rememberedView: OrdersView = "cards"
): DashboardFilter {
  const query = readDashboardQuery(source);
  const tab: DashboardTab = query.status ?? (query.q ? "all" : "work");
  const sort: DashboardSort = query.q ? "date" : query.sort ?? "date";
  return {
    tab,
    status: (ORDER_STATUSES as readonly string[]).includes(tab)
      ? (tab as OrderStatus)
      : null,
    showEmpty: query.empty,
    search: query.q,
    from: query.from,
    to: query.to,
    market: query.market,
    view: query.view ?? rememberedView,
    viewAsked: query.view,
    sort,
    dir: query.q ? "desc" : query.dir,
    page: query.page,
    after: query.after,
    before: query.before,
  };
}

/**
 * Counts are exact up to this, then shown as "1 000+": a count costs at most this many index entries
 * and patient probes. At 10,000 the nine tabs cost some 100 ms on every page at five years
 * (bench/RESULTS.md, "Late pages of every list"); a working tab past a thousand orders is read by
 * its filters, not its count.
 */
export const COUNT_CAP = 1_000;

export async function loadStatistics(db: DB): Promise<DashboardStatistics> {
  const days = STATISTICS_WINDOW_DAYS;
  const [rows, held] = await Promise.all([
    db
      .selectFrom("orders")
      .select([
        "currency",
        sql<
          "current" | "previous"
        >`case when created_at >= now() - make_interval(days => ${days}) then 'current' else 'previous' end`.as(
          "window"
        ),
        sql<number>`count(*)::int`.as("count"),
        sql<number>`coalesce(sum(total_cost), 0)::bigint`.as("revenue"),
      ])
      .where("status", "in", [...PAID_SET])
      .where(
        "created_at",
        ">=",
        sql<Date>`now() - make_interval(days => ${2 * days})`
      )
      .where("created_at", "<=", sql<Date>`now()`)
      .groupBy(["currency", sql`2`])
      .execute(),
    countHeldCodes(db),
  ]);
  const statistics = buildStatistics(
    rows.map(
      (row): WindowRow => ({
        currency: row.currency,
        window: row.window,
        count: Number(row.count),
        revenue: Number(row.revenue),
      })
    )
  );
  // How full the order code space is (DESIGN §4.6, ADR 038): staff are warned above 80 %.
  return { ...statistics, codes: codeSpaceUsage(held) };
}

export interface DashboardFile {
  name: string;
  url: string;
  size: number;
  /** The scan checks recorded with the file (older files have none). */
  scan: ScanSummary | null;
  /** Names the file in staff's correction of its jaw and step. */
  storagePath: string;
  /** What its labels print (ADR 058); `guessed` while that is only read from its name. */
  facts: FileFacts;
}

/** A patient on an order card: how many files of each kind (null: skipped); the files themselves are on the order's files page. */
export interface DashboardPatient {
  id: string;
  name: string;
  folder: string;
  material: MaterialType | null;
  cut: CutType | null;
  matrix: MatrixType | null;
  comment: string | null;
  fileCounts: Record<FileType, number | null>;
}

/** A patient on the order's files page: every file of each kind (null: skipped). */
export interface PatientFiles {
  id: string;
  name: string;
  folder: string;
  files: Record<FileType, DashboardFile[] | null>;
}

export interface DashboardHistoryEntry {
  id: string;
  at: string;
  from: OrderStatus | null;
  to: OrderStatus;
  actor: string;
  note: string | null;
  trackingNumber: string | null;
  carrier: string | null;
  /** This change undid an earlier one (ADR 062). */
  undoes: string | null;
  /** A later change undid this one. */
  undone: boolean;
  /** The order's latest change, made by staff, still undoable now (ADR 062). */
  undoable: boolean;
}

/** The history of one order as its card shows it: which change undid which, and whether the latest can still be undone. */
export function historyEntries(
  rows: ReadonlyArray<Omit<Selectable<OrderStatusHistoryTable>, "order_id">>,
  status: OrderStatus,
  now = Date.now()
): DashboardHistoryEntry[] {
  const undone = new Set(
    rows.flatMap((row) => (row.undoes ? [String(row.undoes)] : []))
  );
  const latest = rows[rows.length - 1];
  return rows.map((row) => ({
    id: String(row.id),
    at: row.created_at.toISOString(),
    from: row.from_status,
    to: row.to_status,
    actor: row.actor,
    note: row.note,
    trackingNumber: row.tracking_number,
    carrier: row.carrier,
    undoes: row.undoes === null ? null : String(row.undoes),
    undone: undone.has(String(row.id)),
    undoable:
      row === latest &&
      row.undoes === null &&
      row.from_status !== null &&
      row.to_status === status &&
      UNDOABLE_TARGETS.includes(row.to_status) &&
      now - row.created_at.getTime() <= UNDO_WINDOW_MINUTES * 60_000,
  }));
}

const FILE_TYPES: readonly FileType[] = ["matrix", "aligners", "retainer"];
const SKIP = {
  matrix: "skip_matrix",
  aligners: "skip_aligners",
  retainer: "skip_retainers",
} as const;

/** The orders of the filter's dates, market and "empty" switch, in the given statuses (all when null). */
function ordersWhere(
  db: DB,
  filter: DashboardFilter,
  statuses: readonly OrderStatus[] | null
) {
  let query = db.selectFrom("orders");
  if (statuses) query = query.where("orders.status", "in", [...statuses]);
  if (filter.from)
    query = query.where("orders.created_at", ">=", startOfDay(filter.from));
  if (filter.to)
    query = query.where("orders.created_at", "<", endOfDay(filter.to));
  if (filter.market) query = query.where("orders.market", "=", filter.market);
  if (!filter.showEmpty)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("orders_patients")
          .select("id")
          .whereRef("orders_patients.order_id", "=", "orders.id")
      )
    );
  return query;
}

/**
 * How many orders each tab holds under the filter's dates, market and "empty" switch (not its search),
 * each counted up to `COUNT_CAP`: one small query per tab, each reading at most that many entries.
 */
export async function countDashboardTabs(
  db: DB,
  filter: DashboardFilter
): Promise<Record<DashboardTab, number>> {
  // One statement of nine capped counts: one round trip, each count reading at most its cap.
  const row = await db
    .selectNoFrom((eb) =>
      DASHBOARD_TABS.map((tab) =>
        eb
          .selectFrom(
            ordersWhere(db, filter, tabStatuses(tab))
              .select(sql<number>`1`.as("one"))
              .limit(COUNT_CAP + 1)
              .as("capped")
          )
          .select(sql<number>`count(*)::int`.as("count"))
          .as(tab)
      )
    )
    .executeTakeFirstOrThrow();
  return Object.fromEntries(
    DASHBOARD_TABS.map((tab) => [tab, Number((row as Record<string, unknown>)[tab])])
  ) as Record<DashboardTab, number>;
}

/** The statuses in their own order (the index `orders_status_rank_idx` has the same expression). */
const STATUS_RANK = sql<number>`(case orders.status when 'draft' then 0 when 'pending' then 1 when 'paid' then 2 when 'processing' then 3 when 'shipped' then 4 when 'completed' then 5 else 6 end)`;
const TOTAL_KEY = sql<number>`coalesce(orders.total_cost, 0)`;

/**
 * Each sort's keyset (ADR 067): the expressions a page is ordered by, the id last so no two rows tie,
 * how a cursor's values are cast back, and how they are checked (a forged cursor reads as none).
 */
const KEYSETS: Record<
  DashboardSort,
  {
    keys: RawBuilder<unknown>[];
    casts: string[];
    valid: (values: Cursor) => boolean;
  }
> = {
  date: {
    keys: [sql`orders.created_at`, sql`orders.id`],
    casts: ["timestamptz", "uuid"],
    valid: ([at, id]) => isTimestamp(at) && isUuid(String(id)),
  },
  total: {
    keys: [TOTAL_KEY, sql`orders.id`],
    casts: ["bigint", "uuid"],
    valid: ([total, id]) => Number.isSafeInteger(total) && isUuid(String(id)),
  },
  status: {
    keys: [STATUS_RANK, sql`orders.created_at`, sql`orders.id`],
    casts: ["int", "timestamptz", "uuid"],
    valid: ([rank, at, id]) =>
      Number.isInteger(rank) && isTimestamp(at) && isUuid(String(id)),
  },
};
const TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;
const isTimestamp = (value: unknown) =>
  typeof value === "string" &&
  TIMESTAMP.test(value) &&
  !Number.isNaN(Date.parse(value.replace(" ", "T")));

export async function listDashboardOrders(db: DB, filter: DashboardFilter) {
  const keyset = KEYSETS[filter.sort];
  const cursor = filter.after ?? filter.before;
  const usable =
    cursor && cursor.length === keyset.casts.length && keyset.valid(cursor)
      ? cursor
      : null;
  // Backwards (`before`) reads the other way round from the cursor, then turns the rows back.
  const backwards = Boolean(usable && filter.before);
  const descending = (filter.dir === "desc") !== backwards;
  const filtered = () => {
    const query = ordersWhere(db, filter, tabStatuses(filter.tab));
    if (!usable) return query;
    const values = usable.map(
      (value, i) => sql`${value}::${sql.raw(keyset.casts[i])}`
    );
    return query.where(
      sql<SqlBool>`(${sql.join(keyset.keys)}) ${sql.raw(
        descending ? "<" : ">"
      )} (${sql.join(values)})`
    );
  };
  // Without a cursor a page number is an offset (an old link, a typed address); the pager's links carry cursors.
  const offset = usable ? 0 : (filter.page - 1) * DASHBOARD_PAGE_SIZE;
  // Only what the cards show: a row of orders has some 40 columns.
  let query = filtered()
    .select([
      "id",
      "status",
      "created_at",
      "full_name",
      "email",
      "phone",
      "address",
      "delivery_comment",
      "additional_comments",
      "total_cost",
      "currency",
      "tracking_number",
      "paid_at",
      "parcel_received_at",
      "parcel_received_by",
    ])
    .select([
      sql<string>`orders.created_at::text`.as("created_key"),
      TOTAL_KEY.as("total_key"),
      STATUS_RANK.as("status_rank"),
    ]);
  // A search reads, per way of matching, at most the orders up to this page (ADR 042).
  if (filter.search)
    query = query.where(
      await foundBySearch(
        db,
        filter.search,
        { phone: true },
        filtered,
        offset + DASHBOARD_PAGE_SIZE + 1
      )
    );
  for (const key of keyset.keys)
    query = query.orderBy(key, descending ? "desc" : "asc");
  const read = await query
    .limit(DASHBOARD_PAGE_SIZE + 1)
    .offset(offset)
    .execute();
  const more = read.length > DASHBOARD_PAGE_SIZE;
  const rows = backwards ? read.slice(0, DASHBOARD_PAGE_SIZE).reverse() : read;
  const cursorOf = (row: (typeof read)[number]) =>
    encodeCursor(
      filter.sort === "date"
        ? [row.created_key, row.id]
        : filter.sort === "total"
        ? [Number(row.total_key), row.id]
        : [Number(row.status_rank), row.created_key, row.id]
    );
  const orders = rows.slice(0, DASHBOARD_PAGE_SIZE);
  const ids = orders.map((order) => order.id);
  const [patientsSection, history, payments, correctionsSection, packings] = ids.length
    ? await Promise.all([
        // The orders still show when only their patients fail to load: empty patient lists and the
        // spec's message (staff side §8 "failed pieces of data load yield empty patient lists").
        loadSection(
          "back-office: loading the patients of orders",
          { message: "failures.patients" },
          () =>
            db
              .selectFrom("orders_patients")
              .select([
                "id",
                "order_id",
                "patient_name",
                "folder_name",
                "material_type",
                "cut_type",
                "matrix_type",
                "additional_comments",
                "skip_matrix",
                "skip_aligners",
                "skip_retainers",
              ])
              // The cards show counts: the database counts, the file lists stay where they are.
              .select([
                fileCountOf("matrix").as("matrix_count"),
                fileCountOf("aligners").as("aligners_count"),
                fileCountOf("retainer").as("retainer_count"),
              ])
              .where("order_id", "in", ids)
              .orderBy("created_at")
              .orderBy("folder_name")
              .execute()
        ),
        db
          .selectFrom("order_status_history")
          .selectAll()
          .where("order_id", "in", ids)
          .orderBy("created_at")
          .orderBy("id")
          .execute(),
        db
          .selectFrom("payments")
          .select("order_id")
          .where("order_id", "in", ids)
          .where("status", "=", "succeeded")
          .execute(),
        // Staff's corrections of the files' jaw and step belong to the order's history too (ADR 058);
        // they name the patient's folder, so they fail with the patients and say so with them.
        loadSection("back-office: loading the file corrections of orders", { message: "failures.patients" }, () => fileCorrectionsOf(db, ids)),
        // The packer's "Упаковано" is part of the order's history too (ADR 068).
        packingsOf(db, ids),
      ])
    : [{ ok: true as const, data: [] }, [], [], { ok: true as const, data: [] }, []];
  const patients = sectionData(patientsSection, []);
  const fileCorrections = sectionData(correctionsSection, []);
  const everPaid = new Set(payments.map((payment) => payment.order_id));

  return {
    patientsFailure: sectionFailure(patientsSection),
    // Backwards, the rows after this page are the ones the staff member came from.
    hasMore: backwards ? true : more,
    cursors: {
      next: orders.length ? cursorOf(orders[orders.length - 1]) : null,
      previous: orders.length ? cursorOf(orders[0]) : null,
    },
    orders: orders.map((order) => ({
      id: order.id,
      status: order.status,
      createdAt: order.created_at.toISOString(),
      fullName: order.full_name,
      email: order.email,
      phone: order.phone,
      address: order.address,
      deliveryComment: order.delivery_comment,
      comment: order.additional_comments,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency as Currency,
      trackingNumber: order.tracking_number,
      /** The doctor marked the parcel received (ADR 070): when, and with which address. */
      parcelReceived: order.parcel_received_at ? { at: order.parcel_received_at.toISOString(), by: order.parcel_received_by } : null,
      paidAt: order.paid_at ? order.paid_at.toISOString() : null,
      /** Never paid: deletion allowed (DESIGN §4.7). */
      deletable:
        !isPaid(order.status) &&
        order.paid_at === null &&
        !everPaid.has(order.id),
      patients: patients
        .filter((patient) => patient.order_id === order.id)
        .map(
          (patient): DashboardPatient => ({
            id: patient.id,
            name: patient.patient_name,
            folder: patient.folder_name,
            material: patient.material_type,
            cut: patient.cut_type,
            matrix: patient.matrix_type,
            comment: patient.additional_comments,
            fileCounts: {
              matrix: patient.skip_matrix ? null : patient.matrix_count,
              aligners: patient.skip_aligners ? null : patient.aligners_count,
              retainer: patient.skip_retainers ? null : patient.retainer_count,
            },
          })
        ),
      history: historyEntries(
        history.filter((entry) => entry.order_id === order.id),
        order.status
      ),
      fileCorrections: fileCorrections.filter(
        (entry) => entry.orderId === order.id
      ),
      packing: packings.find((entry) => entry.orderId === order.id) ?? null,
    })),
  };
}

export type DashboardOrder = Awaited<
  ReturnType<typeof listDashboardOrders>
>["orders"][number];

/** An order's patients with all their files, for staff to open and download (the order card shows their counts). */
export async function listOrderFiles(
  db: DB,
  orderId: string
): Promise<PatientFiles[]> {
  const patients = await db
    .selectFrom("orders_patients")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("created_at")
    .orderBy("folder_name")
    .execute();
  return patients.map((patient) => ({
    id: patient.id,
    name: patient.patient_name,
    folder: patient.folder_name,
    files: Object.fromEntries(
      FILE_TYPES.map((type) => [
        type,
        patient[SKIP[type]]
          ? null
          : filesOf(patient, type).map((file) => ({
              name: file.originalName,
              url: file.url,
              size: Number(file.size) || 0,
              scan: (file as RecordedFile).scan ?? null,
              storagePath: file.storagePath,
              facts: declaredOrGuessed({ name: file.originalName, ...file }),
            })),
      ])
    ) as Record<FileType, DashboardFile[] | null>,
  }));
}

// ---------------------------------------------------------------------------------------------
// Status changes

/** The statuses staff move orders to from the cards. */
export const STAFF_TARGETS = [
  "processing",
  "shipped",
  "completed",
  "cancelled",
] as const satisfies readonly OrderStatus[];
export type StaffTarget = (typeof STAFF_TARGETS)[number];

export type StatusResult =
  | { ok: true; changed: boolean; changeId: string | null }
  | {
      ok: false;
      reason:
        | "not_found"
        | "not_allowed"
        | "note_required"
        | "tracking_required"
        | "actor_not_allowed"
        | "confirm_jump";
    };

/** The longest cancel note and tracking number a status change keeps (the route refuses longer ones). */
export const STATUS_NOTE_MAX = 1000;
export const TRACKING_NUMBER_MAX = 100;

/**
 * A staff change of an order's status through the state machine. `confirmJumps` (CONFIRM_STATUS_JUMPS,
 * ADR 062): a change that skips a step or ends the order is made only when `confirmed`.
 */
export async function staffChangeStatus(
  db: DB,
  orderId: string,
  to: StaffTarget,
  actorLabel: string,
  details: {
    note?: string | null;
    trackingNumber?: string | null;
    carrier?: string | null;
    confirmed?: boolean;
    confirmJumps?: boolean;
  }
): Promise<StatusResult> {
  if (!isUuid(orderId)) return { ok: false, reason: "not_found" };
  try {
    if (details.confirmJumps && !details.confirmed) {
      const current = await findOrder(db, orderId);
      if (!current) return { ok: false, reason: "not_found" };
      if (current.status !== to && isJump(current.status, to))
        return { ok: false, reason: "confirm_jump" };
    }
    const change = await changeOrderStatus(
      db,
      orderId,
      to,
      { kind: "staff", label: actorLabel },
      {
        note: details.note?.trim() || null,
        trackingNumber: details.trackingNumber?.trim() || null,
        carrier: details.carrier || null,
      }
    );
    return { ok: true, changed: change.changed, changeId: change.changeId };
  } catch (error) {
    if (error instanceof OrderNotFoundError)
      return { ok: false, reason: "not_found" };
    if (error instanceof OrderTransitionError)
      return {
        ok: false,
        reason: error.reason as Exclude<StatusResult, { ok: true }>["reason"],
      };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Deletion (DESIGN §4.7)

export type DeletionResult =
  | { ok: true; files: number; filesLeft: number }
  | { ok: false; reason: "not_found" | "was_paid" | "payment_unclear" };

/**
 * Deletes an order that never had a successful payment, with its files, queue entries and order
 * code (the last two by foreign keys). A pending order is first checked with its payment provider,
 * so a payment made a minute ago is not lost with it. The row is locked while it is checked and
 * deleted, so a payment confirmed meanwhile waits and then finds no order. Payment rows stay
 * (their order id becomes null). Files go after the row: any left behind are trash of an order that
 * no longer exists, which the files screen can delete.
 */
export async function deleteNeverPaidOrder(
  db: DB,
  storage: FileStorage,
  config: AppConfig,
  orderId: string
): Promise<DeletionResult> {
  const order = await findOrder(db, orderId);
  if (!order) return { ok: false, reason: "not_found" };
  if (order.status === "pending") {
    const state = await reconcileOrder(db, config, order);
    if (state === "paid") return { ok: false, reason: "was_paid" };
    if (state === "update_failed")
      return { ok: false, reason: "payment_unclear" };
  }
  const deleted = await db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom("orders")
      .select(["id", "status", "paid_at"])
      .where("id", "=", order.id)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return "not_found" as const;
    const succeeded = await trx
      .selectFrom("payments")
      .select("id")
      .where("order_id", "=", order.id)
      .where("status", "=", "succeeded")
      .limit(1)
      .executeTakeFirst();
    if (isPaid(locked.status) || locked.paid_at !== null || succeeded)
      return "was_paid" as const;
    await trx.deleteFrom("orders").where("id", "=", order.id).execute();
    return "deleted" as const;
  });
  if (deleted !== "deleted") return { ok: false, reason: deleted };

  let keys: string[] = [];
  try {
    keys = (await storage.list("orders", `order_${order.id}/`)).map(
      (object) => object.key
    );
    if (keys.length) await storage.delete("orders", keys);
    return { ok: true, files: keys.length, filesLeft: 0 };
  } catch (error) {
    logger.error(
      `back-office: files of deleted order ${order.id} stay in storage:`,
      error
    );
    return { ok: true, files: 0, filesLeft: Math.max(keys.length, 1) };
  }
}
