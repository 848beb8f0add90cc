import type { UploadHandler, UploadHandlerPart } from "@remix-run/node";
import { Readable } from "node:stream";
import type { FileStorage } from "~/modules/storage/storage.server";
import { checkLogo, LOGO_SNIFF_BYTES, MAX_LOGO_BYTES, type LogoContentType, type LogoRefusal } from "./logo-file";

/**
 * A streaming handler for one logo file, for `parseMultipartFormData(request, handler)` (uploads/multipart.server).
 * The first bytes are held back only until the type is known (4 KiB), then the file streams into
 * `storage.put`, cut at 2 MiB: an oversized or mistyped file fails its put, so the stored logo stays
 * as it was. Nothing is buffered beyond the sniffed head; other parts are read and thrown away, and
 * a request carrying more than a logo's worth of data in total is stopped (`LogoRequestTooLarge`).
 */

export type LogoUploadResult =
  | { ok: true; contentType: LogoContentType; size: number }
  | { ok: false; reason: LogoRefusal | "storage"; message?: string };

export class LogoRequestTooLarge extends Error {
  constructor() {
    super("The logo request is larger than allowed");
    this.name = "LogoRequestTooLarge";
  }
}

class LogoTooLarge extends Error {}

/** One `next()` at a time, even when a destroyed body stream and a drain ask at once. */
function serialIterator(data: AsyncIterable<Uint8Array>) {
  const iterator = data[Symbol.asyncIterator]();
  let done = false;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    next(): Promise<IteratorResult<Uint8Array>> {
      const step = queue.then(async (): Promise<IteratorResult<Uint8Array>> => {
        if (done) return { done: true, value: undefined };
        const result = await iterator.next();
        if (result.done) done = true;
        return result;
      });
      queue = step.catch(() => undefined);
      return step;
    },
  };
}

/** Room for the multipart framing and a few small fields around the file. */
export const MAX_LOGO_REQUEST_BYTES = MAX_LOGO_BYTES + 64 * 1024;

export function createLogoUploadHandler(options: { storage: FileStorage; key: string; fieldName?: string; maxBytes?: number }) {
  const { storage, key, fieldName = "logo", maxBytes = MAX_LOGO_BYTES } = options;
  let result: LogoUploadResult | null = null;
  /** Bytes read that were not the logo's own (fields, extra files): bounded, never kept. */
  let otherBytes = 0;

  async function discard(data: AsyncIterable<Uint8Array>) {
    for await (const chunk of data) {
      otherBytes += chunk.length;
      if (otherBytes > MAX_LOGO_REQUEST_BYTES - maxBytes) throw new LogoRequestTooLarge();
    }
  }

  async function store(part: UploadHandlerPart & { filename: string }): Promise<LogoUploadResult> {
    const iterator = serialIterator(part.data);
    const drain = async () => {
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
        // The rest of a refused file is read and dropped, never kept, so the parser can go on.
      }
    };
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < LOGO_SNIFF_BYTES) {
      const step = await iterator.next();
      if (step.done) {
        ended = true;
        break;
      }
      head.push(step.value);
      headBytes += step.value.length;
      if (headBytes > maxBytes) {
        await drain();
        return { ok: false, reason: "size" };
      }
    }
    const verdict = checkLogo(part.filename, Buffer.concat(head).subarray(0, LOGO_SNIFF_BYTES));
    if (!verdict.ok) {
      if (!ended) await drain();
      return { ok: false, reason: verdict.reason };
    }

    let received = 0;
    let tooLarge = false;
    async function* body(): AsyncGenerator<Uint8Array> {
      for (const chunk of head) {
        received += chunk.length;
        yield chunk;
      }
      if (ended) return;
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
        received += step.value.length;
        if (received > maxBytes) {
          tooLarge = true;
          throw new LogoTooLarge();
        }
        yield step.value;
      }
    }
    const stream = Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 });
    let outcome: LogoUploadResult;
    try {
      const { size } = await storage.put("logos", key, stream, { contentType: verdict.contentType });
      outcome = size === received ? { ok: true, contentType: verdict.contentType, size } : { ok: false, reason: "storage", message: `stored ${size} of ${received} bytes` };
    } catch (error) {
      outcome = tooLarge ? { ok: false, reason: "size" } : { ok: false, reason: "storage", message: error instanceof Error ? error.message : String(error) };
    } finally {
      stream.destroy();
    }
    if (!ended) await drain();
    return outcome;
  }

  const handler: UploadHandler = async (part) => {
    if (typeof part.filename !== "string" || part.name !== fieldName || part.filename === "" || result !== null) {
      await discard(part.data);
      return undefined;
    }
    result = await store(part as UploadHandlerPart & { filename: string });
    return undefined;
  };

  return { handler, result: () => result };
}
