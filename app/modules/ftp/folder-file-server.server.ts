import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { AppConfig } from "~/modules/config/config.server";
import type { FileServerSession, ProductionFileServer, RemoteEntry } from "./types";
import { assertRemotePath, temporaryUploadPath } from "./paths";

type FolderFileServerConfig = Extract<AppConfig["fileServer"], { kind: "folder" }>;

/**
 * Development stand-in for the factory's SFTP server: remote path "/AlignersFactory/x.stl"
 * is the file "<config.dir>/AlignersFactory/x.stl". Same temporary-name-then-rename contract.
 */
export function createFolderFileServer(config: FolderFileServerConfig): ProductionFileServer {
  const base = path.resolve(config.dir);

  const localPath = (remotePath: string) => {
    assertRemotePath(remotePath);
    return path.join(base, ...remotePath.split("/").filter(Boolean));
  };

  const session: FileServerSession = {
    async ensureDir(dir) {
      await fsp.mkdir(localPath(dir), { recursive: true });
    },

    async upload(body, remotePath, options = {}) {
      const target = localPath(remotePath);
      const tmp = localPath(temporaryUploadPath(remotePath, randomBytes(6).toString("hex")));
      try {
        // "wx": never write into a file someone else is writing; 0o644 like the SFTP implementation.
        await pipeline(body, fs.createWriteStream(tmp, { flags: "wx", mode: 0o644 }), { signal: options.signal });
        await fsp.rename(tmp, target);
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        throw error;
      }
    },

    async exists(remotePath) {
      try {
        await fsp.stat(localPath(remotePath));
        return true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return false;
        throw error;
      }
    },

    async remove(remotePath) {
      await fsp.rm(localPath(remotePath), { force: true });
    },

    async list(dir) {
      const folder = localPath(dir);
      const names = await fsp.readdir(folder);
      const entries: RemoteEntry[] = [];
      for (const name of names) {
        const stats = await fsp.lstat(path.join(folder, name)).catch(() => null); // removed meanwhile
        if (!stats) continue;
        const type = stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
        entries.push({ name, type, size: stats.size, modifiedAt: stats.mtime });
      }
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async end() {},
  };

  return {
    kind: "folder",
    root: config.root,
    async connect() {
      await fsp.mkdir(base, { recursive: true });
      return session;
    },
  };
}
