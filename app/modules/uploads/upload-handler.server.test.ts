import { MultipartFieldTooLargeError, parseMultipartFormData } from "./multipart.server";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFolderStorage } from "~/modules/storage/folder-storage.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { storageKey, storedFileName } from "./file-names";
import { asciiStl, binaryStl, binaryStlChunks, fillerChunks } from "./stl-fixtures";
import {
  createStlUploadHandler,
  MAX_STL_FILE_BYTES,
  type StlUploadHandlerOptions,
  UploadOverQuota,
} from "./upload-handler.server";

const MiB = 1024 * 1024;
const ORDER = "0b6f1c9e-3f2a-4c1d-9e8b-7a6d5c4b3a21";
const NOW = 1_700_000_000_000;
const encoder = new TextEncoder();

type Content = string | Uint8Array | (() => AsyncIterable<Uint8Array>);
type Part = { name: string; value: string } | { name: string; filename: string; content: Content; contentType?: string };

interface BodyProgress {
  produced: number;
}

/**
 * A multipart/form-data request whose body is generated as the parser reads it, so a 100 MiB
 * file never exists in one buffer. `failAfter` makes the body fail (a client going away) once that
 * many bytes have been sent.
 */
function multipartRequest(parts: Part[], { progress, failAfter }: { progress?: BodyProgress; failAfter?: number } = {}): Request {
  const boundary = `----vitest${Math.random().toString(16).slice(2)}`;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
      if ("filename" in part) head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? "application/octet-stream"}`;
      yield encoder.encode(`${head}\r\n\r\n`);
      if ("value" in part) yield encoder.encode(part.value);
      else if (typeof part.content === "string") yield encoder.encode(part.content);
      else if (part.content instanceof Uint8Array) yield part.content;
      else yield* part.content();
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const chunks = generate();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (failAfter !== undefined && sent >= failAfter) {
        controller.error(new Error("client went away"));
        return;
      }
      const { value, done } = await chunks.next();
      if (done) {
        controller.close();
        return;
      }
      sent += value.length;
      if (progress) progress.produced = sent;
      controller.enqueue(value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Request("http://localhost/upload", {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  } as RequestInit & { duplex: "half" });
}

const keyFor = (name: string, at: Date) => storageKey(ORDER, "ivanov_1", "aligners", storedFileName(name, at));

async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    for (let start = 0; start < chunk.length; start += size) yield chunk.subarray(start, start + size);
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(current: string): Promise<void> {
    for (const entry of await fsp.readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(dir, full));
    }
  }
  await walk(dir);
  return found.sort();
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let collectGarbage: (() => void) | undefined;
function gc(): void {
  if (!collectGarbage) {
    v8.setFlagsFromString("--expose-gc");
    collectGarbage = vm.runInNewContext("gc") as () => void;
  }
  collectGarbage();
}

/** Peak RSS growth while `work` runs, sampled every 25 ms after a full GC (what the code keeps alive). */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const sample = () => {
    gc();
    return process.memoryUsage().rss;
  };
  const baseline = sample();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, sample());
  }, 25);
  try {
    const result = await work();
    peak = Math.max(peak, sample());
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(timer);
  }
}

const tempDirs: string[] = [];
let dir: string;
let storage: FileStorage;

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), "stl-upload-"));
  tempDirs.push(dir);
  storage = createFolderStorage({ kind: "folder", dir }, { orders: "orders", logos: "logos" });
  await storage.ensureBuckets();
});

afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

afterAll(async () => {
  for (const tempDir of tempDirs) await fsp.rm(tempDir, { recursive: true, force: true });
});

function upload(request: Request, options: Partial<StlUploadHandlerOptions> = {}) {
  let tick = 0;
  const handler = createStlUploadHandler({
    storage,
    keyFor,
    now: () => new Date(NOW + 1000 * tick++),
    ...options,
  });
  return {
    handler,
    parsing: parseMultipartFormData(request, handler.handler),
  };
}

describe("memory", () => {
  // First in the file, so the baseline is not inflated by earlier tests.
  it("stays flat while a 100 MiB binary STL streams through the handler", { timeout: 180_000 }, async () => {
    const triangles = Math.floor((MAX_STL_FILE_BYTES - 84) / 50);
    const size = 84 + 50 * triangles;
    const request = multipartRequest([
      { name: "orderId", value: ORDER },
      {
        name: "files",
        filename: "big.stl",
        content: () => binaryStlChunks(triangles),
      },
    ]);
    const { result, growth } = await peakRssGrowth(async () => {
      const { handler, parsing } = upload(request);
      await parsing;
      return handler.results();
    });
    console.info(`100 MiB STL (${size} bytes) through the upload handler: peak RSS growth ${(growth / MiB).toFixed(1)} MiB`);
    expect(result).toEqual([expect.objectContaining({ ok: true, size, triangles, format: "binary" })]);
    expect((await storage.head("orders", result[0].ok ? result[0].key : ""))?.size).toBe(size);
    expect(growth).toBeLessThan(64 * MiB);
  });
});

describe("createStlUploadHandler", () => {
  it("stores good files, reports a bad one and returns the text fields", async () => {
    const binary = binaryStl(12);
    const ascii = asciiStl(5);
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "orderId", value: ORDER },
        { name: "patientId", value: "Иванов 1" },
        { name: "intent", value: "upload-aligners" },
        { name: "files", filename: "Шаг 01 верх.stl", content: binary },
        {
          name: "files",
          filename: "notes.stl",
          content: "Пациент: Иванов\nверх и низ\n",
          contentType: "text/plain",
        },
        { name: "files", filename: "Иванов Пётр (НЧ).stl", content: ascii },
      ]),
    );
    const form = await parsing;
    expect(Object.fromEntries(form)).toEqual({ orderId: ORDER, patientId: "Иванов 1", intent: "upload-aligners" });
    expect(form.has("files")).toBe(false);
    expect(handler.fields().get("patientId")).toBe("Иванов 1");

    const prefix = `order_${ORDER}/ivanov_1/aligners`;
    expect(handler.results()).toEqual([
      {
        ok: true,
        originalName: "Шаг 01 верх.stl",
        storedName: `Shag_01_verkh_${NOW}.stl`,
        key: `${prefix}/Shag_01_verkh_${NOW}.stl`,
        size: binary.length,
        triangles: 12,
        format: "binary",
        // The scan checks run in the same pass (the fixture is a strip of separate triangles: open).
        scan: expect.objectContaining({ format: "binary", triangles: 12, warnings: expect.arrayContaining(["open_mesh"]) }),
        uploadedAt: new Date(NOW).toISOString(),
      },
      { ok: false, originalName: "notes.stl", error: "not_stl" },
      {
        ok: true,
        originalName: "Иванов Пётр (НЧ).stl",
        storedName: `Ivanov_Pyotr_NCH_${NOW + 2000}.stl`,
        key: `${prefix}/Ivanov_Pyotr_NCH_${NOW + 2000}.stl`,
        size: Buffer.byteLength(ascii),
        triangles: 5,
        format: "ascii",
        scan: expect.objectContaining({ format: "ascii", triangles: 5 }),
        uploadedAt: new Date(NOW + 2000).toISOString(),
      },
    ]);
    expect(await filesUnder(dir)).toEqual([
      `.meta/orders/${prefix}/Ivanov_Pyotr_NCH_${NOW + 2000}.stl`,
      `.meta/orders/${prefix}/Shag_01_verkh_${NOW}.stl`,
      `orders/${prefix}/Ivanov_Pyotr_NCH_${NOW + 2000}.stl`,
      `orders/${prefix}/Shag_01_verkh_${NOW}.stl`,
    ]);
    const stored = await storage.get("orders", `${prefix}/Shag_01_verkh_${NOW}.stl`);
    expect(stored?.contentType).toBe("model/stl");
    expect(Buffer.compare(await bytesOf(stored!.body), Buffer.from(binary))).toBe(0);
  });

  it("refuses a .txt renamed .stl and leaves nothing", async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        {
          name: "files",
          filename: "readme.stl",
          content: "This is a text file.\n".repeat(5000),
        },
      ]),
    );
    await parsing;
    expect(handler.results()).toEqual([{ ok: false, originalName: "readme.stl", error: "not_stl" }]);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it("refuses a truncated binary STL and an empty file", async () => {
    const cut = binaryStl(100).subarray(0, 84 + 50 * 99 + 10);
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "cut.stl", content: cut },
        { name: "files", filename: "empty.stl", content: new Uint8Array(0) },
      ]),
    );
    await parsing;
    expect(handler.results()).toEqual([
      { ok: false, originalName: "cut.stl", error: "truncated" },
      { ok: false, originalName: "empty.stl", error: "empty" },
    ]);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it("accepts an upper-case .STL name", async () => {
    const { handler, parsing } = upload(multipartRequest([{ name: "files", filename: "UPPER JAW.STL", content: binaryStl(3) }]));
    await parsing;
    expect(handler.results()).toEqual([
      expect.objectContaining({
        ok: true,
        storedName: `UPPER_JAW_${NOW}.stl`,
        triangles: 3,
      }),
    ]);
  });

  it("drains a non-.stl file without touching storage and goes on", async () => {
    const calls: string[] = [];
    const spy: FileStorage = {
      ...storage,
      put: (...args) => (calls.push(`put ${args[1]}`), storage.put(...args)),
      head: (...args) => (calls.push(`head ${args[1]}`), storage.head(...args)),
      delete: (...args) => (calls.push("delete"), storage.delete(...args)),
    };
    const { handler, parsing } = upload(
      multipartRequest([
        {
          name: "files",
          filename: "photo.png",
          content: () => fillerChunks(3 * MiB),
        },
        { name: "files", filename: "scan.3mf", content: "v 0 0 0\n" },
        { name: "files", filename: "ok.stl", content: binaryStl(1) },
      ]),
      { storage: spy },
    );
    await parsing;
    expect(handler.results()).toEqual([
      { ok: false, originalName: "photo.png", error: "format" },
      { ok: false, originalName: "scan.3mf", error: "format" },
      expect.objectContaining({ ok: true, originalName: "ok.stl" }),
    ]);
    expect(calls).toEqual([`head order_${ORDER}/ivanov_1/aligners/ok_${NOW}.stl`, `put order_${ORDER}/ivanov_1/aligners/ok_${NOW}.stl`]);
  });

  it("refuses a 101 MiB file with 'size', leaves nothing and still stores the next file", { timeout: 180_000 }, async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        {
          name: "files",
          filename: "huge.stl",
          content: () => fillerChunks(101 * MiB),
        },
        { name: "files", filename: "after.stl", content: binaryStl(2) },
      ]),
    );
    await parsing;
    expect(handler.results()).toEqual([
      { ok: false, originalName: "huge.stl", error: "size" },
      expect.objectContaining({ ok: true, originalName: "after.stl", triangles: 2 }),
    ]);
    expect(await filesUnder(dir)).toEqual([
      `.meta/orders/order_${ORDER}/ivanov_1/aligners/after_${NOW + 1000}.stl`,
      `orders/order_${ORDER}/ivanov_1/aligners/after_${NOW + 1000}.stl`,
    ]);
  });

  it("never passes storage a byte beyond the limit", async () => {
    let largest = 0;
    const counting: FileStorage = {
      ...storage,
      async put(_bucket, _key, body) {
        let bytes = 0;
        for await (const chunk of body) {
          bytes += (chunk as Buffer).length;
          largest = Math.max(largest, bytes);
        }
        return { size: bytes };
      },
    };
    const { handler, parsing } = upload(
      multipartRequest([
        {
          name: "files",
          filename: "a.stl",
          content: () => fillerChunks(1_000_000, 3_000),
        },
      ]),
      { storage: counting, maxFileBytes: 300_000 },
    );
    await parsing;
    expect(handler.results()).toEqual([{ ok: false, originalName: "a.stl", error: "size" }]);
    expect(largest).toBeLessThanOrEqual(300_000);
    expect(largest).toBeGreaterThan(100_000); // it did stream, and was cut near the limit
  });

  it("accepts a file of exactly the limit", async () => {
    const model = binaryStl(10);
    const { handler, parsing } = upload(multipartRequest([{ name: "files", filename: "a.stl", content: model }]), {
      maxFileBytes: model.length,
    });
    await parsing;
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, size: model.length })]);
  });

  it("reports files beyond maxFiles as too_many (bad files do not count)", async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "1.stl", content: binaryStl(1) },
        { name: "files", filename: "bad.stl", content: "nope" },
        { name: "files", filename: "2.stl", content: binaryStl(1) },
        { name: "files", filename: "3.stl", content: binaryStl(1) },
      ]),
      { maxFiles: 2 },
    );
    await parsing;
    expect(handler.results().map((result) => (result.ok ? "ok" : result.error))).toEqual(["ok", "not_stl", "ok", "too_many"]);
    expect((await storage.list("orders")).length).toBe(2);
  });

  it("fails the whole parse at the first byte past maxTotalBytes, keeping nothing of the file it was storing", async () => {
    const first = binaryStl(100);
    const second = binaryStl(100);
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "1.stl", content: first },
        { name: "files", filename: "2.stl", content: second },
      ]),
      { maxTotalBytes: first.length + second.length - 1 },
    );
    await expect(parsing).rejects.toBeInstanceOf(UploadOverQuota);
    // The first file was stored whole; the caller discards it with the rest of the request.
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, size: first.length })]);
    await handler.discardStored();
    expect(await storage.list("orders")).toEqual([]);
  });

  it("stores files that fill maxTotalBytes exactly", async () => {
    const first = binaryStl(100);
    const { handler, parsing } = upload(multipartRequest([{ name: "files", filename: "1.stl", content: first }]), { maxTotalBytes: first.length });
    await parsing;
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, size: first.length })]);
  });

  it("gives two files with the same name in the same millisecond different keys", async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "same.stl", content: binaryStl(1) },
        { name: "files", filename: "same.stl", content: binaryStl(2) },
      ]),
      { now: () => new Date(NOW) },
    );
    await parsing;
    expect(handler.results().map((result) => (result.ok ? result.storedName : result.error))).toEqual([
      `same_${NOW}.stl`,
      `same_${NOW + 1}.stl`,
    ]);
  });

  it("reports a storage failure, leaves nothing and goes on with the next file", async () => {
    const failing: FileStorage = {
      ...storage,
      async put(bucket, key, body, options) {
        if (!key.includes("broken")) return storage.put(bucket, key, body, options);
        let bytes = 0;
        for await (const chunk of body) {
          bytes += (chunk as Buffer).length;
          if (bytes > 100_000) throw new Error("disk full");
        }
        return { size: bytes };
      },
    };
    const { handler, parsing } = upload(
      multipartRequest([
        {
          name: "files",
          filename: "broken.stl",
          content: () => binaryStlChunks(40_000),
        },
        { name: "files", filename: "fine.stl", content: binaryStl(2) },
      ]),
      { storage: failing },
    );
    await parsing;
    expect(handler.results()).toEqual([
      {
        ok: false,
        originalName: "broken.stl",
        error: "storage",
        message: "disk full",
      },
      expect.objectContaining({ ok: true, originalName: "fine.stl" }),
    ]);
    expect((await storage.list("orders")).map((object) => object.key)).toEqual([`order_${ORDER}/ivanov_1/aligners/fine_${NOW + 1000}.stl`]);
  });

  it("never overwrites an existing object", async () => {
    const existing = `order_${ORDER}/ivanov_1/aligners/taken_${NOW}.stl`;
    await storage.put("orders", existing, Readable.from([Buffer.from("old")]));
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "taken.stl", content: binaryStl(1) },
        { name: "files", filename: "free.stl", content: binaryStl(1) },
      ]),
    );
    await parsing;
    expect(handler.results()).toEqual([
      {
        ok: false,
        originalName: "taken.stl",
        error: "storage",
        message: expect.stringContaining("already exists"),
      },
      expect.objectContaining({ ok: true, originalName: "free.stl" }),
    ]);
    expect((await storage.head("orders", existing))?.size).toBe(3);
  });

  it("lets keyFor read the fields sent before the files, and abort the parse", async () => {
    const request = () =>
      multipartRequest([
        { name: "orderId", value: ORDER },
        { name: "patientFolder", value: "petrov_2" },
        { name: "files", filename: "a.stl", content: binaryStl(1) },
      ]);
    const created: ReturnType<typeof createStlUploadHandler> = createStlUploadHandler({
      storage,
      now: () => new Date(NOW),
      keyFor: async (name, at) => {
        const fields = created.fields();
        return storageKey(fields.get("orderId") ?? "", fields.get("patientFolder") ?? "", "retainer", storedFileName(name, at));
      },
    });
    await parseMultipartFormData(request(), created.handler);
    expect(created.results()).toEqual([
      expect.objectContaining({
        ok: true,
        key: `order_${ORDER}/petrov_2/retainer/a_${NOW}.stl`,
      }),
    ]);

    const refusing = createStlUploadHandler({
      storage,
      keyFor: () => {
        throw new Error("Информация о заказе или пациенте отсутствует");
      },
    });
    await expect(parseMultipartFormData(request(), refusing.handler)).rejects.toThrow("Информация о заказе");
    expect((await storage.list("orders")).length).toBe(1);
  });

  it("fails the parse when the client goes away mid-file and keeps nothing half written", async () => {
    const { handler, parsing } = upload(
      multipartRequest(
        [
          { name: "files", filename: "whole.stl", content: binaryStl(3) },
          {
            name: "files",
            filename: "partial.stl",
            content: () => binaryStlChunks(100_000),
          },
        ],
        { failAfter: 2 * MiB },
      ),
    );
    await expect(parsing).rejects.toThrow("client went away");
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, originalName: "whole.stl" })]);
    await handler.discardStored();
    expect(await filesUnder(dir)).toEqual([]);
  });

  it("reads the request only as fast as storage writes (back-pressure)", { timeout: 60_000 }, async () => {
    const progress: BodyProgress = { produced: 0 };
    let consumed = 0;
    let largestLead = 0;
    // Like a slow disk or S3 link: a writable that takes 2 ms per 16 KiB write.
    const slow: FileStorage = {
      ...storage,
      async put(_bucket, _key, body) {
        const sink = new Writable({
          highWaterMark: 16 * 1024,
          write(chunk: Buffer, _encoding, callback) {
            consumed += chunk.length;
            setTimeout(() => {
              // What the request has sent beyond what storage took, after giving it time to run ahead.
              largestLead = Math.max(largestLead, progress.produced - consumed);
              callback();
            }, 2);
          },
        });
        await pipeline(body, sink);
        return { size: consumed };
      },
    };
    const triangles = Math.floor((8 * MiB) / 50);
    const { handler, parsing } = upload(
      multipartRequest(
        [
          {
            name: "files",
            filename: "slow.stl",
            content: () => rechunk(binaryStlChunks(triangles), 16 * 1024),
          },
        ],
        {
          progress,
        },
      ),
      { storage: slow },
    );
    await parsing;
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, triangles })]);
    console.info(`back-pressure: the request was at most ${(largestLead / 1024).toFixed(0)} KiB ahead of a slow storage`);
    // Readable buffer (64 KiB) + writable buffer + a few chunks in the parser; never megabytes.
    expect(largestLead).toBeLessThan(512 * 1024);
  });

  it("ignores empty file inputs and files under other field names", async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "", content: new Uint8Array(0) },
        { name: "logo", filename: "logo.stl", content: binaryStl(1) },
        { name: "files", filename: "real.stl", content: binaryStl(1) },
      ]),
    );
    const form = await parsing;
    expect([...form.keys()]).toEqual([]);
    expect(handler.results()).toEqual([expect.objectContaining({ ok: true, originalName: "real.stl" })]);
    expect((await storage.list("orders")).length).toBe(1);
  });

  it("refuses an oversized text field", async () => {
    const { parsing } = upload(multipartRequest([{ name: "orderId", value: "x".repeat(70_000) }]));
    await expect(parsing).rejects.toThrow(MultipartFieldTooLargeError);
  });
});

describe("PLY and OBJ (ADR 102)", () => {
  const quadObj = "o Plate\nv 0 0 0\nv 30 0 0\nv 30 40 0\nv 0 40 0\nv 0 0 25\nf 1 2 3 4\nf -5 -4 -1\n";
  const asciiPly = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0 9\n30 0 0 9\n0 40 25 9\n3 0 1 2\n";

  it("keeps the original as sent and stores the binary STL made from it beside it", async () => {
    const { handler, parsing } = upload(
      multipartRequest([
        { name: "files", filename: "Верх.obj", content: quadObj },
        { name: "files", filename: "scan.PLY", content: asciiPly },
      ]),
    );
    await parsing;
    const [obj, ply] = handler.results();
    expect(obj).toMatchObject({ ok: true, originalName: "Верх.obj", triangles: 3, size: quadObj.length, key: keyFor("Верх.obj", new Date(NOW)), source: { key: keyFor("Verkh", new Date(NOW)).replace(/\.stl$/, ".obj"), format: "obj" } });
    expect(ply).toMatchObject({ ok: true, triangles: 1, source: { format: "ply" } });
    expect(obj!.ok && obj!.scan).toMatchObject({ source: "obj", size: { x: 30, y: 40, z: 25 } });
    const prefix = `order_${ORDER}/ivanov_1/aligners`;
    expect((await filesUnder(dir)).filter((name) => !name.startsWith(".meta/"))).toEqual([
      `orders/${prefix}/Verkh_${NOW}.obj`,
      `orders/${prefix}/Verkh_${NOW}.stl`,
      `orders/${prefix}/scan_${NOW + 1000}.ply`,
      `orders/${prefix}/scan_${NOW + 1000}.stl`,
    ]);
    const original = await storage.get("orders", obj!.ok ? obj!.source!.key : "");
    expect((await bytesOf(original!.body)).toString()).toBe(quadObj);
    const stl = await storage.get("orders", obj!.ok ? obj!.key : "");
    const bytes = await bytesOf(stl!.body);
    expect(bytes.length).toBe(84 + 50 * 3);
    expect(bytes.readUInt32LE(80)).toBe(3);
  });

  it.each([
    ["a point cloud", "cloud.ply", "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 1 1\n", "points_only"],
    ["an empty PLY", "empty.ply", "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n", "empty"],
    ["an OBJ with an index past its vertices", "plan.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", "bad_index"],
  ])("refuses %s and stores nothing", async (_, filename, content, error) => {
    const { handler, parsing } = upload(multipartRequest([{ name: "files", filename, content }]));
    await parsing;
    expect(handler.results()).toEqual([{ ok: false, originalName: filename, error }]);
    expect(await filesUnder(dir)).toEqual([]);
  });
});
