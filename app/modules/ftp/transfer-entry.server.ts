import { Readable } from "node:stream";
import type { FileStorage } from "~/modules/storage/storage.server";
import type { FileServerSession } from "./types";
import { baseNameOf, destinationPath, normaliseDestination } from "./paths";
import { storageErrorMessage } from "./queue";
import type { ClaimedEntry } from "~/modules/orders/production-queue.server";

/**
 * One queue entry's transfer: its file streamed from storage to its folder on the production file
 * server, a previous attempt's leftovers tidied first. The batch (transfer.server.ts) runs these.
 */

/** A failure to read the file from storage (as opposed to a failure of the file server). */
export class StorageReadError extends Error {
  constructor(detail: string) {
    super(storageErrorMessage(detail));
    this.name = "StorageReadError";
  }
}

/** Why a transfer was aborted from outside. */
export class TransferStopped extends Error {
  constructor(public readonly outcome: "released" | "lease_lost") {
    super(outcome === "released" ? "Transfer stopped: the worker is shutting down" : "Transfer stopped: the lease was lost");
    this.name = "TransferStopped";
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error) || "Неизвестная ошибка";
}

function storageDetail(error: unknown): string {
  const named = error as { name?: string; Code?: string; code?: string };
  if (named?.name === "NoSuchKey" || named?.Code === "NoSuchKey") return "NoSuchKey";
  return messageOf(error);
}

/** The storage body as a stream whose read errors are StorageReadErrors. */
function storageSource(body: Readable): Readable {
  async function* chunks() {
    try {
      for await (const chunk of body) yield chunk as Buffer;
    } catch (error) {
      throw new StorageReadError(storageDetail(error));
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
}

export interface TransferContext {
  root: string;
  signal: AbortSignal;
  /** Folders created (or being created) on this connection. */
  ensuredDirs: Map<string, Promise<void>>;
}

/**
 * An entry whose previous attempt was interrupted or failed: its worker (or the connection) may have
 * died after the rename (the file is there, complete) or before it (a hidden temporary file is left). Returns true when the
 * file is already delivered; removes stale temporary files otherwise.
 */
async function tidyInterrupted(session: FileServerSession, dir: string, name: string, size: number): Promise<boolean> {
  const entries = await session.list(dir);
  if (entries.some((entry) => entry.name === name && entry.type === "file" && entry.size === size)) return true;
  const stale = entries.filter((entry) => entry.type === "file" && entry.name.startsWith(`.${name}.`) && entry.name.endsWith(".part"));
  for (const entry of stale) await session.remove(destinationPath(dir, entry.name)).catch(() => {});
  return false;
}

/** Streams one entry's file from storage to its folder on the file server. Returns the bytes sent. */
export async function transferEntry(session: FileServerSession, storage: FileStorage, entry: ClaimedEntry, context: TransferContext): Promise<number> {
  const dir = normaliseDestination(context.root, entry.destination_path);
  const name = baseNameOf(entry.file_path);
  const remotePath = destinationPath(dir, name);

  let object;
  try {
    object = await storage.get("orders", entry.file_path);
  } catch (error) {
    throw new StorageReadError(storageDetail(error));
  }
  if (!object) throw new StorageReadError("NoSuchKey");

  const source = storageSource(object.body);
  try {
    context.signal.throwIfAborted();
    let ensured = context.ensuredDirs.get(dir);
    if (!ensured) {
      // One mkdir -p per folder and connection, shared by the files going there at once.
      ensured = session.ensureDir(dir);
      context.ensuredDirs.set(dir, ensured);
      ensured.catch(() => context.ensuredDirs.delete(dir));
    }
    await ensured;
    // A previous attempt that died (worker gone) or failed (connection lost mid-file: its temporary
    // file could not be removed, or the rename went through but the answer was lost) is tidied first.
    if (entry.previous_status !== "pending" && (await tidyInterrupted(session, dir, name, object.size))) return 0;
    await session.upload(source, remotePath, { signal: context.signal });
    return object.size;
  } finally {
    if (!source.destroyed) source.destroy();
    if (!object.body.destroyed) object.body.destroy();
  }
}
