import fs from "node:fs";
import { deflateSync } from "node:zlib";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileServer } from "~/modules/ftp/file-server.server";
import { processQueue } from "~/modules/ftp/transfer.server";
import { createStorage } from "~/modules/storage/storage.server";
import { isPackedMember, PACKED_HEADER_BYTES, PACK_VERSION } from "~/modules/uploads/stl-pack";
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
 * Packed resumable uploads (ADR 045) over real HTTP against the real parts: PostgreSQL, S3 (s3rver
 * behind the multipart front), OpenSSH's SFTP for the factory, a TCP proxy that cuts the
 * connection. The client is tus-js-client with the page's own packing source. The stored object and
 * the factory's copy are the chosen file by SHA-256; a forged packed member stores nothing.
 */

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;

describe("packed resumable uploads", () => {
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

  it("sends a scan-shaped model packed, survives a cut re-sending less than one chunk, and stores and delivers the chosen file byte for byte", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = scanLikeStl(640, 400, 12); // 25.6 MB: five chunks
    const wireStream = await memberStream(file, CHUNK, CHUNK, { packed: true });
    expect(isPackedMember(wireStream)).toBe(true);
    const base = proxy.via(app.url).replace(/\/$/, "");
    const before = proxy.stats().upstreamBytes;
    let cut = false;
    const result = await tusUpload({
      base,
      cookie: browser.jar.header(),
      origin: base,
      file,
      packed: true,
      chunkSize: 1 * MiB,
      metadata: { filename: "Скан 3Shape.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
      onProgress: (wire) => {
        if (!cut && wire > 2.5 * MiB) {
          cut = true;
          proxy.cutAll();
        }
      },
    });
    expect(cut).toBe(true);
    expect([result.ok, result.status]).toEqual([true, 200]);
    expect(result.body.file).toMatchObject({ name: "Скан 3Shape.stl", size: file.length, triangles: 640 * 400 * 2, scan: { format: "binary" } });

    // About a quarter of the file went over the link; the cut cost less than one chunk.
    const wire = proxy.stats().upstreamBytes - before;
    expect(wire).toBeLessThan(file.length * 0.3);
    expect(wire).toBeGreaterThan(wireStream.length);
    expect(wire - wireStream.length).toBeLessThan(CHUNK);

    const files = await matrixFiles(patient.id);
    expect(files).toHaveLength(1);
    const stored = await s3Client().send(new GetObjectCommand({ Bucket: "orders", Key: files[0]!.storagePath }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(file));
    expect((await keys()).filter((key) => key.startsWith("tus-"))).toEqual([]);

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

  it("finishes a packed upload whose whole stream goes in one request cut mid-way (the length told again with the same request)", async () => {
    const browser = browserFetch(app);
    const { patient, order } = await toMatrixStep(t, browser);
    const file = scanLikeStl(300, 200, 8); // 6 MB, about 1.3 MB packed: one PATCH that also tells the length
    const base = proxy.via(app.url).replace(/\/$/, "");
    proxy.setLimits({ bytesPerSecond: 1 * MiB });
    let cut = false;
    const result = await tusUpload({
      base,
      cookie: browser.jar.header(),
      origin: base,
      file,
      packed: true,
      metadata: { filename: "scan.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
      onProgress: (wire) => {
        if (!cut && wire > 0.5 * MiB) {
          cut = true;
          proxy.cutAll();
        }
      },
    });
    proxy.setLimits({ bytesPerSecond: 4 * MiB });
    expect(cut).toBe(true);
    expect([result.ok, result.status]).toEqual([true, 200]);
    const files = await matrixFiles(patient.id);
    const stored = await s3Client().send(new GetObjectCommand({ Bucket: "orders", Key: files[0]!.storagePath }));
    expect(sha256(Buffer.from(await stored.Body!.transformToByteArray()))).toBe(sha256(file));
  });

  it("refuses lying packed members (a wrong CRC-32, a wrong length, a body inflating past its size), keeps nothing and leaves the order as it was", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = scanLikeStl(300, 200, 5); // 6 MB: two chunks
    const honest = await memberStream(file, CHUNK, CHUNK, { packed: true });
    const forged = (edit: (wire: Buffer) => void) => {
      const wire = Buffer.from(honest);
      edit(wire);
      return wire;
    };
    const bomb = (() => {
      // 64 MiB of zeros in a member announcing a 100-byte body for a 5 MiB chunk.
      const body = zlibDeflate(Buffer.alloc(64 * MiB));
      const member = Buffer.alloc(PACKED_HEADER_BYTES + body.length);
      member.set([0x53, 0x50, PACK_VERSION, 0]);
      member.writeUInt32LE(member.length, 4);
      member.writeUInt32LE(CHUNK, 8);
      member.writeUInt32LE(0, 12);
      member.writeUInt32LE(100, 16);
      body.copy(member, PACKED_HEADER_BYTES);
      return member;
    })();
    const cases: Array<[string, Buffer, string]> = [
      ["a wrong CRC-32", forged((wire) => (wire[12] ^= 0x01)), "damaged"],
      ["a wrong chunk length", forged((wire) => wire.writeUInt32LE(CHUNK - 50, 8)), "mismatch"],
      ["a body past its announced size", bomb, "mismatch"],
    ];
    for (const [what, wire, error] of cases) {
      const outcome = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file, wire, metadata: { filename: "scan.stl", orderId: order.id, patientId: patient.id, type: "matrix" } });
      expect([what, outcome.status, outcome.body.error]).toEqual([what, 422, error]);
    }
    expect(await matrixFiles(patient.id)).toEqual([]);
    expect(await t.db.selectFrom("ftp_uploads_queue").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
    expect((await keys()).filter((key) => key.startsWith(`order_${order.id}`) || key.startsWith("tus-"))).toEqual([]);
    const row = await t.db.selectFrom("orders").select(["status", "wizard_step"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "draft", wizard_step: 5 });
  });
});

function zlibDeflate(bytes: Buffer): Buffer {
  return deflateSync(bytes, { level: 9 });
}
