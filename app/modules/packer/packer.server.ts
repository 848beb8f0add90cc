import { FILE_TYPES, type FileType, type OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { packerOrder, packerOrderPage, packerPatients } from "~/modules/orders/packer-orders.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { getStorage } from "~/modules/storage/storage.server";
import { filesOf } from "~/modules/orders/files.server";
import { comparePatientFolders, LABEL_KINDS } from "./bag-labels";
import { declaredOrGuessed, type FileFacts } from "~/modules/orders/declaration";
import { type PackerFilter, TO_PACK, PACKER_PAGE_SIZE } from "./filter";
import { packingsOf } from "./packing.server";
import { isLogoFolder, logoFolder, logoKey } from "./logo-names.server";

/**
 * What the packer station reads (DESIGN §4.25): non-draft orders with their number, client, address,
 * patients and file names — never prices, payments, phones, comments or anything else of the
 * back-office. The order data's queries (orders/packer-orders.server.ts) select their columns by
 * name for that reason.
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

async function patientsOf(db: DB, orderIds: string[]): Promise<Map<string, PackerPatient[]>> {
  const byOrder = new Map<string, PackerPatient[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await packerPatients(db, orderIds);
  for (const row of rows) {
    const files = Object.fromEntries(
      FILE_TYPES.map((type) => [type, filesOf(row, type).map((file): PackerFile => ({ name: file.originalName, ...declaredOrGuessed({ name: file.originalName, ...file }) }))]),
    ) as Record<FileType, PackerFile[]>;
    byOrder.get(row.order_id)?.push({ name: row.patient_name, folder: row.folder_name, files });
  }
  for (const patients of byOrder.values()) patients.sort((a, b) => comparePatientFolders(a.folder, b.folder));
  return byOrder;
}

const hasBagFiles = (patients: PackerPatient[]) => patients.some((patient) => LABEL_KINDS.some((kind) => patient.files[kind].length > 0));

/** An order of the packer's list: when it was marked packed, and whether it can be (ADR 068). */
export interface PackerListOrder extends PackerOrder {
  packedAt: string | null;
  canPack: boolean;
  /** Its labels print bags, to be scanned on the order's page before "Упаковано" (ADR 103). */
  hasBags: boolean;
}

type OrderRow = { id: string; code: string; status: OrderStatus; full_name: string | null; email: string | null; address: string | null };

function toPackerOrder(row: OrderRow, patients: PackerPatient[]): PackerOrder {
  return { id: row.id, number: shortOrderNumber(row.id), code: row.code, status: row.status, client: row.full_name, email: row.email, address: row.address, patients };
}

/** The page of the packer's list the filter names: its order rows and cursors, without patients or packing marks. */
export function packerListPage(db: DB, filter: PackerFilter) {
  return packerOrderPage(db, { packed: filter.view === "all" ? null : filter.view === "packed", toPack: TO_PACK, status: filter.status, q: filter.q, after: filter.after, before: filter.before }, PACKER_PAGE_SIZE);
}

/** Non-draft orders, newest first, filtered by order number, client or patient and by status; one page. */
export async function listPackerOrders(db: DB, filter: PackerFilter): Promise<{ orders: PackerListOrder[]; hasMore: boolean; cursors: { next: string | null; previous: string | null } }> {
  const { rows: page, hasMore, cursors } = await packerListPage(db, filter);
  const ids = page.map((row) => row.id);
  const [patients, packings] = await Promise.all([patientsOf(db, ids), packingsOf(db, ids)]);
  const packedAt = new Map(packings.map((packing) => [packing.orderId, packing.at]));
  return {
    orders: page.map((row) => ({ ...toPackerOrder(row, patients.get(row.id) ?? []), packedAt: packedAt.get(row.id) ?? null, canPack: TO_PACK.includes(row.status) && !packedAt.has(row.id), hasBags: hasBagFiles(patients.get(row.id) ?? []) })),
    hasMore,
    cursors,
  };
}

/** One non-draft order for its labels; null for a draft, an unknown id or something that is not an id. */
export async function getPackerOrder(db: DB, orderId: string): Promise<PackerOrder | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return null;
  const row = await packerOrder(db, orderId);
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
