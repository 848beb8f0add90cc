import type { Selectable } from "kysely";
import type { Currency, CutType, FileType, MaterialType, MatrixType, OrdersTable, OrderStatus, OrderStatusHistoryTable } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { DASHBOARD_TABS, type DashboardSort, type DashboardTab, type OrdersView, readDashboardQuery, tabOrder, tabStatuses } from "./dashboard-tabs";
import type { Cursor, ListMarket, SortDirection } from "~/modules/http/request/list-query";
import { isPaid, ORDER_STATUSES, UNDO_WINDOW_MINUTES, UNDOABLE_TARGETS } from "~/modules/orders/status";
import { codeSpaceUsage } from "~/modules/orders/order-codes";
import { heldCodesQuery } from "~/modules/orders/order-codes.server";
import { type FileCorrectionEntry, fileCorrectionsOf, filesOf, type RecordedFile } from "~/modules/orders/files.server";
import { listPatients } from "~/modules/orders/patients.server";
import { countWaitingOnLab, countWorkListTabs, type HistoryRecord, paidOrderWindows, type PackingRecord, patientCardsOf, workListPage } from "~/modules/orders/work-list.server";
import type { PackingEntry } from "~/modules/packer/packing.server";
import { type DashboardHistoryEntry, type FoldedHistory, foldHistory } from "./order-history";

export type { DashboardHistoryEntry };
import type { ScanSummary } from "~/modules/orders/recorded-scan";
import { declaredOrGuessed, type FileFacts } from "~/modules/orders/declaration";
import { buildStatistics, type DashboardStatistics, STATISTICS_WINDOW_DAYS, type WindowRow } from "./statistics";
import { loadSection, type SectionFailure, sectionData, sectionFailure } from "~/modules/http/answers/section.server";

/**
 * The orders dashboard (staff side §2 "/backoffice"): statistics, the filtered order cards with
 * patients, files and history, and the staff actions — every status change through the state
 * machine (DESIGN §4.1) and deletion only for orders never paid (DESIGN §4.7), in order-actions.server.ts.
 * The orders' queries are the order data's (orders/work-list.server.ts).
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
export function parseDashboardFilter(source: URLSearchParams | URL | Request, rememberedView: OrdersView = "cards"): DashboardFilter {
  const query = readDashboardQuery(source);
  const tab: DashboardTab = query.status ?? (query.q ? "all" : "work");
  const sort: DashboardSort = query.q ? "date" : query.sort ?? "date";
  return {
    tab,
    status: (ORDER_STATUSES as readonly string[]).includes(tab) ? (tab as OrderStatus) : null,
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

/** The statistics' windows and the codes held, in one statement: the held count on every row, and on one row alone when nothing was paid. */
export async function loadStatistics(db: DB): Promise<DashboardStatistics> {
  const rows = await db
    .selectFrom(heldCodesQuery(db).as("h"))
    .leftJoinLateral(paidOrderWindows(db, STATISTICS_WINDOW_DAYS).as("w"), (join) => join.onTrue())
    .select(["h.held", "w.currency", "w.window", "w.count", "w.revenue"])
    .execute();
  const windows = rows.flatMap((row): WindowRow[] => (row.currency && row.window ? [{ currency: row.currency, window: row.window, count: Number(row.count), revenue: Number(row.revenue) }] : []));
  // How full the order code space is (DESIGN §4.6, ADR 038): staff are warned above 80 %.
  return { ...buildStatistics(windows), codes: codeSpaceUsage(Number(rows[0]?.held ?? 0)) };
}

export interface DashboardFile {
  /** The original of a PLY or OBJ (ADR 102); `url` is then the STL made from it. */
  sourceUrl?: string;
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

/** The history of one order as its card shows it: which change undid which, and whether the latest can still be undone. */
export function historyEntries(
  rows: ReadonlyArray<Pick<Selectable<OrderStatusHistoryTable>, "id" | "from_status" | "to_status" | "actor" | "note" | "tracking_number" | "carrier" | "undoes" | "created_at">>,
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
const SKIP = { matrix: "skip_matrix", aligners: "skip_aligners", retainer: "skip_retainers" } as const;

/** The filter's dates, market and "empty" switch, for the order data's list (its tab's statuses added). */
const workListFilter = (filter: DashboardFilter) => ({ from: filter.from, to: filter.to, market: filter.market, showEmpty: filter.showEmpty });

/**
 * How many orders each tab holds under the filter's dates, market and "empty" switch (not its search),
 * each counted up to `COUNT_CAP`: one small query per tab, each reading at most that many entries.
 */
export async function countDashboardTabs(db: DB, filter: DashboardFilter): Promise<Record<DashboardTab, number>> {
  const byStatus = DASHBOARD_TABS.filter((tab) => tab !== "waiting").map((tab) => [tab, tabStatuses(tab)] as const);
  // "Ждут ответа" counts by the threads' own rows (ADR 104), beside the status counts.
  const [counts, waiting] = await Promise.all([countWorkListTabs(db, workListFilter(filter), byStatus, COUNT_CAP), countWaitingOnLab(db, workListFilter(filter), COUNT_CAP)]);
  return { ...counts, waiting };
}

/** The columns of an order that its card shows (the work list's row, or the whole order on its page). */
type CardColumns = Pick<
  Selectable<OrdersTable>,
  | "id"
  | "status"
  | "created_at"
  | "full_name"
  | "email"
  | "phone"
  | "address"
  | "delivery_comment"
  | "additional_comments"
  | "total_cost"
  | "currency"
  | "tracking_number"
  | "paid_at"
  | "parcel_received_at"
  | "parcel_received_by"
>;

/** What the page's rows bring of a card from other tables (orders/work-list.server.ts, `cards`). */
interface CardRecords {
  transfer_invoice: string | null;
  history: HistoryRecord[];
  packing: PackingRecord | null;
  ever_paid: boolean;
  /** The clinic's messages the lab has not opened (ADR 104); null without a thread. */
  lab_unread: number | null;
}

/** What a card shows beside the order's own columns, read for the orders on the page. */
export interface CardDetails {
  patients: DashboardPatient[];
  history: DashboardHistoryEntry[];
  fileCorrections: FileCorrectionEntry[];
  packing: PackingEntry | null;
  /** A payment of the order succeeded at some time (so it may never be deleted, DESIGN §4.7). */
  everPaid: boolean;
  /** The number of the unpaid invoice a pending order waits to be paid by bank transfer (ADR 072), or null. */
  transferInvoice: string | null;
  /** The clinic's messages the lab has not opened (ADR 104). */
  unread: number;
}

/** One order as its card shows it, on the dashboard and on the order's own page. */
export function cardOf(order: CardColumns, details: CardDetails) {
  return {
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
    /** Waits for a bank transfer against this invoice, not for a card (ADR 072). */
    transferInvoice: details.transferInvoice,
    unread: details.unread,
    /** Never paid: deletion allowed (DESIGN §4.7). */
    deletable: !isPaid(order.status) && order.paid_at === null && !details.everPaid,
    patients: details.patients,
    history: details.history,
    fileCorrections: details.fileCorrections,
    packing: details.packing,
    /** On the dashboard, the history folded to its latest entry and its count (ADR 100); null on the order's own page. */
    folded: null as FoldedHistory | null,
  };
}

export type DashboardOrder = ReturnType<typeof cardOf>;

/** A row of the table view: what it shows and no more, so its page reads no card's details. */
export interface DashboardRow {
  id: string;
  status: OrderStatus;
  createdAt: string;
  fullName: string | null;
  email: string | null;
  total: number | null;
  currency: Currency;
  paidAt: string | null;
  patientCount: number;
  /** The clinic: the company its latest invoice names, else the account's e-mail (not the delivery's recipient). */
  clinic: string | null;
  transferInvoice: string | null;
  /** The clinic's messages the lab has not opened (ADR 104). */
  unread: number;
}

/**
 * The cards of the orders on a page: their history, packing mark and payments came with the page's
 * rows; their patients and file corrections are read here, one query each for the page, and fail on
 * their own (staff side §8: the orders still show, with empty patient lists and the spec's message).
 */
async function cardsOf(db: DB, orders: ReadonlyArray<CardColumns & CardRecords>) {
  const ids = orders.map((order) => order.id);
  const [patientsSection, correctionsSection] = ids.length
    ? await Promise.all([
        loadSection("back-office: loading the patients of orders", { message: "failures.patients" }, () => patientCardsOf(db, ids)),
        // Staff's corrections of the files' jaw and step belong to the order's history too (ADR 058);
        // they name the patient's folder, so they fail with the patients and say so with them.
        loadSection("back-office: loading the file corrections of orders", { message: "failures.patients" }, () => fileCorrectionsOf(db, ids)),
      ])
    : [{ ok: true as const, data: [] }, { ok: true as const, data: [] }];
  const patients = sectionData(patientsSection, []);
  const fileCorrections = sectionData(correctionsSection, []);
  return {
    patientsFailure: sectionFailure(patientsSection),
    // A card on the dashboard sends and shows its latest history entry only; the order's page has all (ADR 100).
    cards: orders.map((order) =>
      foldHistory(cardOf(order, {
        patients: patients.filter((patient) => patient.order_id === order.id).map(patientCard),
        history: historyEntries(
          order.history.map((entry) => ({ ...entry, created_at: new Date(entry.created_at) })),
          order.status,
        ),
        fileCorrections: fileCorrections.filter((entry) => entry.orderId === order.id),
        // The packer's "Упаковано" is part of the order's history too (ADR 068).
        packing: order.packing ? { orderId: order.id, at: new Date(order.packing.created_at).toISOString(), actor: order.packing.actor, from: order.packing.from_status, to: order.packing.to_status, missingBags: order.packing.missing_bags, reason: order.packing.missing_reason } : null,
        everPaid: order.ever_paid,
        transferInvoice: order.transfer_invoice,
        unread: order.lab_unread ?? 0,
      })),
    ),
  };
}

/**
 * One page of the dashboard in its view: cards with their details, or table rows that only need the
 * page's own query (it counts each order's patients).
 */
export async function listDashboardOrders(
  db: DB,
  filter: DashboardFilter,
): Promise<{ hasMore: boolean; cursors: { next: string | null; previous: string | null }; patientsFailure: SectionFailure | null; cards: DashboardOrder[]; rows: DashboardRow[] }> {
  const { orders, hasMore, cursors } = await workListPage(
    db,
    { ...workListFilter(filter), statuses: tabStatuses(filter.tab), waitingOnLab: filter.tab === "waiting", search: filter.search, ...tabOrder(filter.tab, filter.sort, filter.dir), page: filter.page, after: filter.after, before: filter.before },
    DASHBOARD_PAGE_SIZE,
    { cards: filter.view === "cards" },
  );
  if (filter.view === "table") {
    const rows: DashboardRow[] = orders.map((order) => ({
      id: order.id,
      status: order.status,
      createdAt: order.created_at.toISOString(),
      fullName: order.full_name,
      email: order.email,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency as Currency,
      paidAt: order.paid_at ? order.paid_at.toISOString() : null,
      patientCount: order.patient_count ?? 0, // always read without `cards`
      ...{ clinic: order.invoice_company || order.email || order.full_name, transferInvoice: order.transfer_invoice },
      unread: order.lab_unread ?? 0,
    }));
    return { hasMore, cursors, patientsFailure: null, cards: [], rows };
  }
  return { hasMore, cursors, ...(await cardsOf(db, orders.map((order) => ({ ...order, history: order.history ?? [], packing: order.packing ?? null, ever_paid: order.ever_paid ?? false, lab_unread: order.lab_unread })))), rows: [] };
}

/** A patient's card: its choices and how many files of each kind (null: skipped). */
export function patientCard(patient: Awaited<ReturnType<typeof patientCardsOf>>[number]): DashboardPatient {
  return {
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
  };
}

/** An order's patients with all their files, for staff to open and download (the order card shows their counts). */
export async function listOrderFiles(db: DB, orderId: string): Promise<PatientFiles[]> {
  const patients = await listPatients(db, orderId);
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
              // The PLY or OBJ as the doctor sent it, beside the STL the factory gets (ADR 102).
              ...(file.source ? { sourceUrl: `/files/orders/${file.source.storagePath}` } : {}),
              size: Number(file.size) || 0,
              scan: (file as RecordedFile).scan ?? null,
              storagePath: file.storagePath,
              facts: declaredOrGuessed({ name: file.originalName, ...file }),
            })),
      ]),
    ) as Record<FileType, DashboardFile[] | null>,
  }));
}
