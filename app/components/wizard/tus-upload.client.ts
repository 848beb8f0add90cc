import { type DetailedError, Upload, type UploadOptions } from "tus-js-client";
import { blobReader, canCompress, compressedSource, GZIP_ENCODING } from "~/modules/uploads/gzip-members";
import { PACKED_ENCODING } from "~/modules/uploads/stl-pack";
import { FIRST_CHUNK_BYTES, nextChunkBytes, type Progress, uploadProgress } from "~/modules/uploads/upload-progress";
import { canPack, packingCompress } from "./packing.client";

/**
 * One resumable upload in the browser (ADR 017). This module and tus-js-client are loaded only
 * when a file is chosen (a dynamic import), never with the page.
 *
 * - Chunks sized to about 2 s of the link (upload-progress.ts `nextChunkBytes`, ADR 096): from
 *   256 KiB on a slow clinic line to 5 MiB (S3's smallest part) on a fast one. A dropped connection
 *   costs at most the chunk in flight; the server joins small chunks into parts.
 * - Retries with backoff; while the browser is offline tus-js-client does not retry at all, so the
 *   upload waits for the `online` event and starts again from the server's offset.
 * - The upload's address is kept in localStorage under a fingerprint of the order, patient, step
 *   and file, so after a reload or a closed tab the same file chosen again continues where it
 *   stopped, with the same upload key (the server records a key once).
 * - Where the browser has CompressionStream the file goes up gzip-compressed, one member per
 *   chunk, its length deferred (ADR 033); progress still counts the file's own bytes. Where it
 *   can also start a Web Worker, a binary STL's chunks are packed there when that is smaller
 *   (encoding stl-pack, ADR 045).
 * - Progress: what the server acknowledged (the `Upload-Offset` of its answers to HEAD and PATCH)
 *   makes a file stored and the time left; within the chunk in flight the bar follows what the
 *   browser reports sent (upload-progress.ts, ADR 054 and 096).
 */

export interface UploadTarget {
  orderId: string;
  patientId: string;
  type: string;
}

export type UploadReply = { ok: true; file: { name: string; path: string; size: number; triangles: number } } | { ok: false; error: string; message?: string };

export interface UploadEvents {
  /** The server confirmed an offset: the file's bytes it holds, the upload's bytes, the time left once stable. */
  onAcknowledged(progress: Progress): void;
  /** Bytes of the chunk in flight left the browser: the file's bytes and the upload's bytes sent so far. */
  onSending?(progress: Progress): void;
  /** The server holds the upload now (created or found again): its id names it to the step's form (ADR 054). */
  onCreated?(id: string): void;
}

const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000];
/** After the retries, try again this long later (or when the browser is back online). */
const RESTART_MS = 30000;

/** Same scheme as the page's list of interrupted uploads (interrupted-uploads.tsx). */
export const fingerprintOf = (target: UploadTarget, file: File, encoding: string | null = null) =>
  ["tus-ord", target.orderId, target.patientId, target.type, file.name, file.size, file.lastModified, ...(encoding ? [encoding] : [])].join("/");

/** 32 hex characters; crypto.randomUUID needs a secure context, getRandomValues does not. */
const randomKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");

function forget(fingerprint: string) {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(`tus::${fingerprint}::`)) localStorage.removeItem(key);
  } catch {
    // storage unavailable (private mode): nothing was kept
  }
}

function parse(text: string | undefined): UploadReply | null {
  try {
    const reply = JSON.parse(text ?? "") as UploadReply;
    return typeof reply?.ok === "boolean" ? reply : null;
  } catch {
    return null;
  }
}

/** Asks the server for the finishing step again (its reply was lost), a few times. */
async function finishAgain(url: string, uploadKey: string): Promise<UploadReply> {
  const body = new FormData();
  body.set("id", url.slice(url.lastIndexOf("/") + 1));
  body.set("uploadKey", uploadKey);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const response = await fetch("/uploads/finish", { method: "POST", body });
      const reply = parse(await response.text());
      if (reply) return reply;
    } catch {
      // network: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 2000 * (attempt + 1)));
  }
  return { ok: false, error: "network" };
}

export function startUpload(file: File, target: UploadTarget, events: UploadEvents): { done: Promise<UploadReply>; cancel(): void } {
  const encoding = canCompress() ? (canPack() ? PACKED_ENCODING : GZIP_ENCODING) : null;
  const fingerprint = fingerprintOf(target, file, encoding);
  let cancelled = false;
  let settle: (reply: UploadReply) => void = () => {};
  const done = new Promise<UploadReply>((resolve) => (settle = resolve));
  const metadata: Record<string, string> = { filename: file.name, orderId: target.orderId, patientId: target.patientId, type: target.type, uploadKey: randomKey() };
  // Compressed: the members of the file's chunks, the length told with the last one.
  const reader = blobReader(file);
  const source = encoding ? compressedSource(reader, encoding === PACKED_ENCODING ? { compress: packingCompress(reader) } : {}) : null;
  const deferred: Partial<UploadOptions> = source
    ? { uploadLengthDeferred: true, fileReader: { openFile: () => Promise.resolve(source) }, metadata: Object.assign(metadata, { encoding, fileSize: String(file.size) }) }
    : {};

  const progress = uploadProgress({ fileBytes: file.size, fileBytesAt: source ? (wire) => source.fileBytesAt(wire) : undefined });

  // The chunk in flight: where it started on the wire and when (its PATCH), for the next one's size.
  let chunk = { from: 0, startedAt: 0 };
  const upload = new Upload(file, {
    endpoint: "/uploads/tus",
    chunkSize: FIRST_CHUNK_BYTES,
    ...deferred,
    retryDelays: RETRY_DELAYS,
    metadata,
    fingerprint: () => Promise.resolve(fingerprint),
    removeFingerprintOnSuccess: true,
    onBeforeRequest(request) {
      if (request.getMethod() === "PATCH") chunk = { from: Number(request.getHeader("Upload-Offset") ?? 0), startedAt: Date.now() };
    },
    onProgress(wireSent) {
      events.onSending?.(progress.sending(wireSent));
    },
    onUploadUrlAvailable: () => events.onCreated?.((upload.url ?? "").slice((upload.url ?? "").lastIndexOf("/") + 1)),
    async onAfterResponse(request, response) {
      // A new upload holds nothing yet; a found or continued one holds what its offset says.
      // A refusal at the end (a JSON answer with its offset) holds nothing: the file is not stored.
      const offset = response.getStatus() < 300 && parse(response.getBody())?.ok !== false ? (response.getHeader("Upload-Offset") ?? (request.getMethod() === "POST" ? "0" : null)) : null;
      if (offset === null || !/^\d+$/.test(offset)) return;
      // tus-js-client reads the chunk size for every chunk: the next one takes about 2 s of this link.
      if (request.getMethod() === "PATCH" && chunk.startedAt > 0) upload.options.chunkSize = nextChunkBytes(Number(offset) - chunk.from, Date.now() - chunk.startedAt, upload.options.chunkSize ?? FIRST_CHUNK_BYTES);
      // A compressed upload found again (a reload): the members up to its offset place it in the file.
      // The upload goes on from there and would make them first anyway.
      if (source && request.getMethod() === "HEAD") await source.slice(Number(offset), Number(offset)).catch(() => undefined);
      events.onAcknowledged(progress.acknowledged(Number(offset), Date.now()));
    },
    onShouldRetry(error) {
      const status = error.originalResponse?.getStatus() ?? 0;
      // The server's own refusal (a JSON reply, e.g. a file list the database would not save) is final.
      if (parse(error.originalResponse?.getBody())?.ok === false) return false;
      return navigator.onLine && (status === 0 || status >= 500 || status === 409 || status === 423);
    },
    onError(error) {
      if (cancelled) return;
      const response = (error as DetailedError).originalResponse;
      const status = response?.getStatus() ?? 0;
      const refusal = parse(response?.getBody());
      if (refusal?.ok === false || (status >= 400 && status < 500 && status !== 409 && status !== 423)) {
        // Refused (format, size, content, quota, not saved…): the server kept nothing; neither do we.
        forget(fingerprint);
        settle(refusal ?? { ok: false, error: status === 404 ? "gone" : "storage" });
        return;
      }
      const restart = () => !cancelled && upload.start();
      if (!navigator.onLine) window.addEventListener("online", restart, { once: true });
      else setTimeout(restart, RESTART_MS);
    },
    async onSuccess({ lastResponse }) {
      settle(parse(lastResponse.getBody()) ?? (await finishAgain(upload.url ?? "", metadata.uploadKey)));
    },
  });

  void upload
    .findPreviousUploads()
    .then((previous) => {
      const earlier = previous.find((candidate) => candidate.uploadUrl);
      if (earlier) {
        upload.resumeFromPreviousUpload(earlier);
        if (earlier.metadata.uploadKey) metadata.uploadKey = earlier.metadata.uploadKey;
      }
    })
    .catch(() => undefined)
    .then(() => !cancelled && upload.start());

  return {
    done,
    cancel() {
      cancelled = true;
      void upload.abort(true).catch(() => undefined);
      forget(fingerprint);
      settle({ ok: false, error: "cancelled" });
    },
  };
}
