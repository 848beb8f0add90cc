import { Readable } from "node:stream";
import type { FileStorage } from "~/modules/storage/storage.server";
import { createStlScanner, type ScanSummary } from "./scan";

/**
 * A storage that scans every body it stores (uploads/scan.ts) on its way through, so the plain
 * form path gets the same scan checks as the resumable one without reading a file twice. The
 * scan of a key is known once its `put` succeeded.
 */
export function scanningStorage(storage: FileStorage): { storage: FileStorage; scanOf(key: string): ScanSummary | null } {
  const scans = new Map<string, ScanSummary>();
  return {
    storage: {
      ...storage,
      async put(bucket, key, body, options) {
        const scanner = createStlScanner();
        async function* scanned() {
          for await (const chunk of body) {
            scanner.update(chunk as Uint8Array);
            yield chunk as Uint8Array;
          }
        }
        const stream = Readable.from(scanned(), { objectMode: false, highWaterMark: 64 * 1024 });
        try {
          const result = await storage.put(bucket, key, stream, options);
          const { scan } = scanner.finish();
          if (scan) scans.set(key, scan);
          return result;
        } finally {
          stream.destroy();
        }
      },
    },
    scanOf: (key) => scans.get(key) ?? null,
  };
}
