import type { UploadHandler, UploadHandlerPart } from "@remix-run/node";
import { Readable } from "node:stream";
import type { BucketName, FileStorage } from "~/modules/storage/storage.server";
import { sourceKeyOf } from "./file-names";
import { type MeshFormat, meshFormatOf, refusalOf } from "./mesh";
import { SOURCE_CONTENT_TYPES, storeConvertedStl } from "./mesh-store.server";
import { MAX_MULTIPART_FIELD_BYTES, MultipartFieldTooLargeError } from "./multipart.server";
import { createMeshScanner, type ScanSummary } from "./scan";
import type { StlFormat, StlVerdict } from "./stl";
import { countUploadBytes, countUploadRefusal } from "~/modules/metrics/count.server";

/**
 * A streaming upload handler for STL, PLY and OBJ files (DESIGN §4.12, ADR 102) to use with
 * `parseMultipartFormData(request, handler)` (./multipart.server). Remix's own handlers do not fit
 * (STACK-NOTES): the memory one keeps the whole part in RAM, the file one ignores back-pressure.
 *
 * Each file part is streamed through a size limit, the STL check and the scan checks (./scan)
 * straight into `storage.put`; the next chunk is read from the request only when storage asks for
 * it, so memory stays flat however large the file and however slow the storage. A refused file is
 * never kept: the STL verdict is known before the body ends, so a refusal fails the put itself
 * (which stores nothing), and the key is deleted as well after any failed put.
 *
 * Usage in an action:
 *
 *   const upload = createStlUploadHandler({ storage, keyFor: (name, at) => storageKey(...storedFileName(name, at)) });
 *   const form = await parseMultipartFormData(request, upload.handler);
 *   const results = upload.results();
 *
 * Text fields come back in `form` as strings; file parts are not put in `form` (read `results()`).
 * Parts arrive in document order and `keyFor` runs when a file part begins, so the fields the key
 * depends on (orderId, patientId, intent...) must come BEFORE the file inputs in the form (put the
 * hidden inputs first, or append them first to a FormData); `keyFor` reads them from
 * `upload.fields()`. Checking the ids in the URL before parsing works too.
 *
 * A bad file (wrong extension, too large, not STL, storage failure) is reported and drained —
 * its remaining bytes are read and thrown away so the parser reaches the next part — and never
 * stops the others. Only a broken request (the client went away, malformed multipart, an
 * oversized text field) or a throwing `keyFor` makes `parseMultipartFormData` throw;
 * files stored before that stay in `results()`, and `discardStored()` removes them if the caller
 * wants all or nothing.
 */

export const MAX_STL_FILE_BYTES = 104_857_600; // 100 MiB
/** Text fields are ids and small choices; anything bigger is an abusive request. */
export const MAX_FIELD_BYTES = MAX_MULTIPART_FIELD_BYTES;
/** How much of a file may wait between the request and storage (Readable buffer). */
const BODY_HIGH_WATER_MARK = 64 * 1024;

export type UploadErrorCode = "format" | "size" | "not_stl" | "truncated" | "empty" | "points_only" | "bad_index" | "not_mesh" | "too_many" | "storage";

export type UploadResult =
  | {
      ok: true;
      originalName: string;
      storedName: string;
      key: string;
      size: number;
      triangles: number;
      format: StlFormat;
      /** The scan checks' findings (warnings never refuse a file). */
      scan: ScanSummary | null;
      /** ISO time the stored name's timestamp was taken from (FileInfo.uploadedAt). */
      uploadedAt: string;
      /** A PLY or OBJ (ADR 102): kept as sent under this key; `key` is the binary STL made from it. */
      source?: { key: string; format: "ply" | "obj" };
    }
  | { ok: false; originalName: string; error: UploadErrorCode; message?: string };

export interface StlUploadHandlerOptions {
  storage: FileStorage;
  bucket?: BucketName;
  /**
   * The storage key of a file, e.g. `storageKey(orderId, folder, type, storedFileName(name, uploadedAt))`.
   * `uploadedAt` is unique (strictly increasing ms) within one handler, so two files with the same
   * name in one request never share a key. It may be async (e.g. look the order up once, on the
   * first file, from `fields()`). A throw means the request itself is wrong (unknown order, no
   * patient folder): it aborts the parse with that error, so throw something the action can map.
   */
  keyFor: (originalName: string, uploadedAt: Date) => string | Promise<string>;
  /** Default 104,857,600 (100 MiB). */
  maxFileBytes?: number;
  /** How many files this request may store; further files are drained and reported "too_many". */
  maxFiles?: number;
  /**
   * How many bytes this request may store in all (what is left of the order's cap): the first
   * byte past it fails the whole parse with `UploadOverQuota`, so the caller can discard the rest.
   */
  maxTotalBytes?: number;
  /** The file input's name; file parts under other names are drained and ignored. Default "files". */
  fieldName?: string;
  now?: () => Date;
  /** Limit for each text field; default 64 KiB. */
  maxFieldBytes?: number;
}

export interface StlUploadHandler {
  handler: UploadHandler;
  /** One result per file part of `fieldName` (except empty file inputs), in request order. */
  results(): UploadResult[];
  /** Text fields read so far (the last value of each name). */
  fields(): ReadonlyMap<string, string>;
  /** Deletes every file this handler stored (e.g. when the request turned out to be invalid). */
  discardStored(): Promise<void>;
}


/** Why the body stream of a file was cut; it fails the put so nothing is stored. */
class FileRefused extends Error {
  constructor(public readonly code: "size" | ReturnType<typeof refusalOf>) {
    super(`Upload refused: ${code}`);
    this.name = "FileRefused";
  }
}

/** The files of one request reached the bytes it may store (`maxTotalBytes`). */
export class UploadOverQuota extends Error {
  constructor() {
    super("The order's storage cap would be passed");
    this.name = "UploadOverQuota";
  }
}

/** Marks an error of the request itself (client gone, malformed multipart), as opposed to storage. */
class SourceFailed extends Error {
  constructor(public readonly error: unknown) {
    super("The request body failed");
    this.name = "SourceFailed";
  }
}

/**
 * Reads a part's data one `next()` at a time, even when a destroyed body stream and the drain
 * ask at once, and can throw the rest away.
 */
function partReader(data: AsyncIterable<Uint8Array>) {
  const iterator = data[Symbol.asyncIterator]();
  let done = false;
  let failure: SourceFailed | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function next(): Promise<IteratorResult<Uint8Array>> {
    const step = queue.then(async (): Promise<IteratorResult<Uint8Array>> => {
      if (failure) throw failure;
      if (done) return { done: true, value: undefined };
      try {
        const result = await iterator.next();
        if (result.done) done = true;
        return result;
      } catch (error) {
        failure = new SourceFailed(error);
        throw failure;
      }
    });
    queue = step.catch(() => undefined);
    return step;
  }

  return {
    next,
    get failure() {
      return failure;
    },
    /** Reads and discards the rest of the part so the parser can move on; throws the request's own error. */
    async drain(): Promise<void> {
      try {
        while (!(await next()).done) {
          // discard
        }
      } catch (error) {
        throw error instanceof SourceFailed ? error.error : error;
      }
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createStlUploadHandler(options: StlUploadHandlerOptions): StlUploadHandler {
  const {
    storage,
    bucket = "orders",
    keyFor,
    maxFileBytes = MAX_STL_FILE_BYTES,
    maxFiles,
    maxTotalBytes = Number.POSITIVE_INFINITY,
    fieldName = "files",
    now = () => new Date(),
    maxFieldBytes = MAX_FIELD_BYTES,
  } = options;
  const results: UploadResult[] = [];
  const fields = new Map<string, string>();
  let stored = 0;
  let storedBytes = 0;
  let lastTimestamp = Number.NEGATIVE_INFINITY;

  function nextTimestamp(): Date {
    let ms = now().getTime();
    if (ms <= lastTimestamp) ms = lastTimestamp + 1;
    lastTimestamp = ms;
    return new Date(ms);
  }

  async function readField(part: UploadHandlerPart): Promise<string> {
    const decoder = new TextDecoder();
    let bytes = 0;
    let text = "";
    for await (const chunk of part.data) {
      bytes += chunk.length;
      if (bytes > maxFieldBytes) throw new MultipartFieldTooLargeError(part.name, maxFieldBytes);
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
    fields.set(part.name, text);
    return text;
  }

  async function storeFile(part: UploadHandlerPart, originalName: string): Promise<UploadResult> {
    const reader = partReader(part.data);
    const refuse = async (error: UploadErrorCode, message?: string): Promise<UploadResult> => {
      countUploadRefusal(error);
      await reader.drain();
      return message === undefined ? { ok: false, originalName, error } : { ok: false, originalName, error, message };
    };

    const named = meshFormatOf(originalName);
    if (!named) return refuse("format");
    const format: MeshFormat = named;
    if (maxFiles !== undefined && stored >= maxFiles) return refuse("too_many");

    const uploadedAt = nextTimestamp();
    const key = await keyFor(originalName, uploadedAt); // a throw aborts the whole parse
    // A PLY or OBJ is stored as sent beside the STL made from it (ADR 102); an STL is its own.
    const sourceKey = format === "stl" ? key : sourceKeyOf(key, format);
    const keys = format === "stl" ? [key] : [sourceKey, key];
    try {
      // Never overwrite (and, on failure, never delete) an object this upload did not write.
      for (const each of keys) if (await storage.head(bucket, each)) return refuse("storage", `An object already exists at ${each}`);
    } catch (error) {
      return refuse("storage", errorMessage(error));
    }

    const scanner = createMeshScanner(format);
    let received = 0;
    let verdict: StlVerdict | undefined;
    let scan: ScanSummary | null = null;
    let refusal: FileRefused | undefined;
    let overQuota: UploadOverQuota | undefined;
    async function* body(): AsyncGenerator<Uint8Array> {
      for (;;) {
        const step = await reader.next();
        if (step.done) break;
        received += step.value.length;
        if (storedBytes + received > maxTotalBytes) throw (overQuota = new UploadOverQuota());
        // Cut as soon as the limit is passed: this chunk never reaches storage.
        if (received > maxFileBytes) throw (refusal = new FileRefused("size"));
        scanner.update(step.value);
        yield step.value;
      }
      ({ verdict, scan } = scanner.finish());
      // Failing before the end of the body makes the put fail, so a non-STL is never stored.
      if (!verdict.ok) throw (refusal = new FileRefused(refusalOf(format, verdict.reason)));
    }

    // Non-object mode with a byte high-water mark: the generator (and so the request) is read only
    // as far as storage has taken the data, give or take 64 KiB.
    const stream = Readable.from(body(), { objectMode: false, highWaterMark: BODY_HIGH_WATER_MARK });
    let putError: unknown;
    let size = 0;
    try {
      ({ size } = await storage.put(bucket, sourceKey, stream, { contentType: SOURCE_CONTENT_TYPES[format] }));
    } catch (error) {
      putError = error;
    } finally {
      stream.destroy();
    }
    if (putError === undefined && verdict?.ok && size === received && format !== "stl") {
      try {
        await storeConvertedStl(storage, bucket, sourceKey, key, format, verdict.triangles);
      } catch (error) {
        putError = error;
      }
    }
    countUploadBytes("plain", received);

    if (putError === undefined && verdict?.ok && size === received) {
      stored++;
      storedBytes += size;
      const storedName = key.slice(key.lastIndexOf("/") + 1);
      return {
        ok: true,
        originalName,
        storedName,
        key,
        size,
        triangles: verdict.triangles,
        format: verdict.format,
        scan,
        uploadedAt: uploadedAt.toISOString(),
        ...(format === "stl" ? {} : { source: { key: sourceKey, format } }),
      };
    }

    // A failed put stores nothing by contract; delete anyway so no storage bug leaves a half file.
    await storage.delete(bucket, keys, { unrecorded: true }).catch(() => undefined);
    if (reader.failure) throw reader.failure.error; // the request itself broke: stop parsing
    if (overQuota) throw overQuota;
    if (refusal) return refuse(refusal.code);
    if (putError === undefined) return refuse("storage", `Stored ${size} bytes of ${received}`);
    return refuse("storage", errorMessage(putError));
  }

  const handler: UploadHandler = async (part) => {
    if (typeof part.filename !== "string") return readField(part);
    if (part.name !== fieldName || part.filename === "") {
      // Another file input, or an empty one (browsers send filename="" and no data).
      await partReader(part.data).drain();
      return undefined;
    }
    results.push(await storeFile(part, part.filename));
    return undefined;
  };

  return {
    handler,
    results: () => [...results],
    fields: () => new Map(fields),
    async discardStored() {
      const keys = results.flatMap((result) => (result.ok ? [result.key, ...(result.source ? [result.source.key] : [])] : []));
      if (keys.length > 0) await storage.delete(bucket, keys, { unrecorded: true });
    },
  };
}
