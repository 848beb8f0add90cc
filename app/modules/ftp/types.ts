/** The production file server's interface (DESIGN §4.16), imported by the factory and by each implementation. */
import type { Readable } from "node:stream";

export interface RemoteEntry {
  name: string;
  type: "file" | "directory" | "other";
  size: number;
  modifiedAt: Date;
}

/**
 * One connection to the production file server (the factory's SFTP server; a local folder in
 * development). Paths are absolute POSIX paths, usually built with `destinationPath(root, ...)`.
 */
export interface FileServerSession {
  /** mkdir -p. */
  ensureDir(dir: string): Promise<void>;
  /**
   * Streams `body` to a temporary name in the same folder and renames it to `remotePath` only
   * once complete, replacing an existing file: the factory never picks up a half-written file.
   * The folder must exist (see ensureDir). Aborting `signal` stops the upload (nothing is renamed).
   */
  upload(body: Readable, remotePath: string, options?: { signal?: AbortSignal }): Promise<void>;
  exists(remotePath: string): Promise<boolean>;
  /** Deletes a file; a missing one is fine. */
  remove(remotePath: string): Promise<void>;
  /** The entries of a folder, hidden ones (and temporary uploads) included. */
  list(dir: string): Promise<RemoteEntry[]>;
  end(): Promise<void>;
}

export interface ProductionFileServer {
  readonly kind: "folder" | "sftp";
  /** The configured root, normalised ("/AlignersFactory"). */
  readonly root: string;
  connect(): Promise<FileServerSession>;
}
