/**
 * A 100 MiB STL over a slow clinic link (issue 4): through the resumable tus upload with one
 * dropped connection half-way, as it is, gzip-compressed as a browser with CompressionStream
 * sends it (ADR 033) and packed where packing wins (ADR 045), beside the same file through the
 * plain multipart form without a drop (BENCH_FORM=0 leaves that reference out). Then a CAD-like
 * 100 MiB model (turned copies of the corpus' gear wheel) as it is and packed (BENCH_CAD=0 leaves
 * it out; BENCH_GZIP=0 leaves the scan's gzip run out). The file is shaped like a scan's export (a noisy
 * height field in full-precision floats, triangles in scan order), so it compresses as scans do. The link is the test TCP proxy: BENCH_MBIT Mbit/s (default 2) each way and BENCH_RTT_MS
 * round trip (default 100 ms); storage is S3 (s3rver behind the multipart front), like production.
 * Prints, per path: time, bytes the client sent through the link, and the app server's peak RSS
 * growth.
 *
 *   node --import tsx bench/tus-upload.mts        (needs PostgreSQL, like the tests; ~15 min at 2 Mbit/s)
 */
import fs from "node:fs";
import os from "node:os";
import { Readable } from "node:stream";
import { browserFetch, startAppServer } from "../tests/support/app-server";
import { s3AppEnv } from "../tests/support/s3-server";
import { startS3WithMultipart } from "../tests/support/s3-multipart-front";
import { startTcpProxy } from "../tests/support/tcp-proxy";
import { tusUpload } from "../tests/support/tus-client";
import path from "node:path";
import { cadLikeStl, scanLikeStl } from "../tests/support/stl-models";
import { memberStream } from "../tests/support/member-stream";
import { createBenchDatabase } from "./lib/database";
import { type Figure, printResult } from "./lib/result";

const MBIT = Number(process.env.BENCH_MBIT ?? 2);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 100);
const WITH_FORM = process.env.BENCH_FORM !== "0";
const WITH_CAD = process.env.BENCH_CAD !== "0";
const WITH_GZIP = process.env.BENCH_GZIP !== "0";
// A 1024 × 1023 height field: 2,095,104 triangles, 104,755,284 bytes, just under 100 MiB.
const file = scanLikeStl(1024, 1023, 2026);
const FILE_BYTES = file.length;
const CHUNK = 5 * 1024 * 1024;

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Peak RSS growth of `pid` while `run` runs. */
async function measured<T>(pid: number, run: () => Promise<T>): Promise<{ result: T; seconds: number; rssGrowth: number }> {
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const started = performance.now();
  try {
    const result = await run();
    return { result, seconds: (performance.now() - started) / 1000, rssGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

const database = await createBenchDatabase("tus", { poolSize: 2 });
const { db } = database;

const s3 = await startS3WithMultipart();
const app = await startAppServer({
  DATABASE_URL: database.url,
  ...s3AppEnv(s3),
});
const bytesPerSecond = (MBIT * 1_000_000) / 8;
const proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: app.port }, bytesPerSecond, latencyMs: RTT_MS / 2 });
const base = proxy.via(app.url).replace(/\/$/, "");

async function toMatrixStep(email: string) {
  const browser = browserFetch(app);
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email, phone: "1" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Bench", address: "Bench", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Bench" } });
  await browser.request("/order", { form: { intent: "next" } });
  const order = await db.selectFrom("orders").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const patient = await db.selectFrom("orders_patients").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow();
  return { browser, orderId: order.id, patientId: patient.id };
}

/** fetch, or a stand-in response when the connection itself failed (the server closed it). */
async function fetchOrFailure(url: string, init: RequestInit): Promise<{ status: number }> {
  try {
    return await fetch(url, init);
  } catch (error) {
    console.log("plain upload: connection failed:", (error as Error).message);
    return { status: 0 };
  }
}

async function recordedSize(patientId: string): Promise<number | undefined> {
  const row = await db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patientId).executeTakeFirstOrThrow();
  return (row.matrix_files_info as unknown as Array<{ size: number }>)[0]?.size;
}

try {
  console.log(`link: ${MBIT} Mbit/s each way, ${RTT_MS} ms round trip; file ${FILE_BYTES.toLocaleString("en")} bytes (${new Date().toISOString()})`);
  const MiB = 1048576;

  type Encoding = "raw" | "gzip" | "packed";
  /** One tus upload of the file, every connection cut once the link has carried half the body and half a chunk more. */
  async function tusRun(email: string, encoding: Encoding, model = file) {
    const target = await toMatrixStep(email);
    const total = encoding === "raw" ? model.length : (await memberStream(model, CHUNK, CHUNK, { packed: encoding === "packed" })).length;
    const before = proxy.stats().upstreamBytes;
    const cutsBefore = proxy.stats().cuts;
    // The part in flight is lost half-way (the S3 store discards a partly received part).
    const cutAt = total / 2 + CHUNK / 2;
    const watcher = setInterval(() => {
      if (proxy.stats().upstreamBytes - before < cutAt) return;
      clearInterval(watcher);
      proxy.cutAll();
    }, 50);
    const run = await measured(app.pid, () =>
      tusUpload({
        base,
        cookie: target.browser.jar.header(),
        origin: base,
        file: model,
        compressed: encoding === "gzip",
        packed: encoding === "packed",
        metadata: { filename: "bench.stl", orderId: target.orderId, patientId: target.patientId, type: "matrix" },
        chunkSize: CHUNK,
      }),
    );
    clearInterval(watcher);
    const sent = proxy.stats().upstreamBytes - before;
    if (!run.result.ok || (await recordedSize(target.patientId)) !== model.length) throw new Error(`tus upload failed: ${run.result.status} ${JSON.stringify(run.result.body)}`);
    return { ...run, sent, total, cuts: proxy.stats().cuts - cutsBefore };
  }

  const row = (way: string, run: { seconds: number; rssGrowth: number }, sent: number, total: number, outcome: string, fileBytes = FILE_BYTES) => ({
    path: way,
    outcome,
    time: `${run.seconds.toFixed(1)} s`,
    sent: `${(sent / MiB).toFixed(1)} MiB`,
    "sent ÷ file": (sent / fileBytes).toFixed(3),
    "re-sent": `${((sent - total) / MiB).toFixed(2)} MiB`,
    "app RSS growth": `${(run.rssGrowth / MiB).toFixed(1)} MiB`,
  });

  // 1. tus, 5 MiB chunks, the file as it is.
  const tus = await tusRun("bench-tus@clinic.ru", "raw");
  const tusRow = row("tus, one drop mid-chunk", tus, tus.sent, tus.total, `recorded (${tus.cuts} cut)`);
  console.log(tusRow);
  const figures: Figure[] = [
    { name: `tus, 100 MiB at ${MBIT} Mbit/s, one drop`, figure: `recorded in ${tus.seconds.toFixed(0)} s`, value: tus.seconds, target: "recorded", met: true },
    { name: "tus: re-sent after the drop", figure: `${((tus.sent - tus.total) / MiB).toFixed(2)} MiB`, value: (tus.sent - tus.total) / MiB, target: `≤ one chunk (${CHUNK / MiB} MiB)`, met: tus.sent - tus.total <= CHUNK },
  ];
  const rows = [tusRow];
  /** The figures of one compressed run beside its model's run as it is. */
  const compressedFigures = (label: string, run: Awaited<ReturnType<typeof tusRun>>, raw: Awaited<ReturnType<typeof tusRun>>, target: number, fileBytes: number): Figure[] => [
    { name: `${label}, 100 MiB at ${MBIT} Mbit/s, one drop`, figure: `recorded in ${run.seconds.toFixed(0)} s`, value: run.seconds, target: "recorded", met: true },
    { name: `${label}: time ÷ time as it is`, figure: (run.seconds / raw.seconds).toFixed(2), value: run.seconds / raw.seconds, target: `≤ ${target}`, met: run.seconds / raw.seconds <= target },
    { name: `${label}: bytes sent ÷ file size`, figure: (run.sent / fileBytes).toFixed(3), value: run.sent / fileBytes, target: "— (reported)", met: null },
    { name: `${label}: re-sent after the drop`, figure: `${((run.sent - run.total) / MiB).toFixed(2)} MiB`, value: (run.sent - run.total) / MiB, target: `≤ one chunk (${CHUNK / MiB} MiB)`, met: run.sent - run.total <= CHUNK },
    { name: `${label}: app RSS growth`, figure: `${(run.rssGrowth / MiB).toFixed(1)} MiB`, value: run.rssGrowth / MiB, target: "— (reported)", met: null },
  ];
  // 2. tus, the file as gzip members (what Chromium, Firefox and Safari send without packing).
  if (WITH_GZIP) {
    const gz = await tusRun("bench-tus-gzip@clinic.ru", "gzip");
    rows.push(row("tus compressed, one drop mid-chunk", gz, gz.sent, gz.total, `recorded (${gz.cuts} cut)`));
    console.log(rows.at(-1));
    figures.push(...compressedFigures("tus compressed", gz, tus, 0.6, FILE_BYTES));
  }
  // 3. tus, packed where packing wins (ADR 045).
  const packed = await tusRun("bench-tus-packed@clinic.ru", "packed");
  rows.push(row("tus packed, one drop mid-chunk", packed, packed.sent, packed.total, `recorded (${packed.cuts} cut)`));
  console.log(rows.at(-1));
  figures.push(...compressedFigures("tus packed (scan-shaped)", packed, tus, 0.3, FILE_BYTES));
  // 4. A CAD-like model, as it is and packed.
  if (WITH_CAD) {
    const cad = cadLikeStl(100, fs.readFileSync(path.resolve(import.meta.dirname, "../tests/fixtures/stl/stl-models_gearwheel.bin.stl")));
    const cadRaw = await tusRun("bench-tus-cad@clinic.ru", "raw", cad);
    rows.push(row("CAD-like: tus, one drop mid-chunk", cadRaw, cadRaw.sent, cadRaw.total, `recorded (${cadRaw.cuts} cut)`, cad.length));
    console.log(rows.at(-1));
    const cadPacked = await tusRun("bench-tus-cad-packed@clinic.ru", "packed", cad);
    rows.push(row("CAD-like: tus packed, one drop mid-chunk", cadPacked, cadPacked.sent, cadPacked.total, `recorded (${cadPacked.cuts} cut)`, cad.length));
    console.log(rows.at(-1));
    figures.push(...compressedFigures("tus packed (CAD-like)", cadPacked, cadRaw, 0.3, cad.length));
  }

  // 3. The plain multipart form, streamed, no drop (the reference).
  if (WITH_FORM) {
    const plainTarget = await toMatrixStep("bench-plain@clinic.ru");
    const boundary = `----bench${Date.now()}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench.stl"\r\nContent-Type: model/stl\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      for (let offset = 0; offset < file.length; offset += 1024 * 1024) yield file.subarray(offset, offset + 1024 * 1024);
      yield tail;
    }
    const before = proxy.stats().upstreamBytes;
    const plain = await measured(app.pid, () =>
      fetchOrFailure(`${base}/order`, {
        method: "POST",
        body: Readable.toWeb(Readable.from(body())) as ReadableStream,
        duplex: "half",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(head.length + FILE_BYTES + tail.length), Cookie: plainTarget.browser.jar.header(), Origin: base },
        redirect: "manual",
      } as RequestInit),
    );
    const plainSent = proxy.stats().upstreamBytes - before;
    const plainRecorded = plain.result.status === 302 && (await recordedSize(plainTarget.patientId)) === FILE_BYTES;
    // A body slower than Node's requestTimeout (300 s) is cut by the server with 408: report it, do not hide it.
    rows.push(row("plain form, no drop", plain, plainSent, FILE_BYTES, plainRecorded ? "recorded" : `HTTP ${plain.result.status}, not recorded`));
    figures.push({
      name: `plain form, 100 MiB at ${MBIT} Mbit/s, no drop`,
      figure: plainRecorded ? `recorded in ${plain.seconds.toFixed(0)} s` : `HTTP ${plain.result.status}, not recorded`,
      value: plain.seconds,
      target: "— (reference)",
      met: null,
    });
  }
  console.table(rows);
  console.log(`connection cuts: ${proxy.stats().cuts}; S3 ListParts calls: ${s3.stats().listParts}`);
  printResult({ bench: "tus-upload", figures, loadavg: os.loadavg() });
} finally {
  await proxy.stop();
  await app.stop();
  await s3.stop();
  await database.drop();
}
