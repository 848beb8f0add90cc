import { chunkLayout, smallerMember } from "~/modules/uploads/stl-pack";

/**
 * The page's packing worker (ADR 045): this very module, loaded a second time as a module Web
 * Worker from the chunk the bundler put it in (`import.meta.url`), so the classic Remix compiler
 * needs no second build and the page loads none of it before a file is chosen. In the worker it
 * answers one chunk at a time with the smaller of its packed and gzip members; the page keeps
 * nothing but the chunk in flight.
 */

export interface PackRequest {
  id: number;
  chunk: Uint8Array;
  /** File offset of the chunk. */
  start: number;
  /** The file's triangles by the binary rule, or null (ASCII, cut short): then gzip. */
  triangles: number | null;
}
export type PackReply = { id: number; member: Uint8Array } | { id: number; error: string };

export const PACK_WORKER_URL = import.meta.url;

interface WorkerScope {
  onmessage: ((event: MessageEvent<PackRequest>) => void) | null;
  postMessage(message: PackReply, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope & { WorkerGlobalScope?: unknown; document?: unknown };
if (typeof scope.WorkerGlobalScope === "function" && scope.document === undefined) {
  scope.onmessage = async ({ data }) => {
    try {
      const layout = data.triangles === null ? null : chunkLayout(data.triangles, data.start, data.chunk.length);
      const member = await smallerMember(data.chunk, layout);
      scope.postMessage({ id: data.id, member }, [member.buffer]);
    } catch (error) {
      scope.postMessage({ id: data.id, error: String(error) }, []);
    }
  };
}
