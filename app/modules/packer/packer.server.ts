import type { ExpressionBuilder } from "kysely";
import { type Database, FILE_TYPES, type FileType, type OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { foundBySearch } from "~/modules/orders/order-search.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { getStorage } from "~/modules/storage/storage.server";
import { filesOf } from "~/modules/orders/files.server";
import { comparePatientFolders } from "./bag-labels";
import { declaredOrGuessed, type FileFacts } from "~/modules/orders/declaration";
import { type PackerFilter, TO_PACK, PACKER_PAGE_SIZE } from "./filter";
import { packingsOf } from "./packing.server";
import { isLogoFolder, logoFolder, logoKey } from "./logo-names.server";

/**
 * What the packer station reads (DESIGN §4.25): non-draft orders with their number, client, address,
 * patients and file names — never prices, payments, phones, comments or anything else of the
 * back-office. Every query here selects its columns by name for that reason.
 */

/** The built-in logo, for clients without one (public/packer-logo.svg). */
export const DEFAULT_LOGO_URL = "/packer-logo.svg";

/** A file as packers read it: its name and the jaw and step its labels print (ADR 058), `guessed` while only read from the name. */
export interface PackerFile extends FileFacts {
  name: string;
}

export interface PackerPatient {
  name: string;
  folder: string;
  /** Files per kind, in upload order. */
  files: Record<FileType, PackerFile[]>;
}

export interface PackerOrder {
  id: string;
  /** 4 characters, as packers and labels show it (DESIGN §4.6). */
  number: string;
  /** The order code naming its folder on the production file server. */
  code: string;
  status: OrderStatus;
  client: string | null;
  email: string | null;
  address: string | null;
  /** Sorted by the numeric prefix of the folder name. */
  patients: PackerPatient[];
}

const ORDER_COLUMNS = ["orders.id", "orders.code", "orders.status", "orders.full_name", "orders.email", "orders.address"] as const;

async function patientsOf(db: DB, orderIds: string[]): Promise<Map<string, PackerPatient[]>> {
  const byOrder = new Map<string, PackerPatient[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom("orders_patients")
    .select(["order_id", "patient_name", "folder_name", "matrix_files_info", "aligner_files_info", "retainer_files_info"])
    .where("order_id", "in", orderIds)
    .orderBy("created_at")
    .execute();
  for (const row of rows) {
    const files = Object.fromEntries(
      FILE_TYPES.map((type) => [type, filesOf(row, type).map((file): PackerFile => ({ name: file.originalName, ...declaredOrGuessed({ name: file.originalName, ...file }) }))]),
    ) as Record<FileType, PackerFile[]>;
    byOrder.get(row.order_id)?.push({ name: row.patient_name, folder: row.folder_name, files });
  }
  for (const patients of byOrder.values()) patients.sort((a, b) => comparePatientFolders(a.folder, b.folder));
  return byOrder;
}

/** An order of the packer's list: when it was marked packed, and whether it can be (ADR 068). */
export interface PackerListOrder extends PackerOrder {
  packedAt: string | null;
  canPack: boolean;
}

type OrderRow = { id: string; code: string; status: OrderStatus; full_name: string | null; email: string | null; address: string | null };

function toPackerOrder(row: OrderRow, patients: PackerPatient[]): PackerOrder {
  return { id: row.id, number: shortOrderNumber(row.id), code: row.code, status: row.status, client: row.full_name, email: row.email, address: row.address, patients };
}

/** Non-draft orders, newest first, filtered by order number, client or patient and by status; one page. */
export async function listPackerOrders(db: DB, filter: PackerFilter): Promise<{ orders: PackerListOrder[]; hasMore: boolean }> {
  const filtered = () => {
    let query = db.selectFrom("orders").where("orders.status", "!=", "draft");
    if (filter.view !== "all") {
      // The orders to pack and the packed ones waiting to go: paid or in work, with or without the mark.
      const packed = (eb: ExpressionBuilder<Database, "orders">) => eb.exists(eb.selectFrom("order_packings").select("order_packings.id").whereRef("order_packings.order_id", "=", "orders.id"));
      query = query.where("orders.status", "in", TO_PACK).where((eb) => (filter.view === "packed" ? packed(eb) : eb.not(packed(eb))));
    }
    if (filter.status) query = query.where("orders.status", "=", filter.status);
    return query;
  };
  const offset = (filter.page - 1) * PACKER_PAGE_SIZE;
  let query = filtered().select(ORDER_COLUMNS);
  // The back-office's search without the phone; each way of matching reads at most this page (ADR 042).
  if (filter.q) query = query.where(await foundBySearch(db, filter.q, { phone: false, narrowBase: filter.view !== "all" }, filtered, offset + PACKER_PAGE_SIZE + 1));
  const rows = await query
    .orderBy("orders.created_at", "desc")
    .orderBy("orders.id")
    .limit(PACKER_PAGE_SIZE + 1)
    .offset(offset)
    .execute();
  const page = rows.slice(0, PACKER_PAGE_SIZE);
  const ids = page.map((row) => row.id);
  const [patients, packings] = await Promise.all([patientsOf(db, ids), packingsOf(db, ids)]);
  const packedAt = new Map(packings.map((packing) => [packing.orderId, packing.at]));
  return {
    orders: page.map((row) => ({ ...toPackerOrder(row, patients.get(row.id) ?? []), packedAt: packedAt.get(row.id) ?? null, canPack: TO_PACK.includes(row.status) && !packedAt.has(row.id) })),
    hasMore: rows.length > PACKER_PAGE_SIZE,
  };
}

/** One non-draft order for its labels; null for a draft, an unknown id or something that is not an id. */
export async function getPackerOrder(db: DB, orderId: string): Promise<PackerOrder | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return null;
  const row = await db.selectFrom("orders").select(ORDER_COLUMNS).where("orders.id", "=", orderId).where("orders.status", "!=", "draft").executeTakeFirst();
  if (!row) return null;
  const patients = await patientsOf(db, [row.id]);
  return toPackerOrder(row, patients.get(row.id) ?? []);
}

/** The logo URL of each e-mail: the stored logo (versioned by its time, so a replaced logo shows at once), else the built-in one. */
export async function logoUrls(emails: Iterable<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set([...emails].filter((email): email is string => Boolean(email)))];
  const urls = new Map<string, string>();
  if (wanted.length === 0) return urls;
  const stored = new Map((await getStorage().list("logos")).map((object) => [object.key, object.lastModified.getTime()]));
  for (const email of wanted) {
    const version = stored.get(logoKey(email));
    urls.set(email, version === undefined ? DEFAULT_LOGO_URL : `/packer/logos/${logoFolder(email)}?v=${version}`);
  }
  return urls;
}

/** The storage key behind a logo URL's folder, or null when the folder is not one `logoFolder` makes. */
export function logoKeyOfFolder(folder: string): string | null {
  if (!isLogoFolder(folder)) return null;
  return `${folder}/${folder.slice(0, -9)}`;
}

/** The logo URL of one client (box label): the stored logo, else the built-in one. */
export async function logoUrl(email: string | null): Promise<string> {
  if (!email) return DEFAULT_LOGO_URL;
  const stored = await getStorage().head("logos", logoKey(email));
  return stored ? `/packer/logos/${logoFolder(email)}?v=${stored.lastModified.getTime()}` : DEFAULT_LOGO_URL;
}
