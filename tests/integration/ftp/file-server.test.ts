import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileServer, destinationPath, withFileServerSession, type FileServerSession, type ProductionFileServer } from "~/modules/ftp/file-server.server";
import { UnsafePathError } from "~/modules/ftp/paths";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { failingStream, generatedStream } from "../../support/streams";
import { startTcpProxy } from "../../support/tcp-proxy";

interface Subject {
  server: ProductionFileServer;
  /** Where a remote path lives on this machine, to check results without the code under test. */
  localPath(remotePath: string): string;
  stop(): Promise<void>;
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** The behaviour every ProductionFileServer must have; the folder and SFTP implementations both run it. */
function fileServerContract(name: string, start: () => Promise<Subject>) {
  describe(name, () => {
    let subject: Subject;
    let session: FileServerSession;

    beforeAll(async () => {
      subject = await start();
      session = await subject.server.connect();
    });
    afterAll(async () => {
      await session?.end();
      await subject?.stop();
    });

    it("creates nested folders (mkdir -p), repeatedly", async () => {
      const dir = destinationPath(subject.server.root, "2024-05", "order-17", "scans");
      expect(await session.exists(dir)).toBe(false);
      await session.ensureDir(dir);
      await session.ensureDir(dir);
      expect(await session.exists(dir)).toBe(true);
      expect(fs.statSync(subject.localPath(dir)).isDirectory()).toBe(true);
      const parent = await session.list(destinationPath(subject.server.root, "2024-05"));
      expect(parent).toEqual([expect.objectContaining({ name: "order-17", type: "directory" })]);
    });

    it("uploads a stream, renames it into place and leaves no temporary file", async () => {
      const dir = destinationPath(subject.server.root, "uploads", "order-18");
      const file = destinationPath(dir, "upper.stl");
      await session.ensureDir(dir);
      const hash = createHash("sha256");
      const size = 3 * 1024 * 1024 + 123;
      await session.upload(generatedStream(size, hash, 64 * 1024), file);

      const local = await fsp.readFile(subject.localPath(file));
      expect(local.length).toBe(size);
      expect(sha256(local)).toBe(hash.digest("hex"));
      expect(fs.statSync(subject.localPath(file)).mode & 0o777).toBe(0o644);
      expect(await session.exists(file)).toBe(true);
      expect(await session.list(dir)).toEqual([expect.objectContaining({ name: "upper.stl", type: "file", size })]);
    });

    it("replaces an existing file", async () => {
      const dir = destinationPath(subject.server.root, "uploads", "order-19");
      const file = destinationPath(dir, "lower.stl");
      await session.ensureDir(dir);
      await session.upload(Readable.from([Buffer.from("first version, longer")]), file);
      await session.upload(Readable.from([Buffer.from("second")]), file);
      expect(await fsp.readFile(subject.localPath(file), "utf8")).toBe("second");
      expect((await session.list(dir)).map((entry) => entry.name)).toEqual(["lower.stl"]);
    });

    it("uploads an empty file", async () => {
      const dir = destinationPath(subject.server.root, "uploads", "empty");
      await session.ensureDir(dir);
      await session.upload(Readable.from([]), destinationPath(dir, "empty.txt"));
      expect(await fsp.readFile(subject.localPath(destinationPath(dir, "empty.txt")), "utf8")).toBe("");
    });

    it("keeps the previous file and leaves nothing behind when the source fails", async () => {
      const dir = destinationPath(subject.server.root, "uploads", "order-20");
      const file = destinationPath(dir, "upper.stl");
      await session.ensureDir(dir);
      await session.upload(Readable.from([Buffer.from("good version")]), file);
      await expect(session.upload(failingStream(256 * 1024), file)).rejects.toThrow("client went away");
      expect(await fsp.readFile(subject.localPath(file), "utf8")).toBe("good version");
      expect((await session.list(dir)).map((entry) => entry.name)).toEqual(["upper.stl"]);
    });

    it("fails to upload into a missing folder", async () => {
      const file = destinationPath(subject.server.root, "no-such-folder", "x.stl");
      await expect(session.upload(Readable.from([Buffer.from("x")]), file)).rejects.toThrow();
      expect(await session.exists(file)).toBe(false);
    });

    it("reports missing paths", async () => {
      expect(await session.exists(destinationPath(subject.server.root, "nothing", "here.stl"))).toBe(false);
    });

    it("refuses relative and climbing paths", async () => {
      await expect(session.ensureDir("relative/dir")).rejects.toBeInstanceOf(UnsafePathError);
      await expect(session.upload(Readable.from([Buffer.from("x")]), "/tmp/../etc/x")).rejects.toBeInstanceOf(UnsafePathError);
      await expect(session.exists("/a/../../b")).rejects.toBeInstanceOf(UnsafePathError);
    });

    it("works through withFileServerSession", async () => {
      const dir = destinationPath(subject.server.root, "helper");
      const names = await withFileServerSession(subject.server, async (other) => {
        await other.ensureDir(dir);
        await other.upload(Readable.from([Buffer.from("x")]), destinationPath(dir, "a.txt"));
        return (await other.list(dir)).map((entry) => entry.name);
      });
      expect(names).toEqual(["a.txt"]);
    });
  });
}

fileServerContract("folder file server", async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "file-server-"));
  return {
    server: createFileServer({ fileServer: { kind: "folder", dir, root: "AlignersFactory/" } }),
    localPath: (remotePath) => path.join(dir, remotePath),
    stop: () => fsp.rm(dir, { recursive: true, force: true }),
  };
});

describe("over real SFTP (OpenSSH)", () => {
  let sftp: TestSftpServer;

  beforeAll(async () => {
    sftp = await startSftpServer();
  });
  afterAll(async () => {
    await sftp?.stop();
  });

  fileServerContract("SFTP file server", async () => ({
    server: createFileServer({ fileServer: sftp.fileServer }),
    // The test server runs on this machine, with absolute paths: remote and local are the same.
    localPath: (remotePath) => remotePath,
    stop: async () => {},
  }));

  it("normalises the configured root", () => {
    const server = createFileServer({ fileServer: { ...sftp.fileServer, root: `${sftp.root}/` } });
    expect(server.root).toBe(sftp.root);
    expect(server.kind).toBe("sftp");
  });

  it("refuses a key that is not authorised", async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "other-key-"));
    try {
      const otherKey = path.join(dir, "id_ed25519");
      await promisify(execFile)("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey]);
      const server = createFileServer({ fileServer: { ...sftp.fileServer, privateKeyPath: otherKey } });
      await expect(server.connect()).rejects.toThrow(/authentication/i);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps the previous file when the connection dies mid-upload", async () => {
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: sftp.port } });
    try {
      const server = createFileServer({ fileServer: { ...sftp.fileServer, url: proxy.via(sftp.url) } });
      const dir = destinationPath(sftp.root, "crash");
      const file = destinationPath(dir, "upper.stl");
      const session = await server.connect();
      await session.ensureDir(dir);
      await session.upload(Readable.from([Buffer.from("complete old version")]), file);

      // Let the next megabyte through, then cut the connection.
      proxy.setLimits({ cutAfterBytes: { upstream: proxy.stats().upstreamBytes + 1024 * 1024 } });
      await expect(session.upload(Readable.from([randomBytes(4 * 1024 * 1024)]), file)).rejects.toThrow();
      expect(proxy.stats().cuts).toBe(1);
      // The dead session refuses further work instead of hanging.
      await expect(session.upload(Readable.from([Buffer.from("x")]), file)).rejects.toThrow();
      await session.end().catch(() => {});

      expect(fs.readFileSync(file, "utf8")).toBe("complete old version");
      // The partial temporary file could not be removed over the dead connection, but it is
      // hidden and never has the final name.
      const leftovers = fs.readdirSync(dir).filter((name) => name !== "upper.stl");
      for (const name of leftovers) expect(name).toMatch(/^\.upper\.stl\.[0-9a-f]+\.part$/);

      // A new connection through the same (now unlimited) proxy finishes the job.
      proxy.setLimits({});
      await withFileServerSession(server, (fresh) => fresh.upload(Readable.from([Buffer.from("new version")]), file));
      expect(fs.readFileSync(file, "utf8")).toBe("new version");
    } finally {
      await proxy.stop();
    }
  });
});
