import { Writable } from "node:stream";
import type { SFTPWrapper } from "ssh2";

/*
 * Why not ssh2's own write stream: it sends one 32 KiB WRITE request and waits for its reply before
 * sending the next, so throughput is 32 KiB per round trip — about 0.6 MiB/s to a server 50 ms
 * away. This writer keeps many requests in flight (like ssh2's fastPut, which only reads local
 * files), while holding at most about IN_FLIGHT_BYTES of the body in memory.
 */

// SFTP servers must accept packets of at least 34000 bytes; ssh2 would split larger writes into
// sequential requests again. OpenSSH announces a larger limit (ssh2 reads it into `_maxWriteLen`):
// there, 64 KiB requests halve the requests, callbacks and buffers per byte (about a fifth less CPU
// in the client, bench/ftp-queue.mts).
const REQUEST_BYTES = 32 * 1024;
const LARGE_REQUEST_BYTES = 64 * 1024;
const IN_FLIGHT_BYTES = 2 * 1024 * 1024; // on the wire per file

function requestBytesFor(sftp: SFTPWrapper): number {
  const limit = (sftp as unknown as { _maxWriteLen?: unknown })._maxWriteLen;
  return typeof limit === "number" && limit >= LARGE_REQUEST_BYTES ? LARGE_REQUEST_BYTES : REQUEST_BYTES;
}

function closedError(): Error {
  return new Error("SFTP connection closed during the upload");
}

/** Opens `remotePath` for writing; "wx" fails when the file exists. */
export function openRemoteFile(sftp: SFTPWrapper, remotePath: string, flags: "w" | "wx", mode: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    sftp.open(remotePath, flags, { mode }, (error, handle) => (error ? reject(error) : resolve(handle)));
  });
}

/** Writes a stream into an open remote file; finishing means every byte was acknowledged and the handle closed. */
export class SftpFileWriter extends Writable {
  private position = 0;
  private inFlight = 0;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private handleOpen = true;
  private connectionClosed = false;
  private readonly requestBytes: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly handle: Buffer,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    this.requestBytes = requestBytesFor(sftp);
    this.maxInFlight = IN_FLIGHT_BYTES / this.requestBytes;
  }

  /**
   * To be called when the SSH connection drops: ssh2 then neither answers the requests in flight
   * nor sends new ones, so without this the upload would wait forever.
   */
  connectionLost(error: Error = closedError()): void {
    this.connectionClosed = true;
    this.fail(error);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake?.();
  }

  /** Calls back once at most `limit` requests are unanswered, or with the first failure. */
  private whenInFlightAtMost(limit: number, callback: (error?: Error | null) => void): void {
    const check = () => {
      if (this.failure) {
        this.wake = null;
        callback(this.failure);
      } else if (this.inFlight <= limit) {
        this.wake = null;
        callback();
      } else {
        this.wake = check;
      }
    };
    check();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.connectionClosed) return callback(this.failure ?? closedError());
    for (let offset = 0; offset < chunk.length; offset += this.requestBytes) {
      const piece = chunk.subarray(offset, offset + this.requestBytes);
      this.inFlight++;
      // ssh2 copies the piece into its packet at once, so the chunk is not retained.
      this.sftp.write(this.handle, piece, 0, piece.length, this.position, (error) => {
        this.inFlight--;
        if (error) this.fail(error);
        else this.wake?.();
      });
      this.position += piece.length;
    }
    this.whenInFlightAtMost(this.maxInFlight, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.whenInFlightAtMost(0, (error) => {
      if (error) return callback(error);
      this.handleOpen = false;
      let settled = false;
      const settle = (closeError?: Error | null) => {
        if (settled) return;
        settled = true;
        this.wake = null;
        callback(closeError ?? null);
      };
      // A lost connection would leave the close unanswered.
      this.wake = () => settle(this.failure);
      // The server reports failed writes it deferred (disk full...) at close, so wait for it.
      this.sftp.close(this.handle, settle);
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Fire and forget: over a dead connection the reply would never come.
    if (this.handleOpen && !this.connectionClosed) this.sftp.close(this.handle, () => {});
    this.handleOpen = false;
    callback(error);
  }
}
