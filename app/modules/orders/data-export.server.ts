import { crc32 } from "node:zlib";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { sql } from "kysely";
import type { FileInfo } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import type { FileStorage } from "~/modules/storage/types";
import { longOrderNumber } from "./orders.server";

/**
 * A clinic's own data as one download (ADR 078; GDPR art. 15 and 20): `data.json` with its account,
 * every order on its address with patients, file list, status history and payments, and — when
 * asked — the stored models themselves under `files/`. Written as a stream: the orders are read
 * EXPORT_BATCH at a time and each file is piped from storage, so a clinic of thousands of orders
 * costs a batch of memory, not its history.
 */

/** Orders read per query while the archive is written. */
const EXPORT_BATCH = 200;
/**
 * The archive is a plain ZIP (no ZIP64, which some unpackers still refuse): the models it carries
 * stay under 4 GiB together. Past this, a file is listed with its address but left out of the archive.
 */
export const FILES_IN_ARCHIVE_MAX = 3.5 * 1024 ** 3;

type FileKind = "matrix" | "aligner" | "retainer";

export interface ExportedFile {
  kind: FileKind;
  name: string;
  size: number;
  jaw: "upper" | "lower" | null;
  step: number | null;
  uploadedAt: string | null;
  /** Where the signed-in clinic downloads it. */
  url: string;
  /** Its place in this archive, or null when the archive was asked without files or is full. */
  inArchive: string | null;
}

export interface ExportedOrder {
  id: string;
  number: string;
  status: string;
  market: string;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  contacts: { fullName: string | null; email: string | null; phone: string | null; address: string | null; deliveryComment: string | null };
  comments: string | null;
  total: number | null;
  tracking: { carrier: string | null; number: string | null };
  parcelReceivedAt: string | null;
  patients: Array<{ name: string; comment: string | null; files: ExportedFile[] }>;
  history: Array<{ from: string | null; to: string; at: string }>;
  /** The order's thread with the lab (ADR 104), without the lab's own notes. */
  messages: Array<{ from: "clinic" | "lab"; at: string; text: string }>;
  payments: Array<{ provider: string; status: string; amount: number; currency: string; createdAt: string; invoiceId: string | null; receiptUrl: string | null }>;
}

/**
 * A model stored as it is, its checksum made by Node's native CRC-32: fflate's own, a byte at a time
 * in JavaScript, cost 2.5 ms of CPU a MiB, a third of what an export with files cost (ADR 082).
 */
class StoredModel extends ZipPassThrough {
  private checksum = 0;
  override push(chunk: Uint8Array, final = false) {
    this.checksum = crc32(chunk, this.checksum);
    this.size += chunk.length;
    if (final) this.crc = this.checksum;
    this.process(chunk as Uint8Array<ArrayBuffer>, final);
  }
}

/**
 * A model's bytes in pieces of about a MiB, whatever the storage gives (64 KiB from a file, a TLS
 * record's 16 KiB from S3): each piece costs the archive, the pace and the socket one step, and at a
 * paced export's rate those steps, not the bytes, were most of its CPU (ADR 082).
 */
async function* inPieces(body: AsyncIterable<Buffer>, pieceBytes = 1024 * 1024): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    parts.push(chunk);
    size += chunk.length;
    if (size < pieceBytes) continue;
    yield parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    parts = [];
    size = 0;
  }
  if (size > 0) yield Buffer.concat(parts, size);
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** One batch of the clinic's orders after `after` (oldest first), with everything the archive says of them. */
async function orderBatch(db: DB, email: string, after: { createdAt: string; id: string } | null) {
  let query = db
    .selectFrom("orders")
    .selectAll()
    // The time as the database wrote it (microseconds kept): the next batch starts right after it.
    .select(sql<string>`orders.created_at::text`.as("cursor_time"))
    .where("email", "=", email);
  if (after) query = query.where(sql<boolean>`(orders.created_at, orders.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  const orders = await query.orderBy("created_at").orderBy("id").limit(EXPORT_BATCH).execute();
  const ids = orders.map((order) => order.id);
  if (ids.length === 0) return { orders, patients: [], history: [], payments: [], messages: [] };
  const [patients, history, payments, messages] = await Promise.all([
    db.selectFrom("orders_patients").selectAll().where("order_id", "in", ids).orderBy("created_at").orderBy("id").execute(),
    db.selectFrom("order_status_history").select(["order_id", "from_status", "to_status", "created_at"]).where("order_id", "in", ids).orderBy("created_at").orderBy("id").execute(),
    db.selectFrom("payments").select(["order_id", "provider", "status", "amount", "currency", "created_at", "invoice_id", "receipt"]).where("order_id", "in", ids).orderBy("created_at").execute(),
    // The clinic's correspondence with the lab; a lab note is never the clinic's to receive.
    db.selectFrom("order_messages").select(["order_id", "author_side", "body", "created_at"]).where("order_id", "in", ids).where("lab_only", "=", false).orderBy("order_id").orderBy("id").execute(),
  ]);
  return { orders, patients, history, payments, messages };
}

/** The clinic's account as the service keeps it. */
async function accountOf(db: DB, email: string) {
  const user = await db.selectFrom("users").select(["created_at", "last_sign_in_at"]).where("email", "=", email).executeTakeFirst();
  return { email, createdAt: iso(user?.created_at ?? null), lastSignInAt: iso(user?.last_sign_in_at ?? null) };
}

const encoder = new TextEncoder();

/** Why an archive's stream was cancelled when its reader went away or stopped taking it: the export stops, and nothing failed. */
export class ReaderGone extends Error {
  constructor(why: string) {
    super(`The archive's reader ${why}`);
    this.name = "ReaderGone";
  }
}

/**
 * The archive as a byte stream: `data.json` first (its file entries say what follows), then the
 * files when `withFiles`. The stream waits for its reader (a slow connection holds the storage read,
 * not memory); a storage failure ends it broken, which the browser shows as a failed download.
 */
export interface ExportOptions {
  withFiles: boolean;
  now?: Date;
  /** The reader went away: a failure after it is no failure of ours. */
  signal?: AbortSignal;
  /**
   * Waited for before each piece of a model is read (ADR 082): the export's turn paces it there, at
   * the source, so no piece waits in a queue — a piece that waits outlives the young generation and
   * is only freed by a full collection, which at a paced rate cost more than the bytes themselves.
   */
  beforePiece?: (bytes: number) => Promise<void>;
}

export function exportClientData(db: DB, storage: FileStorage, email: string, options: ExportOptions): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 8 });
  const writer = writable.getWriter();
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      void writer.abort(error).catch(() => undefined);
      return;
    }
    void writer.write(chunk).catch(() => undefined);
    if (final) void writer.close().catch(() => undefined);
  });

  const write = async () => {
    const queued: Array<{ key: string; path: string }> = [];
    let queuedBytes = 0;
    const json = new ZipDeflate("data.json", { level: 6 });
    zip.add(json);
    const push = async (text: string) => {
      json.push(encoder.encode(text));
      await writer.ready;
    };
    await push(`{"exportedAt":${JSON.stringify((options.now ?? new Date()).toISOString())},"account":${JSON.stringify(await accountOf(db, email))},"orders":[`);
    let after: { createdAt: string; id: string } | null = null;
    let first = true;
    for (;;) {
      const batch = await orderBatch(db, email, after);
      if (batch.orders.length === 0) break;
      for (const order of batch.orders) {
        const files = (info: FileInfo[], kind: FileKind): ExportedFile[] =>
          info.map((file) => {
            const fits = options.withFiles && queuedBytes + file.size <= FILES_IN_ARCHIVE_MAX;
            // The file as the doctor sent it: a PLY or OBJ rather than the STL made from it (ADR 102).
            const key = file.source?.storagePath ?? file.storagePath;
            const path = fits ? `files/${key}` : null;
            if (path) {
              queued.push({ key, path });
              queuedBytes += file.size;
            }
            return { kind, name: file.originalName, size: file.size, jaw: file.jaw ?? null, step: file.stepNumber ?? null, uploadedAt: file.uploadedAt ?? null, url: file.url, inArchive: path };
          });
        const exported: ExportedOrder = {
          id: order.id,
          number: longOrderNumber(order.id),
          status: order.status,
          market: order.market,
          currency: order.currency,
          createdAt: iso(order.created_at)!,
          paidAt: iso(order.paid_at),
          contacts: { fullName: order.full_name, email: order.email, phone: order.phone, address: order.address, deliveryComment: order.delivery_comment },
          comments: order.additional_comments,
          total: order.total_cost === null ? null : Number(order.total_cost),
          tracking: { carrier: order.carrier, number: order.tracking_number },
          parcelReceivedAt: iso(order.parcel_received_at),
          patients: batch.patients
            .filter((patient) => patient.order_id === order.id)
            .map((patient) => ({
              name: patient.patient_name,
              comment: patient.additional_comments,
              files: [...files(patient.matrix_files_info, "matrix"), ...files(patient.aligner_files_info, "aligner"), ...files(patient.retainer_files_info, "retainer")],
            })),
          history: batch.history.filter((change) => change.order_id === order.id).map((change) => ({ from: change.from_status, to: change.to_status, at: iso(change.created_at)! })),
          messages: batch.messages.filter((message) => message.order_id === order.id).map((message) => ({ from: message.author_side, at: iso(message.created_at)!, text: message.body })),
          payments: batch.payments
            .filter((payment) => payment.order_id === order.id)
            .map((payment) => ({ provider: payment.provider, status: payment.status, amount: Number(payment.amount), currency: payment.currency, createdAt: iso(payment.created_at)!, invoiceId: payment.invoice_id, receiptUrl: payment.receipt?.url ?? null })),
        };
        await push(`${first ? "" : ","}${JSON.stringify(exported)}`);
        first = false;
      }
      const last = batch.orders[batch.orders.length - 1]!;
      after = { createdAt: last.cursor_time, id: last.id };
      if (batch.orders.length < EXPORT_BATCH) break;
    }
    json.push(encoder.encode("]}"), true);
    await writer.ready;

    for (const file of queued) {
      const object = await storage.get("orders", file.key);
      // A file the list names but storage no longer holds: its entry is simply absent.
      if (!object) continue;
      const entry = new StoredModel(file.path);
      zip.add(entry);
      for await (const piece of inPieces(object.body)) {
        await options.beforePiece?.(piece.length);
        entry.push(piece);
        await writer.ready;
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  };
  write().catch((error: unknown) => {
    // A browser that closed or stalled the download is no failure of ours.
    if (options.signal?.aborted || error instanceof ReaderGone) logger.info("cabinet: a data export ended when its reader went away");
    else logger.error("cabinet: writing a data export failed:", error);
    void writer.abort(error).catch(() => undefined);
  });
  return readable;
}
