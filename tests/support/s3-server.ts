import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { AppConfig } from "~/modules/config/config.server";

export interface TestS3Server {
  endpoint: string;
  port: number;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Ready for `createStorage({ storage, buckets })`. */
  storage: Extract<AppConfig["storage"], { kind: "s3" }>;
  /** Where s3rver keeps its buckets. */
  directory: string;
  /** The s3rver process, to watch its memory apart from the test's. */
  pid: number;
  stop(): Promise<void>;
}

/*
 * s3rver 3.7.1 answers a PutObject when the body has passed its checksum, not when the file holding
 * it is written (FilesystemStore#putObject resolves on the wrong stream's "finish"; for a Buffer body,
 * at once): a listing or GET right after the answer could see the object empty, which real S3 never
 * shows (it reads its own writes). The same method, resolving when the file is closed.
 */
const PUT_WAITS_FOR_THE_FILE = `
{
  const fs = require("fs");
  const path = require("path");
  const { pipeline } = require("stream/promises");
  const { Transform } = require("stream");
  const FilesystemStore = require(path.join(path.dirname(process.env.S3RVER_MODULE), "stores/filesystem.js"));
  FilesystemStore.prototype.putObject = async function (object) {
    const objectPath = this.getResourcePath(object.bucket, object.key, "object");
    await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = require("crypto").createHash("md5");
    let size = 0;
    const count = new Transform({ transform(chunk, encoding, callback) { md5.update(chunk); size += chunk.length; callback(null, chunk); } });
    await pipeline(Buffer.isBuffer(object.content) ? [object.content] : object.content, count, fs.createWriteStream(objectPath));
    const hex = md5.digest("hex");
    await this.putMetadata(object.bucket, object.key, object.metadata, hex);
    return { size, md5: hex };
  };
}
`;

/*
 * s3rver runs in a child process because it encrypts ListObjectsV2 continuation tokens with DES,
 * which Node 17+ (OpenSSL 3) only offers with --openssl-legacy-provider: in-process, any listing
 * longer than one page (1000 keys) fails with InternalError. A separate process also keeps the
 * server's memory out of the memory measured by the tests.
 */
const CHILD = `
const S3rver = require(process.env.S3RVER_MODULE);
${PUT_WAITS_FOR_THE_FILE}
// Exit with the test process: its end of the stdin pipe closes when it dies.
process.stdin.on("end", () => process.exit(0)).resume();
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: process.env.S3RVER_DIRECTORY })
  .run()
  .then(({ port }) => process.stdout.write(JSON.stringify({ port }) + "\\n"))
  .catch((error) => { console.error(error); process.exit(1); });
`;

/** The app's S3 variables for a test server (or for a front or proxy at `endpoint`). */
export function s3AppEnv(s3: Pick<TestS3Server, "endpoint" | "region" | "accessKeyId" | "secretAccessKey">, endpoint = s3.endpoint): Record<string, string> {
  return { S3_ENDPOINT: endpoint, S3_REGION: s3.region, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey };
}

/** s3rver on a free loopback port (chosen by the kernel), storing into a fresh temp directory. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-"));
  const child = spawn(process.execPath, ["--openssl-legacy-provider", "-e", CHILD], {
    env: { ...process.env, NODE_OPTIONS: "", S3RVER_MODULE: createRequire(import.meta.url).resolve("s3rver"), S3RVER_DIRECTORY: directory },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    await fs.rm(directory, { recursive: true, force: true });
  };

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("s3rver did not start within 15 s")), 15_000);
      createInterface({ input: child.stdout }).once("line", (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited: ${stderr.trim() || "no output"}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts only these fixed credentials.
  const accessKeyId = "S3RVER";
  const secretAccessKey = "S3RVER";
  const region = "us-east-1";
  return {
    endpoint,
    port,
    region,
    accessKeyId,
    secretAccessKey,
    storage: { kind: "s3", endpoint, region, accessKeyId, secretAccessKey, forcePathStyle: true },
    directory,
    pid: child.pid!,
    stop,
  };
}
