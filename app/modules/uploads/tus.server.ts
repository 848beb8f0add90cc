import { randomBytes } from "node:crypto";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import { type DataStore, Server, type Upload } from "@tus/server";
import type { AppLoadContext } from "@remix-run/node";
import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getClientAddress, getLocale } from "~/modules/http/request/request-context.server";
import { isUuid } from "~/modules/orders/orders.server";
import { limitedFor } from "~/modules/security/rate-limit.server";
import { getStorage } from "~/modules/storage/storage.server";
import { s3ClientOptions } from "~/modules/storage/s3-storage.server";
import { chargeAnnouncedFile, meteredRequest, uploadAllowanceOf, UploadVolumeExceeded, volumeMeter, type VolumeMeter } from "./upload-quota.server";
import { orderFileUsage, type RecordedFile, storedFilesOf } from "~/modules/orders/files.server";
import { listPatients } from "~/modules/orders/patients.server";
import { clinicOfOrder, clinicRoom } from "~/modules/orders/order-senders.server";
import { hasMeshExtension } from "./file-names";
import { maxCompressedBytes } from "./gzip-members";
import { openableOrder, uploadViewerOf, type UploadViewer } from "./tus-access.server";
import { fileSizeOf, type FinishReply, finishUpload, type ReadableDataStore, readMetadata, Refusal, type TusDeps } from "./tus-finish.server";
import { MAX_STL_FILE_BYTES } from "./upload-handler.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { localizeUploadAnswer, refusalAnswer } from "./answers.server";
import { logger } from "~/modules/log/logger.server";
import { uploadStepOf } from "~/modules/wizard/steps";
import { skipsOf } from "~/modules/wizard/navigation";
import type { Language } from "~/modules/i18n/languages";

/**
 * Resumable uploads (issue 4, ADR 017): the tus protocol at /uploads/tus, parts kept by
 * `@tus/file-store` (folder storage) or `@tus/s3-store` (S3) until the file is complete. Every
 * request is checked like the plain form (the order must be one this browser may open, the
 * patient of that order, `.stl`, `.ply` or `.obj`, ≤ 100 MiB declared — and so actual — size, the order's caps); the
 * bytes of every PATCH count against the sender's upload volume as they arrive (ADR 039); a complete upload is content-checked and scanned while it is copied to its
 * storage key, then recorded through `appendFiles`, the finishing step of the plain path too
 * (tus-finish.server.ts).
 */

export const TUS_PATH = "/uploads/tus";
/** S3's smallest part; the browser sends chunks of this size, so a dropped chunk costs at most this. */
export const TUS_PART_BYTES = 5 * 1024 * 1024;
/** An upload must complete within a day of its creation; the scheduled job removes the rest. */
export const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** Upload ids carry their order, so every request is checked without reading the upload first. */
const UPLOAD_ID = /^tus-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([0-9a-f]{32})$/;

export const orderIdOfUpload = (id: string): string | null => UPLOAD_ID.exec(id)?.[1] ?? null;

/** The loaders and actions of the tus route pass their context here (client IP for the hooks). */
const contexts = new WeakMap<Request, AppLoadContext | undefined>();

async function viewerOf(request: Request): Promise<UploadViewer> {
  return uploadViewerOf(request, contexts.get(request));
}

/** Where the parts wait: beside the folder storage's own .tmp and .meta, or in the orders bucket under `tus-…`. */
export function createDataStore(config: Pick<AppConfig, "storage" | "buckets">, expiryMs = TUS_EXPIRY_MS): ReadableDataStore {
  if (config.storage.kind === "folder") {
    return new FileStore({ directory: path.join(config.storage.dir, ".tus"), expirationPeriodInMilliseconds: expiryMs });
  }
  const s3 = config.storage;
  return new S3Store({
    partSize: TUS_PART_BYTES,
    expirationPeriodInMilliseconds: expiryMs,
    useTags: false,
    // The storage client's settings: checksums only where S3 demands them, connect and idle timeouts.
    s3ClientConfig: { bucket: config.buckets.orders, ...s3ClientOptions(s3) },
  });
}

/** The checks of a new upload, before anything is stored (the same rules as the plain form). */
async function checkNewUpload(db: DB, request: Request, upload: Upload): Promise<void> {
  const meta = readMetadata(upload.metadata);
  if (!meta) throw new Refusal("gone", 400);
  if (!hasMeshExtension(meta.filename)) throw new Refusal("format", 415);
  // A plain upload declares its length up front; a compressed one announces its file's size and defers the length.
  const size = fileSizeOf(meta, upload);
  if (size === undefined) throw new Refusal("size", 411);
  if (size > MAX_STL_FILE_BYTES) throw new Refusal("size", 413);
  if (size === 0) throw new Refusal("empty", 422);
  if (meta.compressed && upload.size !== undefined && upload.size > maxCompressedBytes(size)) throw new Refusal("size", 413);
  const viewer = await viewerOf(request);
  const order = await openableOrder(db, viewer, meta.orderId);
  if (!order) throw new Refusal("gone", 404);
  if (order.status !== "draft") throw new Refusal("frozen", 409);
  const patients = await listPatients(db, order.id);
  const patient = patients.find((candidate) => candidate.id === meta.patientId);
  if (!patient) throw new Refusal("no_patient", 404);
  // A step the doctor skipped and left takes no new file (ADR 057): an upload queued on it before the
  // skip, or a forged one, would put files in the order the doctor chose to leave out. On the step
  // itself (the doctor came back to it) files are taken.
  const step = uploadStepOf(meta.type);
  if (skipsOf(patient)[step.upload.skip.flag] && order.wizard_step !== step.number) throw new Refusal("skipped", 409);
  const usage = await orderFileUsage(db, order.id);
  const { orderMaxBytes, orderMaxFiles } = getConfig().uploads;
  if (usage.files + 1 > orderMaxFiles) throw new Refusal("too_many", 422);
  if (usage.bytes + size > orderMaxBytes) throw new Refusal("quota", 422);
  // What the clinic's unpaid orders hold together (ADR 082); checked again when the upload is complete.
  if (size > (await clinicRoom(db, await clinicOfOrder(db, order.id, viewer.isStaff ? null : viewer.userEmail)))) throw new Refusal("clinic_quota", 422);
  // A compressed upload stores its announced file, not its few bytes on the wire: that is what it
  // is charged, now (ADR 056); its chunks are not counted again. A plain one is counted as it arrives.
  const allowance = meta.compressed ? uploadAllowanceOf(viewer, getClientAddress(contexts.get(request))) : null;
  if (allowance) {
    try {
      await chargeAnnouncedFile(db, allowance, size);
    } catch (error) {
      if (error instanceof UploadVolumeExceeded) throw new Refusal(error.reason, 429);
      throw error;
    }
  }
}

/** The largest body of a compressed upload of a 100 MiB file that did not compress at all. */
const WIRE_LIMIT = maxCompressedBytes(MAX_STL_FILE_BYTES);
type WireFacts = { limit: number; compressed: boolean };
const wireFacts = new Map<string, WireFacts>();

/**
 * How many bytes an upload may carry: a compressed one no more than its announced file could take
 * compressed (so a small announced file cannot carry 100 MiB past the volume limits), a plain one
 * its declared length (checked when it was created). Kept per upload for the PATCHes that follow.
 */
async function wireFactsOf(datastore: DataStore, id: string | null): Promise<WireFacts> {
  if (!id || !orderIdOfUpload(id)) return { limit: WIRE_LIMIT, compressed: false }; // a new upload: its own checks follow
  const known = wireFacts.get(id);
  if (known !== undefined) return known;
  const upload = await datastore.getUpload(id).catch(() => null);
  if (!upload) return { limit: WIRE_LIMIT, compressed: false }; // the handler answers that it is gone
  const meta = readMetadata(upload.metadata);
  const facts = { limit: meta?.compressed ? Math.min(WIRE_LIMIT, maxCompressedBytes(meta.compressed.fileSize)) : WIRE_LIMIT, compressed: Boolean(meta?.compressed) };
  if (wireFacts.size >= 1000) wireFacts.clear();
  wireFacts.set(id, facts);
  return facts;
}

export function createTusServer(deps: TusDeps): Server {
  return new Server({
    path: TUS_PATH,
    datastore: deps.datastore,
    relativeLocation: true,
    maxSize: async (_request, id) => (await wireFactsOf(deps.datastore, id)).limit,
    namingFunction: (_request, metadata) => {
      const orderId = metadata?.orderId ?? "";
      if (!isUuid(orderId)) throw new Refusal("gone", 400);
      return `tus-${orderId.toLowerCase()}-${randomBytes(16).toString("hex")}`;
    },
    async onIncomingRequest(request, id) {
      const orderId = orderIdOfUpload(id);
      if (!orderId) throw new Refusal("gone", 404);
      if (request.method === "POST") return; // checked with the metadata in onUploadCreate
      const order = await openableOrder(await deps.db(), await viewerOf(request as unknown as Request), orderId);
      if (!order) throw new Refusal("gone", 404);
    },
    async onUploadCreate(request, upload) {
      await checkNewUpload(await deps.db(), request as unknown as Request, upload);
      return {};
    },
    async onUploadFinish(_request, upload) {
      const reply = await finishUpload(deps, upload);
      return { status_code: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(reply) };
    },
    onResponseError(request, error) {
      if (error instanceof Refusal) return { status_code: error.status_code, body: error.body };
      // The volume allowance ran out while a chunk arrived: handleTusRequest answers it.
      if (error instanceof UploadVolumeExceeded || (error as { cause?: unknown }).cause instanceof UploadVolumeExceeded) return { status_code: 429, body: "" };
      if (!("status_code" in error)) logger.error("resumable upload failed:", error);
      return undefined;
    },
  });
}

/**
 * The request with its body watched for the body limit's refusal (security/body-limit.server.ts,
 * ADR 039): the store sees only that its source failed, so the refusal is noted on the way.
 */
function watchedForLimit(request: Request): { request: Request; refused: () => boolean } {
  if (!request.body) return { request, refused: () => false };
  const reader = request.body.getReader();
  let refused = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        refused = error instanceof Error && error.name === "BodyTooLargeError";
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const watched = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal, duplex: "half" } as RequestInit);
  return { request: watched, refused: () => refused };
}

let shared: { server: Server; deps: TusDeps } | undefined;

function sharedTus() {
  if (!shared) {
    const deps: TusDeps = { db: getDb, storage: getStorage, datastore: createDataStore(getConfig()) };
    shared = { server: createTusServer(deps), deps };
  }
  return shared;
}

/**
 * Whether one of `ids` (the tus uploads the page says are still going up, ADR 054) is an upload of
 * this order, patient and file type that the store holds: the step's files were chosen and are on
 * their way, so "next" may move on. Payment still needs them stored (checkComplete). With
 * `startedAfter`, only an upload created after that moment counts (one started before a confirmed
 * skip lands set aside, ADR 087).
 */
export async function uploadsOnTheWay(orderId: string, patientId: string, type: string, ids: string[], startedAfter?: Date): Promise<boolean> {
  for (const id of ids.slice(0, 50)) {
    if (orderIdOfUpload(id) !== orderId.toLowerCase()) continue;
    const upload = await sharedTus().deps.datastore.getUpload(id).catch(() => null);
    const meta = upload ? readMetadata(upload.metadata) : null;
    if (startedAfter && !(upload?.creation_date && new Date(upload.creation_date).getTime() >= startedAfter.getTime())) continue;
    if (meta && meta.patientId === patientId && meta.type === type) return true;
  }
  return false;
}

/** Answers one tus request (OPTIONS, HEAD, POST, PATCH, DELETE) of a resource route. */
export async function handleTusRequest(request: Request, context: AppLoadContext): Promise<Response> {
  const { language } = await getLocale(request, context);
  if (request.method === "GET") return textAnswer(language, 405, "methodNotAllowed", { Allow: "OPTIONS, HEAD, POST, PATCH, DELETE" });
  const watched = request.method === "PATCH" ? watchedForLimit(request) : { request, refused: () => false };
  const metered = request.method === "PATCH" ? await meterChunk(watched.request, context, language) : { request };
  if (metered instanceof Response) return metered;
  const forwarded = request.method === "PATCH" ? await withoutRepeatedLength(metered.request) : metered.request;
  contexts.set(forwarded, context);
  let answer = await sharedTus().server.handleWeb(forwarded);
  const exceeded = metered.meter?.exceeded;
  if (exceeded) answer = await volumeRefusal(request, language, exceeded);
  // Nothing of a refused upload is kept: a chunk over the body limit takes its upload with it.
  else if (watched.refused()) await removeUpload(request);
  // A HEAD answer has no body; every other error answer speaks the reader's language.
  const response = request.method === "HEAD" ? answer : await localizeUploadAnswer(language, answer);
  response.headers.set("Cache-Control", "no-store");
  // A refused creation over the allowance (a compressed upload charged its file) says when to come back too.
  if (response.status === 429 && !response.headers.has("Retry-After")) response.headers.set("Retry-After", String(await allowanceWait(request, context)));
  return response;
}

/**
 * An upload of deferred length (ADR 033, 045) tells its length with its last PATCH, and the store
 * records it before that PATCH's body arrives. When the connection drops during the body, the
 * browser sends the same last PATCH again from the stored offset with the same length, which
 * @tus/server would refuse (400) as a length set twice. The same length again says nothing new:
 * the header is dropped; any other length still reaches the server and is refused.
 */
async function withoutRepeatedLength(request: Request): Promise<Request> {
  const length = request.headers.get("Upload-Length");
  const id = uploadIdOf(request);
  if (length === null || !orderIdOfUpload(id)) return request;
  const upload = await sharedTus()
    .deps.datastore.getUpload(id)
    .catch(() => null);
  if (upload?.size === undefined || String(upload.size) !== length) return request;
  const headers = new Headers(request.headers);
  headers.delete("Upload-Length");
  return new Request(request.url, { method: request.method, headers, body: request.body, signal: request.signal, duplex: "half" } as RequestInit);
}

/**
 * A chunk's bytes count against the sender's upload volume as they arrive (the plain form's
 * allowance, ADR 039). An allowance already used up refuses the chunk before it is read.
 */
async function meterChunk(request: Request, context: AppLoadContext, language: Language): Promise<{ request: Request; meter?: VolumeMeter } | Response> {
  const { deps } = sharedTus();
  const db = await deps.db();
  const viewer = await uploadViewerOf(request, context);
  const allowance = uploadAllowanceOf(viewer, getClientAddress(context));
  if (!allowance) return { request };
  // A compressed upload was charged its whole file when it was created.
  if ((await wireFactsOf(deps.datastore, uploadIdOf(request))).compressed) return { request };
  const wait = await limitedFor(db, allowance.key, allowance.limitMiB);
  if (wait !== null) {
    // Refused before the tus server's own checks ran: only an upload of an order this viewer may open is removed.
    const orderId = orderIdOfUpload(uploadIdOf(request));
    const mayOpen = orderId !== null && (await openableOrder(db, viewer, orderId)) !== undefined;
    return mayOpen ? volumeRefusal(request, language, new UploadVolumeExceeded(allowance.reason, wait)) : refusalAnswer(language, 429, { error: allowance.reason }, { "Retry-After": String(wait) });
  }
  const meter = volumeMeter(db, allowance);
  return { request: meteredRequest(request, meter), meter };
}

/** Over the allowance: the upload is removed with what it had received, and the sender told why and when to come back. */
async function volumeRefusal(request: Request, language: Language, exceeded: UploadVolumeExceeded): Promise<Response> {
  await removeUpload(request);
  return refusalAnswer(language, 429, { error: exceeded.reason }, { "Retry-After": String(exceeded.retryAfterSeconds) });
}

/** Seconds until the sender's upload allowance has room again (an hour when it cannot be told). */
async function allowanceWait(request: Request, context: AppLoadContext): Promise<number> {
  const allowance = uploadAllowanceOf(await uploadViewerOf(request, context), getClientAddress(context));
  if (!allowance) return 3600;
  return (await limitedFor(await sharedTus().deps.db(), allowance.key, allowance.limitMiB)) ?? allowance.windowSeconds;
}

function uploadIdOf(request: Request): string {
  try {
    return decodeURIComponent(new URL(request.url).pathname.slice(TUS_PATH.length + 1));
  } catch {
    return ""; // a malformed escape names no upload
  }
}

async function removeUpload(request: Request): Promise<void> {
  const id = uploadIdOf(request);
  if (orderIdOfUpload(id)) await sharedTus().deps.datastore.remove(id).catch(() => undefined);
}

/**
 * The browser asks for the finishing step again when it saw the upload complete but no reply (the
 * last response was lost, or the step failed for a moment). Answers with the recorded file if the
 * step already ran, else runs it.
 */
export async function finishAgain(request: Request, context: AppLoadContext, id: string, uploadKey: string): Promise<{ status: number; reply: FinishReply | null }> {
  const orderId = orderIdOfUpload(id);
  if (!orderId) return { status: 404, reply: null };
  const { deps } = sharedTus();
  const db = await deps.db();
  const viewer = await uploadViewerOf(request, context);
  if (!(await openableOrder(db, viewer, orderId))) return { status: 404, reply: null };
  let upload: Upload | null = null;
  try {
    upload = await deps.datastore.getUpload(id);
  } catch {
    upload = null;
  }
  if (!upload || upload.offset !== upload.size) {
    // No complete upload: it was finished already (look it up) or is gone.
    for (const patient of await listPatients(db, orderId)) {
      for (const type of ["matrix", "aligners", "retainer"] as const) {
        const file = (storedFilesOf(patient, type) as RecordedFile[]).find((candidate) => candidate.uploadKey === uploadKey);
        if (file) return { status: 200, reply: { ok: true, file: { name: file.originalName, path: file.storagePath, size: file.size, triangles: file.triangles ?? 0, scan: file.scan ?? null } } };
      }
    }
    return { status: 404, reply: { ok: false, error: "gone" } };
  }
  try {
    return { status: 200, reply: await finishUpload(deps, upload) };
  } catch (error) {
    if (error instanceof Refusal) return { status: error.status_code, reply: { ok: false, error: error.error, ...(error.fileType ? { fileType: error.fileType } : {}) } };
    throw error;
  }
}

/** Removes partial uploads older than TUS_EXPIRY_MS (the scheduled job). Never throws. */
export async function purgeExpiredUploads(): Promise<number> {
  try {
    const removed = await sharedTus().server.cleanUpExpiredUploads();
    if (removed > 0) logger.info(`expired partial uploads removed: ${removed}`);
    return removed;
  } catch (error) {
    // No resumable upload has been made yet: the folder of partial uploads does not exist, nothing to remove.
    if ((error as { code?: unknown } | null)?.code === "ENOENT") return 0;
    logger.error("expired partial uploads not removed:", error);
    return 0;
  }
}
