import { randomUUID } from "node:crypto";
import { type DetailedError, Upload, type UploadOptions } from "tus-js-client";
import { bytesReader, compressedSource, GZIP_ENCODING, type CompressedSource } from "~/modules/uploads/gzip-members";
import { PACKED_ENCODING, packingCompressor } from "~/modules/uploads/stl-pack";
import { largeStl } from "./stl-models";

/**
 * tus-js-client in Node, as the upload step uses it in the browser: the page's cookies and Origin
 * on every request, 5 MiB chunks, retries. Resolves with the last reply whatever happened. With
 * `compressed`, the file goes as the browser sends it when it can: gzip members of deferred length
 * (ADR 033), through the same source module the page uses.
 */

export interface TusOutcome {
  ok: boolean;
  status: number;
  /** The JSON of the last reply (the finishing step's file, or the refusal). */
  body: any;
  uploadUrl: string | null;
  error?: Error;
}

export interface TusUploadInput {
  /** The site (or a proxy in front of it): `${base}/uploads/tus`. */
  base: string;
  cookie: string;
  origin: string;
  file: Buffer;
  metadata: { filename: string; orderId: string; patientId: string; type: string; uploadKey?: string };
  chunkSize?: number;
  retryDelays?: number[] | null;
  uploadUrl?: string;
  onProgress?: (sent: number, total: number) => void;
  onUploadUrl?: (url: string) => void;
  /** Lets a test hold the Upload (to abort it). */
  onStart?: (upload: Upload) => void;
  compressed?: boolean;
  /** Packed where it wins, gzip members elsewhere (encoding stl-pack, ADR 045), as the page sends it. */
  packed?: boolean;
  /** A member stream made by the test (a forged one), sent as an upload of encoding stl-pack. */
  wire?: Buffer;
  /** The member stream's source, for a test that wants its bytes or its progress in file terms. */
  onSource?: (source: CompressedSource) => void;
}

export function tusUpload(input: TusUploadInput): Promise<TusOutcome> {
  return new Promise((resolve) => {
    const file = input.file;
    const source = input.wire
      ? wireSource(input.wire)
      : input.packed
        ? compressedSource(bytesReader(file), { compress: packingCompressor(bytesReader(file)) })
        : input.compressed
          ? compressedSource(bytesReader(file))
          : null;
    if (source) input.onSource?.(source);
    const encoding = input.packed || input.wire ? PACKED_ENCODING : GZIP_ENCODING;
    const options: UploadOptions = {
      endpoint: `${input.base}/uploads/tus`,
      uploadUrl: input.uploadUrl ?? null,
      metadata: { uploadKey: randomUUID(), ...(source ? { encoding, fileSize: String(file.length) } : {}), ...input.metadata },
      ...(source ? { uploadLengthDeferred: true, fileReader: { openFile: () => Promise.resolve(source) } } : {}),
      headers: { Cookie: input.cookie, Origin: input.origin },
      chunkSize: input.chunkSize ?? 5 * 1024 * 1024,
      retryDelays: input.retryDelays === undefined ? [200, 500, 1000, 2000] : input.retryDelays,
      storeFingerprintForResuming: false,
      onProgress: input.onProgress ?? null,
      onUploadUrlAvailable: () => input.onUploadUrl?.(upload.url!),
      onSuccess: ({ lastResponse }) => {
        const text = lastResponse.getBody();
        resolve({ ok: true, status: lastResponse.getStatus(), body: text ? JSON.parse(text) : null, uploadUrl: upload.url });
      },
      onError: (error) => {
        const response = (error as DetailedError).originalResponse ?? null;
        const text = response?.getBody() ?? "";
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ ok: false, status: response?.getStatus() ?? 0, body, uploadUrl: upload.url, error });
      },
    };
    const upload = new Upload(input.file, options);
    input.onStart?.(upload);
    upload.start();
  });
}

/**
 * Starts an upload of a 7 MiB model and leaves it after its first chunk, as a page still sending
 * would be: resolves with its id (resume it with `uploadUrl`).
 */
export function startedUpload(at: { base: string; cookie: string }, metadata: TusUploadInput["metadata"]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    void tusUpload({
      base: at.base,
      origin: at.base,
      cookie: at.cookie,
      file: largeStl(7),
      metadata,
      chunkSize: 5 * 1024 * 1024,
      retryDelays: null,
      onStart: (upload) => {
        upload.options.onChunkComplete = () => void upload.abort().then(() => resolve(upload.url!.slice(upload.url!.lastIndexOf("/") + 1)));
      },
    }).then((outcome) => reject(outcome.error ?? new Error("the upload ended before its first chunk")));
  });
}

/** A source of fixed bytes in the shape of compressedSource (length deferred), for forged member streams. */
function wireSource(wire: Buffer): CompressedSource {
  return {
    size: null as unknown as number,
    slice: async (start: number, end: number) => {
      const value = Object.assign(new Uint8Array(wire.subarray(start, Math.min(end, wire.length))), { size: Math.max(0, Math.min(end, wire.length) - start) });
      return { value, done: end >= wire.length };
    },
    close: () => undefined,
    fileBytesAt: () => 0,
  };
}
