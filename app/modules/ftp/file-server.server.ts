import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { createFolderFileServer } from "./folder-file-server.server";
import { normaliseRoot } from "./paths";
import { createSftpFileServer } from "./sftp-file-server.server";
import type { FileServerSession, ProductionFileServer } from "./types";

export type { FileServerSession, ProductionFileServer } from "./types";

export { destinationPath } from "./paths";

export function createFileServer(config: Pick<AppConfig, "fileServer">): ProductionFileServer {
  const fileServer = config.fileServer;
  const root = normaliseRoot(fileServer.root);
  switch (fileServer.kind) {
    case "folder":
      return createFolderFileServer({ ...fileServer, root });
    case "sftp":
      return createSftpFileServer({ ...fileServer, root });
  }
}

let shared: ProductionFileServer | undefined;

/** The process-wide production file server of the configured kind (it connects per session). */
export function getFileServer(): ProductionFileServer {
  shared ??= createFileServer(getConfig());
  return shared;
}

/** Runs `work` with a fresh session and always ends it. */
export async function withFileServerSession<T>(server: ProductionFileServer, work: (session: FileServerSession) => Promise<T>): Promise<T> {
  const session = await server.connect();
  try {
    return await work(session);
  } finally {
    await session.end();
  }
}
