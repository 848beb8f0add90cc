import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startS3Server, type TestS3Server } from "./s3-server";

/**
 * s3rver 3.7.1 lacks ListParts, AbortMultipartUpload and ListMultipartUploads, which `@tus/s3-store`
 * needs (STACK-NOTES). This small HTTP server stands in front of s3rver: it answers those three
 * from s3rver's own upload folder (`<bucket>/._S3rver_uploads/<uploadId>/{key,1,1.md5,…}`) and
 * passes every other request through untouched (headers included, so signatures still verify).
 */

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export interface FrontStats {
  listParts: number;
  aborts: number;
  listUploads: number;
  /** Bytes of UploadPart and PutObject bodies that reached s3rver. */
  bytesIn: number;
}

export interface TestS3WithMultipart extends TestS3Server {
  stats(): FrontStats;
}

async function uploadsDir(root: string, bucket: string) {
  return path.join(root, bucket, "._S3rver_uploads");
}

async function listParts(root: string, bucket: string, key: string, uploadId: string): Promise<{ status: number; body: string }> {
  const dir = path.join(await uploadsDir(root, bucket), path.basename(uploadId));
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return { status: 404, body: `${XML}<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${escape(uploadId)}</UploadId></Error>` };
  }
  // A part counts once s3rver wrote its checksum: a part cut off mid-way has none.
  const numbers = names.filter((name) => /^\d+$/.test(name) && names.includes(`${name}.md5`)).map(Number).sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (number) => {
      const [stats, md5] = await Promise.all([fs.stat(path.join(dir, String(number))), fs.readFile(path.join(dir, `${number}.md5`), "utf8")]);
      return `<Part><PartNumber>${number}</PartNumber><LastModified>${stats.mtime.toISOString()}</LastModified><ETag>"${md5.trim()}"</ETag><Size>${stats.size}</Size></Part>`;
    }),
  );
  return {
    status: 200,
    body: `${XML}<ListPartsResult ${NS}><Bucket>${escape(bucket)}</Bucket><Key>${escape(key)}</Key><UploadId>${escape(uploadId)}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`,
  };
}

async function listUploads(root: string, bucket: string): Promise<string> {
  const dir = await uploadsDir(root, bucket);
  const ids = await fs.readdir(dir).catch(() => [] as string[]);
  const uploads = await Promise.all(
    ids.map(async (id) => {
      try {
        const [key, stats] = await Promise.all([fs.readFile(path.join(dir, id, "key"), "utf8"), fs.stat(path.join(dir, id))]);
        return `<Upload><Key>${escape(key)}</Key><UploadId>${escape(id)}</UploadId><Initiated>${stats.birthtime.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`;
      } catch {
        return "";
      }
    }),
  );
  return `${XML}<ListMultipartUploadsResult ${NS}><Bucket>${escape(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
}

/** s3rver with a front answering the multipart calls it lacks; `endpoint` and `storage` point at the front. */
export async function startS3WithMultipart(): Promise<TestS3WithMultipart> {
  const s3 = await startS3Server();
  const counters: FrontStats = { listParts: 0, aborts: 0, listUploads: 0, bytesIn: 0 };

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://front");
    const [bucket = "", ...keyParts] = url.pathname.slice(1).split("/").map(decodeURIComponent);
    const key = keyParts.join("/");
    const uploadId = url.searchParams.get("uploadId");
    const reply = (status: number, body = "") => {
      response.writeHead(status, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(body) });
      response.end(body);
    };
    try {
      if (request.method === "GET" && key && uploadId && !url.searchParams.has("partNumber")) {
        counters.listParts++;
        const { status, body } = await listParts(s3.directory, bucket, key, uploadId);
        return reply(status, body);
      }
      if (request.method === "DELETE" && key && uploadId) {
        counters.aborts++;
        await fs.rm(path.join(await uploadsDir(s3.directory, bucket), path.basename(uploadId)), { recursive: true, force: true });
        return reply(204);
      }
      if (request.method === "GET" && !key && url.searchParams.has("uploads")) {
        counters.listUploads++;
        return reply(200, await listUploads(s3.directory, bucket));
      }
    } catch (error) {
      return reply(500, `${XML}<Error><Code>InternalError</Code><Message>${escape(String(error))}</Message></Error>`);
    }
    // Everything else goes to s3rver as it came.
    const upstream = http.request({ host: "127.0.0.1", port: s3.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.destroy());
    request.on("data", (chunk: Buffer) => {
      if (request.method === "PUT") counters.bytesIn += chunk.length;
    });
    request.on("error", () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    ...s3,
    endpoint,
    port,
    storage: { ...s3.storage, endpoint },
    stats: () => ({ ...counters }),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await s3.stop();
    },
  };
}
