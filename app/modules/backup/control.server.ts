import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import type { AppConfig } from "~/modules/config/config.server";
import { logger } from "~/modules/log/logger.server";
import { createBackup } from "./backup.server";
import type { BackupManifest } from "./manifest";

/**
 * The embedded database belongs to the serving process, so `npm run backup` asks that process to
 * take the backup: over a Unix socket in the data folder (owner-only, never on the network). One
 * request per connection: a JSON line `{"archive": path}`, answered by a JSON line with the manifest
 * or the error. When no server listens, the backup script opens the database itself.
 */

export const CONTROL_SOCKET = "backup.sock";

export function controlSocketPath(config: Pick<AppConfig, "dataDir">): string {
  return path.join(config.dataDir, CONTROL_SOCKET);
}

type Answer = { ok: true; manifest: BackupManifest } | { ok: false; error: string };

export function startBackupControl(db: DB, storage: FileStorage, config: Pick<AppConfig, "dataDir" | "database">): () => Promise<void> {
  const socketPath = controlSocketPath(config);
  fs.rmSync(socketPath, { force: true }); // left by a process that did not stop cleanly
  let running = false;
  const server = net.createServer((socket) => {
    let line = "";
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.on("data", (chunk: string) => {
      line += chunk;
      if (!line.includes("\n") || line.length > 8192) return;
      socket.pause();
      void (async () => {
        let answer: Answer;
        try {
          const { archive } = JSON.parse(line.slice(0, line.indexOf("\n"))) as { archive?: unknown };
          if (typeof archive !== "string" || !path.isAbsolute(archive)) throw new Error("the archive path must be absolute");
          if (running) throw new Error("a backup is already running");
          running = true;
          try {
            answer = { ok: true, manifest: await createBackup({ database: config.database, db, storage }, archive) };
          } finally {
            running = false;
          }
          logger.info(`backup written to ${archive}: ${answer.manifest.files.length} files in ${answer.manifest.ms} ms`);
        } catch (error) {
          answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
          logger.error("backup failed:", error);
        }
        socket.end(`${JSON.stringify(answer)}\n`);
      })();
    });
  });
  server.listen(socketPath, () => fs.chmodSync(socketPath, 0o600));
  server.on("error", (error) => logger.error("backup control socket:", error));
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

/** Asks the serving process for a backup; null when none listens (the script then takes it itself). */
export function requestBackup(config: Pick<AppConfig, "dataDir">, archive: string): Promise<BackupManifest | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlSocketPath(config));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify({ archive })}\n`));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(null);
      else reject(error);
    });
    socket.on("end", () => {
      try {
        const answer = JSON.parse(text) as Answer;
        if (answer.ok) resolve(answer.manifest);
        else reject(new Error(answer.error));
      } catch {
        reject(new Error("the server closed the backup request without an answer"));
      }
    });
  });
}
