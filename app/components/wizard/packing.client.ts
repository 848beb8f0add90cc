import { type ChunkReader, GZIP_CHUNK_BYTES, gzipMember } from "~/modules/uploads/gzip-members";
import { binaryTriangles } from "~/modules/uploads/stl-pack";
import type { PackReply, PackRequest } from "./pack-worker.client";

/**
 * The `compress` of an stl-pack upload in the page (ADR 045): each chunk goes to the packing
 * worker, which answers with the smaller of its packed and gzip members. The worker starts with
 * the first chunk of the first upload that needs it (its module is fetched only then) and stays
 * for the page's later uploads. Where module workers do not run, or the worker fails, the chunk
 * goes as a gzip member made here, which an stl-pack upload accepts as well.
 */

let worker: Promise<Worker | null> | undefined;
const waiting = new Map<number, (reply: PackReply) => void>();
let nextId = 0;

function packingWorker(): Promise<Worker | null> {
  worker ??= import("./pack-worker.client")
    .then(({ PACK_WORKER_URL }) => {
      const started = new Worker(PACK_WORKER_URL, { type: "module", name: "stl-pack" });
      started.onmessage = ({ data }: MessageEvent<PackReply>) => {
        waiting.get(data.id)?.(data);
        waiting.delete(data.id);
      };
      // A worker that cannot load (no module workers) or fails: every chunk it holds goes as gzip.
      started.onerror = () => {
        worker = Promise.resolve(null);
        for (const [id, answer] of waiting) answer({ id, error: "worker failed" });
        waiting.clear();
        started.terminate();
      };
      return started;
    })
    .catch(() => null);
  return worker;
}

export const canPack = () => typeof Worker === "function";

export function packingCompress(file: ChunkReader, chunkBytes = GZIP_CHUNK_BYTES): (chunk: Uint8Array, index: number) => Promise<Uint8Array> {
  let triangles: Promise<number | null> | undefined;
  return async (chunk, index) => {
    triangles ??= file.read(0, Math.min(file.size, 84)).then((header) => binaryTriangles(file.size, header));
    const count = await triangles;
    const running = count === null ? null : await packingWorker();
    if (!running) return gzipMember(chunk);
    const id = nextId++;
    const reply = await new Promise<PackReply>((resolve) => {
      waiting.set(id, resolve);
      // The chunk's bytes move to the worker, not copied (a view into a larger buffer is copied first).
      const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice();
      running.postMessage({ id, chunk: whole, start: index * chunkBytes, triangles: count } satisfies PackRequest, [whole.buffer]);
    });
    if ("member" in reply) return reply.member;
    // The worker failed with the chunk: read it again and send it as gzip.
    return gzipMember(await file.read(index * chunkBytes, Math.min(file.size, (index + 1) * chunkBytes)));
  };
}
