import { Readable } from "node:stream";
import type { UploadHandlerPart } from "@remix-run/node";
import { parseMultipartFormData } from "~/modules/uploads/multipart.server";
import type { ProductionFileServer } from "./types";
import { destinationPath, safeRemoteFileName } from "./paths";
import { logger } from "~/modules/log/logger.server";

/**
 * /send-test (staff-partner-packer §2, §7 send-file): a file chosen in the browser goes straight
 * to `<root>/test` on the production file server, streamed through (temporary name, then rename)
 * without being stored anywhere on the way.
 */

export const TEST_FOLDER = "test";
export const MAX_TEST_FILE_BYTES = 104_857_600; // 100 MiB, as for STL uploads

export type TestUploadResult =
  | { ok: true; path: string; size: number; name: string }
  | { ok: false; error: "noFile" | "tooLarge" | "failed"; detail?: string };

class TooLarge extends Error {
  constructor() {
    super("The file is larger than the limit");
    this.name = "TooLarge";
  }
}

/** Reads a part through a byte limit without ever ending its iterator, so the rest can be drained. */
function limited(iterator: AsyncIterator<Uint8Array>, maxBytes: number, counter: { bytes: number }): Readable {
  return new Readable({
    highWaterMark: 64 * 1024,
    async read() {
      try {
        const next = await iterator.next();
        if (next.done) return void this.push(null);
        counter.bytes += next.value.length;
        if (counter.bytes > maxBytes) return void this.destroy(new TooLarge());
        this.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length));
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
}

async function drain(iterator: AsyncIterator<Uint8Array>) {
  try {
    while (!(await iterator.next()).done) {
      // discard
    }
  } catch {
    // the client went away: nothing left to read
  }
}

/** The folder test uploads go to ("/AlignersFactory/test"). */
export function testFolder(server: ProductionFileServer): string {
  return destinationPath(server.root, TEST_FOLDER);
}

/** Parses the multipart request and streams its `file` part to the test folder. */
export async function receiveTestUpload(request: Request, server: ProductionFileServer, options: { maxBytes?: number; log?: (line: string) => void } = {}): Promise<TestUploadResult> {
  const maxBytes = options.maxBytes ?? MAX_TEST_FILE_BYTES;
  const log = options.log ?? logger.info;
  let result: TestUploadResult | null = null;

  const handler = async (part: UploadHandlerPart) => {
    const iterator = part.data[Symbol.asyncIterator]();
    if (part.name !== "file" || result || !part.filename) {
      await drain(iterator);
      return undefined;
    }
    const name = safeRemoteFileName(part.filename);
    const folder = testFolder(server);
    const remotePath = destinationPath(folder, name);
    const counter = { bytes: 0 };
    const started = performance.now();
    const body = limited(iterator, maxBytes, counter);
    try {
      const session = await server.connect();
      try {
        await session.ensureDir(folder);
        await session.upload(body, remotePath);
      } finally {
        await session.end().catch(() => {});
      }
      result = { ok: true, path: remotePath, size: counter.bytes, name };
    } catch (error) {
      body.destroy();
      await drain(iterator);
      const detail = error instanceof Error ? error.message : String(error);
      result = error instanceof TooLarge ? { ok: false, error: "tooLarge" } : { ok: false, error: "failed", detail };
    }
    const ms = Math.round(performance.now() - started);
    log(`ftp send-test path=${remotePath} bytes=${counter.bytes} ms=${ms} outcome=${result.ok ? "completed" : `failed (${result.error}${"detail" in result && result.detail ? `: ${result.detail}` : ""})`}`);
    return undefined;
  };

  try {
    await parseMultipartFormData(request, handler);
  } catch (error) {
    // Not multipart, or the request broke off.
    if (!result) return { ok: false, error: "failed", detail: error instanceof Error ? error.message : String(error) };
  }
  return result ?? { ok: false, error: "noFile" };
}
