import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import net from "node:net";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import SftpClient from "ssh2-sftp-client";
import type { AppConfig } from "~/modules/config/config.server";
import type { FileServerSession, ProductionFileServer, RemoteEntry } from "./types";
import { assertRemotePath, temporaryUploadPath } from "./paths";
import { openRemoteFile, SftpFileWriter } from "./sftp-file-writer.server";
import { logger } from "~/modules/log/logger.server";

type SftpFileServerConfig = Extract<AppConfig["fileServer"], { kind: "sftp" }>;

export interface SftpConnection {
  host: string;
  port: number;
  username: string;
  password: string | undefined;
}

/** "sftp://user:password@host:port" (password optional when a private key is configured). */
export function parseSftpUrl(url: string): SftpConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("SFTP_URL is not a valid URL (expected sftp://user:password@host:port)");
  }
  if (parsed.protocol !== "sftp:") throw new Error(`SFTP_URL must start with sftp:// (got ${parsed.protocol}//)`);
  if (!parsed.hostname) throw new Error("SFTP_URL has no host");
  if (!parsed.username) throw new Error("SFTP_URL has no user name");
  return {
    // URL keeps the brackets of IPv6 literals; ssh2 wants the bare address.
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : 22,
    username: decodeURIComponent(parsed.username),
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

// Generous: the factory's server sits abroad behind slow links. Keepalives make a dead connection
// fail the running upload within ~45 s instead of hanging until the kernel gives up.
const READY_TIMEOUT_MS = 30_000;
const KEEPALIVE_INTERVAL_MS = 15_000;
const KEEPALIVE_COUNT_MAX = 3;
const FILE_MODE = 0o644; // SFTP clients otherwise usually ask for 0666

export function createSftpFileServer(config: SftpFileServerConfig): ProductionFileServer {
  const connection = parseSftpUrl(config.url);

  async function connect(): Promise<FileServerSession> {
    const privateKey = config.privateKeyPath ? await fsp.readFile(config.privateKeyPath) : undefined;
    // The library logs every end/close on the console by default; errors between operations are
    // still worth a line, as they explain why the next call fails.
    const client = new SftpClient("production-file-server", {
      error: (error: unknown) => logger.warn(`sftp ${connection.host}: ${error instanceof Error ? error.message : String(error)}`),
      end: () => {},
      close: () => {},
    });
    const sftp = await client.connect({
      // Our own socket, for TCP_NODELAY: with Nagle on, SFTP's request/reply traffic keeps waiting
      // out delayed ACKs (~40 ms each); ssh2's write stream managed 1.6 MiB/s instead of 60 on loopback.
      sock: net.connect({ host: connection.host, port: connection.port, noDelay: true }),
      host: connection.host,
      port: connection.port,
      username: connection.username,
      password: connection.password,
      privateKey,
      readyTimeout: READY_TIMEOUT_MS,
      keepaliveInterval: KEEPALIVE_INTERVAL_MS,
      keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    });

    // When the connection drops, ssh2 answers neither the requests in flight nor new ones (their
    // callbacks never run): running uploads must be told, and new requests refused.
    let lost: Error | null = null;
    let onLost: (error: Error) => void = () => {};
    const whenLost = new Promise<never>((_, reject) => {
      onLost = reject;
    });
    whenLost.catch(() => {}); // only ever awaited in a race
    const writers = new Set<SftpFileWriter>();
    const connectionLost = (error?: unknown) => {
      lost ??= error instanceof Error ? error : new Error(`SFTP connection to ${connection.host} closed`);
      onLost(lost);
      for (const writer of writers) writer.connectionLost(lost);
    };
    client.on("error", connectionLost);
    client.on("end", () => connectionLost());
    client.on("close", () => connectionLost());
    const assertConnected = () => {
      if (lost) throw lost;
    };

    async function replace(from: string, to: string): Promise<void> {
      try {
        // OpenSSH's posix-rename replaces the target atomically; plain SFTP rename refuses to.
        await client.posixRename(from, to);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.includes("does not support")) throw error;
        // Servers without the extension: the file is briefly missing, but never partial.
        if (await client.exists(to)) await client.delete(to);
        await client.rename(from, to);
      }
    }

    return {
      async ensureDir(dir) {
        assertRemotePath(dir);
        assertConnected();
        if ((await client.exists(dir)) === "d") return;
        // mkdir -p one level at a time: the library's recursive mkdir fails ("Bad path") when another
        // upload or worker creates the same parents at the same moment. A level someone else created
        // meanwhile is fine.
        const parts = dir.split("/").filter(Boolean);
        for (let depth = 1; depth <= parts.length; depth++) {
          const level = `/${parts.slice(0, depth).join("/")}`;
          try {
            await client.mkdir(level, false);
          } catch (error) {
            if ((await client.exists(level)) !== "d") throw error;
          }
        }
      },

      async upload(body: Readable, remotePath: string, options: { signal?: AbortSignal } = {}) {
        assertRemotePath(remotePath);
        const tmp = temporaryUploadPath(remotePath, randomBytes(6).toString("hex"));
        try {
          assertConnected();
          options.signal?.throwIfAborted();
          const handle = await Promise.race([openRemoteFile(sftp, tmp, "wx", FILE_MODE), whenLost]);
          const writer = new SftpFileWriter(sftp, handle);
          writers.add(writer);
          try {
            assertConnected();
            // An abort destroys the writer too: its last 2 MiB may still be waiting for the server.
            await pipeline(body, writer, { signal: options.signal });
          } finally {
            writers.delete(writer);
          }
          await replace(tmp, remotePath);
        } catch (error) {
          body.destroy();
          await client.delete(tmp, true).catch(() => {}); // best effort: the connection may be gone
          throw error;
        }
      },

      async exists(remotePath) {
        assertRemotePath(remotePath);
        return (await client.exists(remotePath)) !== false;
      },

      async remove(remotePath) {
        assertRemotePath(remotePath);
        assertConnected();
        await client.delete(remotePath, true); // true: a missing file is not an error
      },

      async list(dir) {
        assertRemotePath(dir);
        const entries = await client.list(dir);
        return entries
          .map(
            (entry): RemoteEntry => ({
              name: entry.name,
              type: entry.type === "-" ? "file" : entry.type === "d" ? "directory" : "other",
              size: entry.size,
              modifiedAt: new Date(entry.modifyTime),
            }),
          )
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      },

      async end() {
        await client.end();
      },
    };
  }

  return { kind: "sftp", root: config.root, connect };
}
