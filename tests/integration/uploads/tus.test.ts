import fs from "node:fs";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { Server } from "@tus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataStore } from "~/modules/uploads/tus.server";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { s3AppEnv } from "../../support/s3-server";
import { startS3WithMultipart, type TestS3WithMultipart } from "../../support/s3-multipart-front";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy";
import { tusUpload } from "../../support/tus-client";
import { toMatrixStep } from "../../support/wizard-walk";
import { archStl, binaryStl } from "../../support/stl-models";
import { startApp, type TestApp } from "../../support/app";

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;

type Browser = ReturnType<typeof browserFetch>;

/** Sends the first 5 MiB chunk of an upload and goes away, as a closed tab does; resolves with its address. */
function oneChunkThenLeave(input: { base: string; cookie: string; file: Buffer; metadata: Record<string, string> }): Promise<string> {
  return new Promise((resolve, reject) => {
    void tusUpload({
      ...input,
      origin: input.base,
      metadata: input.metadata as never,
      chunkSize: CHUNK,
      retryDelays: null,
      onStart: (upload) => {
        upload.options.onChunkComplete = () => {
          void upload.abort().then(() => resolve(upload.url!));
        };
      },
    }).then((outcome) => reject(outcome.error ?? new Error("the upload ended before its first chunk")));
  });
}

const matrixFiles = async (t: TestDatabase, patientId: string) =>
  ((await t.db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patientId).executeTakeFirstOrThrow()).matrix_files_info as unknown as Array<
    Record<string, any>
  >) ?? [];
const queueOf = (t: TestDatabase, orderId: string) => t.db.selectFrom("ftp_uploads_queue").selectAll().where("order_id", "=", orderId).execute();

describe("resumable uploads (tus) with folder storage", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  const upload = (browser: Browser, file: Buffer, metadata: Record<string, string>, extra: Partial<Parameters<typeof tusUpload>[0]> = {}) =>
    tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file, metadata: metadata as never, ...extra });
  const tusLeftovers = () => {
    const dir = path.join(app.dataDir, "storage", ".tus");
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it("records a complete upload once, with its queue entry and scan, through the plain path's finishing step", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = archStl();
    const result = await upload(browser, file, { filename: "Верхняя челюсть.stl", orderId: order.id, patientId: patient.id, type: "matrix" });
    expect(result.ok).toBe(true);
    expect(result.body.ok).toBe(true);
    expect(result.body.file).toMatchObject({ name: "Верхняя челюсть.stl", size: file.length, triangles: 12 });
    expect(result.body.file.scan).toMatchObject({ format: "binary", size: { x: 62, y: 48, z: 22 }, warnings: [] });

    const files = await matrixFiles(t, patient.id);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ originalName: "Верхняя челюсть.stl", size: file.length, triangles: 12, scan: { format: "binary" } });
    expect(files[0]!.storagePath).toMatch(new RegExp(`^order_${order.id}/${order.code}_1/matrix/Verkhnyaya_chelyust_\\d+\\.stl$`));
    const queue = await queueOf(t, order.id);
    expect(queue.map((entry) => [entry.file_path, entry.status, entry.file_type])).toEqual([[files[0]!.storagePath, "pending", "matrix"]]);
    expect(fs.readFileSync(path.join(app.dataDir, "storage", "orders", files[0]!.storagePath)).equals(file)).toBe(true);
    expect(tusLeftovers()).toEqual([]);

    // The page shows it with its sync label and scan; the status route answers for this browser only.
    const page = await (await browser.request("/order")).text();
    expect(page).toContain("Верхняя челюсть.stl");
    const status = await browser.request(`/uploads/status?order=${order.id}`);
    expect(await status.json()).toEqual({ files: { [files[0]!.storagePath]: "pending" } });
    expect((await browserFetch(app).request(`/uploads/status?order=${order.id}`)).status).toBe(404);

    // Asking for the finishing step again (a lost reply) changes nothing.
    const again = await browser.request("/uploads/finish", { form: { id: result.uploadUrl!.split("/").pop()!, uploadKey: files[0]!.uploadKey } });
    expect(again.status).toBe(200);
    expect((await again.json()).file.path).toBe(files[0]!.storagePath);
    expect(await matrixFiles(t, patient.id)).toHaveLength(1);
    expect(await queueOf(t, order.id)).toHaveLength(1);

    // The viewer's download: the owner gets the bytes, a stranger a 404.
    const download = await browser.request(`/files/orders/${files[0]!.storagePath}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
    expect((await browserFetch(app).request(`/files/orders/${files[0]!.storagePath}`)).status).toBe(404);
  });

  it("refuses what the plain form refuses, and keeps nothing of a refused file", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const meta = { orderId: order.id, patientId: patient.id, type: "matrix" };

    const notStlName = await upload(browser, binaryStl(3), { ...meta, filename: "model.3mf" });
    expect([notStlName.ok, notStlName.status, notStlName.body]).toEqual([false, 415, { ok: false, error: "format", message: "разрешены только файлы .stl, .ply или .obj" }]);
    // An STL named .obj is read as the OBJ its name says (ADR 102), and is not one.
    const stlAsObj = await upload(browser, binaryStl(3), { ...meta, filename: "model.obj" });
    expect([stlAsObj.ok, stlAsObj.status, stlAsObj.body]).toEqual([false, 422, { ok: false, error: "not_mesh", message: "содержимое файла не читается как модель PLY или OBJ — файл повреждён или это другой формат" }]);

    const tooLarge = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file: Buffer.alloc(16), metadata: { ...meta, filename: "big.stl" } as never, retryDelays: null, onStart: (u) => (u.options.uploadSize = 100 * MiB + 1) });
    expect([tooLarge.ok, tooLarge.status]).toEqual([false, 413]);

    const text = await upload(browser, Buffer.from("solid but then just notes\nnothing else\n"), { ...meta, filename: "notes.stl" });
    expect([text.ok, text.status, text.body]).toEqual([false, 422, { ok: false, error: "not_stl", message: "содержимое файла не является STL-моделью" }]);

    const stranger = browserFetch(app);
    const foreign = await upload(stranger, binaryStl(3), { ...meta, filename: "x.stl" });
    expect([foreign.ok, foreign.status]).toEqual([false, 404]);

    const otherOrder = await toMatrixStep(t, stranger);
    const wrongPatient = await upload(browser, binaryStl(3), { ...meta, patientId: otherOrder.patient.id, filename: "x.stl" });
    expect([wrongPatient.ok, wrongPatient.status]).toEqual([false, 404]);

    expect(await matrixFiles(t, patient.id)).toEqual([]);
    expect(await queueOf(t, order.id)).toEqual([]);
    expect(fs.existsSync(path.join(app.dataDir, "storage", "orders", `order_${order.id}`))).toBe(false);
    expect(tusLeftovers()).toEqual([]);
  });

  it("answers 404 to a stranger who learns an upload's address", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const url = await oneChunkThenLeave({ base: app.url, cookie: browser.jar.header(), file: binaryStl(400_000), metadata: { filename: "a.stl", orderId: order.id, patientId: patient.id, type: "matrix" } });
    expect(url).toMatch(/\/uploads\/tus\/tus-/);
    const stranger = browserFetch(app);
    const head = await fetch(new URL(url, app.url), { method: "HEAD", headers: { "Tus-Resumable": "1.0.0", Cookie: stranger.jar.header() } });
    expect(head.status).toBe(404);
    const owner = await fetch(new URL(url, app.url), { method: "HEAD", headers: { "Tus-Resumable": "1.0.0", Cookie: browser.jar.header() } });
    expect(owner.status).toBe(200);
    expect(Number(owner.headers.get("Upload-Offset"))).toBe(CHUNK);
    const get = await fetch(new URL(url, app.url), { headers: { Cookie: browser.jar.header() } });
    expect(get.status).toBe(405);
  });

  it("resumes from the stored offset after the connection drops mid-way", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: app.port }, bytesPerSecond: 6 * MiB });
    try {
      const file = binaryStl(260_000); // 13 MB
      let cut = false;
      const result = await tusUpload({
        base: proxy.via(app.url).replace(/\/$/, ""),
        cookie: browser.jar.header(),
        origin: proxy.via(app.url).replace(/\/$/, ""),
        file,
        metadata: { filename: "resume.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
        chunkSize: CHUNK,
        onProgress: (sent) => {
          if (!cut && sent > 7 * MiB) {
            cut = true;
            proxy.cutAll();
          }
        },
      });
      expect(cut).toBe(true);
      expect(result.ok).toBe(true);
      expect(proxy.stats().cuts).toBeGreaterThan(0);
      expect(proxy.stats().upstreamBytes).toBeLessThan(file.length + CHUNK);
      const files = await matrixFiles(t, patient.id);
      expect(files.map((entry) => entry.originalName)).toEqual(["resume.stl"]);
      expect(await queueOf(t, order.id)).toHaveLength(1);
      expect(fs.readFileSync(path.join(app.dataDir, "storage", "orders", files[0]!.storagePath)).equals(file)).toBe(true);
    } finally {
      await proxy.stop();
    }
  });

  it("sends the order's e-mail a sign-in link back to this order (another device), to its own browser only", async () => {
    const browser = browserFetch(app);
    const { order } = await toMatrixStep(t, browser);
    expect((await browserFetch(app).request("/uploads/continue", { form: { orderId: order.id } })).status).toBe(404);
    const sent = await browser.request("/uploads/continue", { form: { orderId: order.id } });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/order?id=${order.id}`);
    const token = await t.db.selectFrom("sign_in_tokens").selectAll().where("email", "=", order.email!).executeTakeFirstOrThrow();
    expect(token.redirect_to).toBe(`/order?id=${order.id}`);
    expect(await (await browser.request(`/order?id=${order.id}`)).text()).toContain("Письмо отправлено");
  });

  it("expires abandoned partial uploads", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    await oneChunkThenLeave({ base: app.url, cookie: browser.jar.header(), file: binaryStl(200_000), metadata: { filename: "left.stl", orderId: order.id, patientId: patient.id, type: "matrix" } });
    expect(tusLeftovers().length).toBeGreaterThan(0);
    // The app's store, seen with a 1 ms lifetime: what the scheduled job does after a day.
    const store = createDataStore({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } }, 1);
    const removed = await new Server({ path: "/uploads/tus", datastore: store }).cleanUpExpiredUploads();
    expect(removed).toBeGreaterThan(0);
    expect(tusLeftovers()).toEqual([]);
  });
});

describe("resumable uploads (tus) with S3 storage", () => {
  let t: TestDatabase;
  let app: TestApp;
  let s3: TestS3WithMultipart;
  let proxy: TcpProxy;

  beforeAll(async () => {
    s3 = await startS3WithMultipart();
    app = await startApp({
      env: {
        ...s3AppEnv(s3),
        S3_FORCE_PATH_STYLE: "true",
      },
    });
    t = app.database;
    proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: app.port }, bytesPerSecond: 6 * MiB });
  });
  afterAll(async () => {
    await proxy?.stop();
    await app?.close();
    await s3?.stop();
  });

  const client = () =>
    new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      forcePathStyle: true,
    });
  const keys = async () => ((await client().send(new ListObjectsV2Command({ Bucket: "orders" }))).Contents ?? []).map((object) => object.Key!);

  it("cuts the connection mid-way and completes from the stored parts, re-sending less than one chunk", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = binaryStl(260_000); // 13 MB: 5 + 5 + 3 MiB parts
    let cut = false;
    const base = proxy.via(app.url).replace(/\/$/, "");
    const before = proxy.stats().upstreamBytes;
    const result = await tusUpload({
      base,
      cookie: browser.jar.header(),
      origin: base,
      file,
      metadata: { filename: "s3.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
      chunkSize: CHUNK,
      onProgress: (sent) => {
        if (!cut && sent > 8 * MiB) {
          cut = true;
          proxy.cutAll();
        }
      },
    });
    expect(cut).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.body.file.scan.format).toBe("binary");
    const sent = proxy.stats().upstreamBytes - before;
    expect(sent).toBeGreaterThan(file.length);
    expect(sent).toBeLessThan(file.length + CHUNK);
    expect(s3.stats().listParts).toBeGreaterThan(0);

    const files = await matrixFiles(t, patient.id);
    expect(files).toHaveLength(1);
    expect(await queueOf(t, order.id)).toHaveLength(1);
    // The file sits at its key; no part or info object of the upload is left.
    const stored = await keys();
    expect(stored).toContain(files[0]!.storagePath);
    expect(stored.filter((key) => key.startsWith("tus-"))).toEqual([]);
  });

  it("joins the small chunks a slow link sends (256 KiB up, ADR 096) into S3 parts and stores the file byte for byte", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const file = binaryStl(130_000); // 6.2 MiB: a 5 MiB part and the rest, from chunks of 300 KiB
    const result = await tusUpload({
      base: app.url.replace(/\/$/, ""),
      cookie: browser.jar.header(),
      origin: app.url.replace(/\/$/, ""),
      file,
      metadata: { filename: "s3-small-chunks.stl", orderId: order.id, patientId: patient.id, type: "matrix" },
      chunkSize: 300 * 1024,
    });
    expect(result.ok).toBe(true);
    const files = await matrixFiles(t, patient.id);
    const stored = files.find((entry) => entry.originalName === "s3-small-chunks.stl");
    expect(stored).toBeDefined();
    expect(stored!.size).toBe(file.length);
    const download = await browser.request(`/files/orders/${stored!.storagePath}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
    // No part or info object of the upload is left.
    expect((await keys()).filter((key) => key.startsWith("tus-"))).toEqual([]);
  });

  it("refuses a file that is not STL without storing it, and expires abandoned multipart uploads", async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(t, browser);
    const junk = Buffer.alloc(6 * MiB, 0x41);
    const refused = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file: junk, metadata: { filename: "junk.stl", orderId: order.id, patientId: patient.id, type: "matrix" } });
    expect([refused.status, refused.body]).toEqual([422, { ok: false, error: "not_stl", message: "содержимое файла не является STL-моделью" }]);
    expect((await keys()).filter((key) => key.startsWith(`order_${order.id}`) || key.startsWith("tus-"))).toEqual([]);

    await oneChunkThenLeave({ base: app.url, cookie: browser.jar.header(), file: binaryStl(240_000), metadata: { filename: "left.stl", orderId: order.id, patientId: patient.id, type: "matrix" } });
    expect((await keys()).some((key) => key.startsWith("tus-"))).toBe(true);
    const store = createDataStore({ storage: s3.storage, buckets: { orders: "orders", logos: "logos" } }, 1);
    await new Server({ path: "/uploads/tus", datastore: store }).cleanUpExpiredUploads();
    expect((await keys()).filter((key) => key.startsWith("tus-"))).toEqual([]);
    expect(s3.stats().listUploads).toBeGreaterThan(0);
  });
});
