import { Readable } from "node:stream";
import type { DataStore, Upload } from "@tus/server";
import type { FileType } from "~db/schema";
import { getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { isUuid, orderColumns } from "~/modules/orders/orders.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { appendFiles, orderFileUsage, recordedUpload } from "~/modules/orders/files.server";
import { listPatients } from "~/modules/orders/patients.server";
import { clinicRoom } from "~/modules/orders/order-senders.server";
import { OrderFrozenError } from "~/modules/orders/drafts.server";
import { isFileType, sourceKeyOf, storageKey, storedFileName } from "./file-names";
import { type MeshFormat, meshFormatOf, refusalOf } from "./mesh";
import { SOURCE_CONTENT_TYPES, storeConvertedStl } from "./mesh-store.server";
import { discardUnrecorded } from "./unrecorded.server";
import { createMeshScanner, type ScanSummary } from "./scan";
import { GZIP_CHUNK_BYTES, GZIP_ENCODING } from "./gzip-members";
import { PACKED_ENCODING } from "./stl-pack";
import { CompressedUploadError, inflateMembers } from "./gzip-members.server";
import { logger } from "~/modules/log/logger.server";
import { countUploadBytes } from "~/modules/metrics/count.server";

/**
 * A resumable upload's metadata and refusals, and its finishing step: the complete file copied to
 * its storage key through the content check and the scan (a compressed upload restored on the way),
 * then recorded. The tus server's wiring and its checks of each request are in tus.server.ts.
 */

export interface UploadMetadata {
  filename: string;
  orderId: string;
  patientId: string;
  type: FileType;
  uploadKey: string;
  /**
   * A compressed upload (ADR 033): the body is the file as gzip members, its length deferred;
   * `fileSize` is the size of the file the doctor chose, which every check counts. `packed`: an
   * upload of encoding stl-pack, whose members may also be packed STL chunks (ADR 045).
   */
  compressed: { fileSize: number; packed: boolean } | null;
}

/** What the browser gets when an upload ends: the recorded file, or why it was refused. */
export type FinishReply = { ok: true; file: { name: string; path: string; size: number; triangles: number; scan: ScanSummary | null } } | { ok: false; error: UploadRefusal; fileType?: FileType };

/** "save": the database refused to record a complete file in its list ("Ошибка сохранения", customer side §8). */
export type UploadRefusal = "format" | "size" | "not_stl" | "truncated" | "empty" | "points_only" | "bad_index" | "not_mesh" | "quota" | "clinic_quota" | "too_many" | "rate_limited" | "daily_limit" | "frozen" | "no_patient" | "skipped" | "gone" | "save" | "damaged" | "mismatch";

/** A refusal in the shape @tus/server sends back: the status and a JSON body the page reads. */
export class Refusal {
  readonly body: string;
  constructor(readonly error: UploadRefusal, readonly status_code: number, readonly fileType?: FileType) {
    this.body = JSON.stringify({ ok: false, error, ...(fileType ? { fileType } : {}) } satisfies FinishReply);
  }
}

export function readMetadata(metadata: Upload["metadata"]): UploadMetadata | null {
  const value = (name: string) => metadata?.[name] ?? "";
  const filename = value("filename");
  const orderId = value("orderId");
  const patientId = value("patientId");
  const type = value("type");
  const uploadKey = value("uploadKey");
  const encoding = value("encoding");
  const fileSize = value("fileSize");
  if (!filename || filename.length > 255 || !isUuid(orderId) || !isUuid(patientId) || !isFileType(type) || !/^[0-9a-zA-Z-]{8,64}$/.test(uploadKey)) return null;
  if (encoding && ((encoding !== GZIP_ENCODING && encoding !== PACKED_ENCODING) || !/^[0-9]{1,12}$/.test(fileSize))) return null;
  return { filename, orderId, patientId, type, uploadKey, compressed: encoding ? { fileSize: Number(fileSize), packed: encoding === PACKED_ENCODING } : null };
}

/** The size of the file itself: the announced one of a compressed upload, else the upload's length. */
export const fileSizeOf = (meta: UploadMetadata, upload: Upload): number | undefined => (meta.compressed ? meta.compressed.fileSize : upload.size);
/** Both stores can read a complete upload back, though DataStore does not declare it. */
export type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

export interface TusDeps {
  db: () => Promise<DB>;
  storage: () => FileStorage;
  datastore: ReadableDataStore;
}

/**
 * The finishing step of a complete upload: copy it to its storage key through the content check
 * and the scan (nothing is stored when the check fails), record it, drop the parts. Safe to run
 * again for the same upload: a file with the same upload key is recorded once.
 */
export async function finishUpload(deps: TusDeps, upload: Upload): Promise<FinishReply> {
  const meta = readMetadata(upload.metadata);
  if (!meta) throw new Refusal("gone", 400);
  const db = await deps.db();
  const storage = deps.storage();
  const drop = () => deps.datastore.remove(upload.id).catch(() => undefined);
  const refuse = async (error: UploadRefusal, status = 422): Promise<never> => {
    await drop();
    throw new Refusal(error, status, error === "save" ? meta.type : undefined);
  };

  const patients = await listPatients(db, meta.orderId);
  const patient = patients.find((candidate) => candidate.id === meta.patientId);
  if (!patient) return refuse("no_patient", 404);
  const earlier = await recordedUpload(db, patient.id, meta.type, [meta.uploadKey]);
  if (earlier) {
    await drop();
    return { ok: true, file: { name: earlier.originalName, path: earlier.storagePath, size: earlier.size, triangles: earlier.triangles ?? 0, scan: earlier.scan ?? null } };
  }
  const order = await orderColumns(db, meta.orderId, ["id", "code", "status", "started_by"]);
  if (!order) return refuse("gone", 404);
  if (order.status !== "draft") return refuse("frozen", 409);
  const size = fileSizeOf(meta, upload) ?? 0;
  const usage = await orderFileUsage(db, order.id);
  const { orderMaxBytes, orderMaxFiles } = getConfig().uploads;
  if (usage.files + 1 > orderMaxFiles) return refuse("too_many");
  if (usage.bytes + size > orderMaxBytes) return refuse("quota");
  // Checked again now that it is complete: other uploads of the clinic may have finished meanwhile (ADR 082).
  if (size > (await clinicRoom(db, order.started_by))) return refuse("clinic_quota");

  const named = meshFormatOf(meta.filename);
  if (!named) return refuse("format", 415);
  const format: MeshFormat = named;
  // A PLY or OBJ is stored as sent beside the binary STL made from it, which `key` names (ADR 102).
  const sourceOf = (stlKey: string) => (format === "stl" ? stlKey : sourceKeyOf(stlKey, format));
  let key = storageKey(order.id, patient.folder_name, meta.type, storedFileName(meta.filename, new Date()));
  // Never overwrite a file another upload stored in the same millisecond under the same name.
  while ((await storage.head("orders", key)) || (format !== "stl" && (await storage.head("orders", sourceOf(key))))) key = storageKey(order.id, patient.folder_name, meta.type, storedFileName(meta.filename, new Date(Date.now() + 1)));
  const sourceKey = sourceOf(key);
  const keys = format === "stl" ? [key] : [sourceKey, key];

  // The whole upload has arrived: its bytes as they came over the wire (compressed ones compressed).
  countUploadBytes(meta.compressed ? (meta.compressed.packed ? "packed" : "gzip") : "plain", upload.offset);
  const scanner = createMeshScanner(format);
  let refused: UploadRefusal | null = null;
  const source = await deps.datastore.read(upload.id);
  // Parts that are gone by now (another request finished this upload a moment ago, after a dropped
  // connection) fail the read as an error event, possibly before anything reads the stream: kept
  // here, so it never stops the process, and answered below as the storage trouble it is.
  let sourceFailed: unknown = null;
  source.on("error", (error) => {
    sourceFailed ??= error;
  });
  // A compressed upload is restored member by member on its way to storage: what is stored is the chosen file.
  const file: AsyncIterable<Uint8Array> = meta.compressed ? inflateMembers(source, size, GZIP_CHUNK_BYTES, { packed: meta.compressed.packed }) : source;
  async function* checked() {
    try {
      for await (const chunk of file) {
        scanner.update(chunk);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof CompressedUploadError) {
        refused = error.reason;
        logger.warn(`compressed upload refused (${error.reason}): ${error.message}`);
      }
      throw error;
    }
    const { verdict } = scanner.finish();
    // Failing before the end of the body makes the put fail: a refused file is never stored.
    if (!verdict.ok) {
      refused = refusalOf(format, verdict.reason);
      throw new Error(`not a model file (${verdict.reason})`);
    }
  }
  const body = Readable.from(checked(), { objectMode: false, highWaterMark: 64 * 1024 });
  try {
    await storage.put("orders", sourceKey, body, { contentType: SOURCE_CONTENT_TYPES[format], contentLength: size });
    if (sourceFailed) {
      await storage.delete("orders", [sourceKey], { unrecorded: true }).catch(() => undefined);
      throw sourceFailed;
    }
  } catch (error) {
    if (refused) return refuse(refused);
    throw error; // storage trouble: the parts stay, the browser asks again (uploads.finish)
  } finally {
    body.destroy();
    source.destroy();
  }

  const { verdict, scan } = scanner.finish();
  const triangles = verdict.ok ? verdict.triangles : 0;
  if (format !== "stl") {
    try {
      await storeConvertedStl(storage, "orders", sourceKey, key, format, triangles);
    } catch (error) {
      await storage.delete("orders", keys, { unrecorded: true }).catch(() => undefined);
      throw error; // storage trouble: the parts stay, the browser asks again (uploads.finish)
    }
  }
  const kept = format === "stl" ? {} : { source: { key: sourceKey, format } };
  let outcome: "recorded" | "duplicate";
  try {
    // Started before a confirmed skip of its step, it lands set aside (ADR 087).
    const startedAt = upload.creation_date ? new Date(upload.creation_date) : new Date();
    outcome = await appendFiles(db, order, patient, meta.type, [{ originalName: meta.filename, key, size, triangles, scan, uploadKey: meta.uploadKey, ...kept }], startedAt);
  } catch (error) {
    await discardUnrecorded(db, storage, order.id, keys, error);
    if (error instanceof OrderFrozenError) return refuse("frozen", 409);
    if (isDatabaseUnavailable(error)) throw error; // an outage: the parts stay, the browser asks again
    // A refused statement: said as the plain form says it, and nothing is kept (the file is chosen again).
    logger.error("resumable upload not recorded:", error);
    return refuse("save", 500);
  }
  if (outcome === "duplicate") {
    await storage.delete("orders", keys, { unrecorded: true }).catch(() => undefined);
    const recorded = await recordedUpload(db, patient.id, meta.type, [meta.uploadKey]);
    await drop();
    return { ok: true, file: { name: meta.filename, path: recorded?.storagePath ?? key, size, triangles, scan: recorded?.scan ?? scan } };
  }
  await drop();
  return { ok: true, file: { name: meta.filename, path: key, size, triangles, scan } };
}
