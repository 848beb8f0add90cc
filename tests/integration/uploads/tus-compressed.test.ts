import fs from "node:fs";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileServer } from "~/modules/ftp/file-server.server";
import { processQueue } from "~/modules/ftp/transfer.server";
import { createStorage } from "~/modules/storage/storage.server";
import type { CompressedSource } from "~/modules/uploads/gzip-members";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { s3AppEnv } from "../../support/s3-server";
import { startS3WithMultipart, type TestS3WithMultipart } from "../../support/s3-multipart-front";
import { startSftpServer, type TestSftpServer } from "../../support/sftp-server";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { memberStream } from "../../support/member-stream";
import { tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { scanLikeStl } from "../../support/stl-models";
import { filesBelow, sha256, walkOrderTo } from "../ftp/fixtures";
import { startApp, type TestApp } from "../../support/app";

/**
 * Compressed resumable uploads (ADR 033) against the real parts: PostgreSQL, S3 (s3rver behind the
 * multipart front), OpenSSH's SFTP for the factory, a TCP proxy that cuts the connection. The
 * client is tus-js-client with the page's own member source. What the doctor chose is what is
 * stored and what reaches the factory, by SHA-256.
 */

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;

describe("compressed resumable uploads", () => {
  let t: TestDatabase;
  let app: TestApp;
  let s3: TestS3WithMultipart;
  let sftp: TestSftpServer;
  let proxy: TcpProxy;

  beforeAll(async () => {
    s3 = await startS3WithMultipart();
    sftp = await startSftpServer();
    app = await startApp({ env: { ...s3AppEnv(s3), S3_FORCE_PATH_STYLE: "true" } });
    t = app.database;
    proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: app.port }, bytesPerSecond: 4 * MiB });
  });
  afterAll(async () => {
    await proxy?.stop();
    await app?.close();
    await sftp?.stop();
    await s3?.stop();
  });

  const s3Client = () =>
    new S3Client({ endpoint: s3.endpoint, region: s3.region, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, forcePathStyle: true });
  const keys = async () => ((await s3Client().send(new ListObjectsV2Command({ Bucket: "orders" }))).Contents ?? []).map((object) => object.Key!);
  const matrixFiles = async (patientId: string) =>
    ((await t.db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patientId).executeTakeFirstOrThrow()).matrix_files_info as unknown as Array<
      Record<string, any>
    >) ?? [];

  it("sends a scan-like model as gzip members, survives a cut re-sending less than one chunk, and stores and delivers the chosen file byte for byte", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = scanLikeStl(420, 400, 11); // 16.8 MB: four members
    const base = proxy.via(app.url).replace(/\/$/, "");
    const before = proxy.stats().upstreamBytes;
    let source: CompressedSource | null = null;
    let cut = false;
    const progress: number[] = [];
    const result = await tusUpload({
      base,
      cookie: browser.jar.header(),
      origin: base,
      file,
      compressed: true,
      onSource: (created) => (source = created),
      metadata: { filename: "Сканер 3Shape.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
      onProgress: (wire) => {
        progress.push(source!.fileBytesAt(wire));
        if (!cut && wire > 4 * MiB) {
          cut = true;
          proxy.cutAll();
        }
      },
    });
    expect(cut).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.body.file).toMatchObject({ name: "Сканер 3Shape.stl", size: file.length, triangles: 420 * 400 * 2, scan: { format: "binary" } });
    // Progress in the file's own bytes, up to the whole file.
    expect(Math.max(...progress)).toBe(file.length);

    // About half the bytes went over the link, the cut cost less than one chunk.
    const wire = proxy.stats().upstreamBytes - before;
    expect(wire).toBeLessThan(file.length * 0.6);
    const stream = await memberStream(file);
    expect(wire).toBeGreaterThan(stream.length);
    expect(wire - stream.length).toBeLessThan(CHUNK);

    // Stored: the chosen file, at its key, once; no part of the upload left.
    const files = await matrixFiles(patient.id);
    expect(files).toHaveLength(1);
    const stored = await s3Client().send(new GetObjectCommand({ Bucket: "orders", Key: files[0]!.storagePath }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(file));
    expect((await keys()).filter((key) => key.startsWith("tus-"))).toEqual([]);
    const download = await browser.request(`/files/orders/${files[0]!.storagePath}`);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(file));

    // Sent: once the order is paid, the queue delivers the same bytes to the factory's SFTP server.
    await walkOrderTo(t.db, order.id, "paid");
    const summary = await processQueue(
      { db: t.db, storage: createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } }), fileServer: createFileServer({ fileServer: sftp.fileServer }), log: () => undefined },
      { leaseSeconds: 30, maxAttempts: 3, concurrency: 2, retryBaseMs: 300 },
    );
    expect(summary).toMatchObject({ completed: 1, failed: 0 });
    const delivered = filesBelow(sftp.root);
    expect(delivered).toHaveLength(1);
    expect(sha256(fs.readFileSync(path.join(sftp.root, delivered[0]!)))).toBe(sha256(file));
  });

  it("sends a binary PLY with the page's packing encoding (as gzip members), keeps it byte for byte and delivers the binary STL made from it (ADR 102)", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = fs.readFileSync(path.resolve("tests/fixtures/mesh/assimp_gearwheel.bin.ply"));
    const result = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file, compressed: true, packed: true, metadata: { filename: "Зубы верх.ply", orderId: order.id, patientId: patient.id, type: "matrix" } });
    expect(result.ok).toBe(true);
    expect(result.body.file).toMatchObject({ name: "Зубы верх.ply", size: file.length, triangles: 2444, scan: { source: "ply", format: "binary", boundaryEdges: 0 } });

    const [recorded] = await matrixFiles(patient.id);
    expect(recorded).toMatchObject({ originalName: "Зубы верх.ply", size: file.length, source: { format: "ply" } });
    expect(recorded!.storagePath).toMatch(/^order_.*\/Zuby_verkh_\d+\.stl$/);
    expect(recorded!.source.storagePath).toBe(recorded!.storagePath.replace(/\.stl$/, ".ply"));
    const original = await s3Client().send(new GetObjectCommand({ Bucket: "orders", Key: recorded!.source.storagePath }));
    expect(sha256(Buffer.from(await original.Body!.transformToByteArray()))).toBe(sha256(file));

    await walkOrderTo(t.db, order.id, "paid");
    const before = new Set(filesBelow(sftp.root));
    const summary = await processQueue(
      { db: t.db, storage: createStorage({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } }), fileServer: createFileServer({ fileServer: sftp.fileServer }), log: () => undefined },
      { leaseSeconds: 30, maxAttempts: 3, concurrency: 2, retryBaseMs: 300 },
    );
    expect(summary).toMatchObject({ completed: 1, failed: 0 });
    const delivered = filesBelow(sftp.root).filter((name) => !before.has(name));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatch(/\.stl$/);
    const stl = fs.readFileSync(path.join(sftp.root, delivered[0]!));
    expect([stl.length, stl.readUInt32LE(80)]).toEqual([84 + 50 * 2444, 2444]);
  });

  it("refuses a member stream that is not the announced file, keeps nothing and leaves the order as it was", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = scanLikeStl(100, 100, 5);
    const announced = { filename: "scan.stl", orderId: order.id, patientId: patient.id, type: "matrix", encoding: "gzip" };
    // The right members, a size that is not theirs.
    const lying = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file, compressed: true, metadata: { ...announced, fileSize: String(file.length + 50) } as never });
    expect([lying.status, lying.body]).toEqual([422, { ok: false, error: "mismatch", message: expect.stringContaining("не совпадает с выбранным") }]);
    // Plain bytes announced as compressed.
    const plain = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file, metadata: { ...announced, fileSize: String(file.length) } as never });
    expect([plain.status, plain.body.error]).toEqual([422, "damaged"]);
    expect(await matrixFiles(patient.id)).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
    expect((await keys()).filter((key) => key.startsWith(`order_${order.id}`) || key.startsWith("tus-"))).toEqual([]);
    const row = await t.db.selectFrom("orders").select(["status", "wizard_step"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "draft", wizard_step: 5 });
  });
});
