/**
 * A 100 MiB STL over a slow clinic link (issue 4): through the resumable tus upload with one
 * dropped connection half-way, beside the same file through the plain multipart form without a
 * drop. The link is the test TCP proxy: BENCH_MBIT Mbit/s (default 2) each way and BENCH_RTT_MS
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
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";

const MBIT = Number(process.env.BENCH_MBIT ?? 2);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 100);
const FILE_BYTES = 100 * 1024 * 1024 - 16; // 84 + 50 × n, just under 100 MiB
const TRIANGLES = (FILE_BYTES - 84) / 50;
const CHUNK = 5 * 1024 * 1024;

function stl(): Buffer {
  const bytes = Buffer.alloc(FILE_BYTES);
  bytes.writeUInt32LE(TRIANGLES, 80);
  return bytes;
}

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
  const file = stl();
  console.log(`link: ${MBIT} Mbit/s each way, ${RTT_MS} ms round trip; file ${FILE_BYTES.toLocaleString("en")} bytes (${new Date().toISOString()})`);

  // 1. tus, 5 MiB chunks, every connection cut once half the file is through.
  const tusTarget = await toMatrixStep("bench-tus@clinic.ru");
  let before = proxy.stats().upstreamBytes;
  // The drop: every connection cut once the link has carried half the file and half a chunk more,
  // so the part in flight is lost half-way (the S3 store discards a partly received part).
  const cutAt = FILE_BYTES / 2 + CHUNK / 2;
  const watcher = setInterval(() => {
    if (proxy.stats().upstreamBytes - before < cutAt) return;
    clearInterval(watcher);
    proxy.cutAll();
  }, 50);
  const tus = await measured(app.pid, () =>
    tusUpload({
      base,
      cookie: tusTarget.browser.jar.header(),
      origin: base,
      file,
      metadata: { filename: "bench.stl", orderId: tusTarget.orderId, patientId: tusTarget.patientId, type: "matrix" },
      chunkSize: CHUNK,
    }),
  );
  clearInterval(watcher);
  const tusSent = proxy.stats().upstreamBytes - before;
  if (!tus.result.ok || (await recordedSize(tusTarget.patientId)) !== FILE_BYTES) throw new Error(`tus upload failed: ${tus.result.status} ${JSON.stringify(tus.result.body)}`);
  const MiB = 1048576;
  const row = (path: string, run: { seconds: number; rssGrowth: number }, sent: number, outcome: string) => ({
    path,
    outcome,
    time: `${run.seconds.toFixed(1)} s`,
    sent: `${(sent / MiB).toFixed(1)} MiB`,
    "sent − file": `${((sent - FILE_BYTES) / MiB).toFixed(2)} MiB`,
    "app RSS growth": `${(run.rssGrowth / MiB).toFixed(1)} MiB`,
  });
  const tusRow = row("tus, one drop mid-chunk at ~52 %", tus, tusSent, `recorded (${proxy.stats().cuts} cut)`);
  console.log(tusRow);

  // 2. The plain multipart form, streamed, no drop.
  const plainTarget = await toMatrixStep("bench-plain@clinic.ru");
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench.stl"\r\nContent-Type: model/stl\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for (let offset = 0; offset < file.length; offset += 1024 * 1024) yield file.subarray(offset, offset + 1024 * 1024);
    yield tail;
  }
  before = proxy.stats().upstreamBytes;
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
  console.table([tusRow, row("plain form, no drop", plain, plainSent, plainRecorded ? "recorded" : `HTTP ${plain.result.status}, not recorded`)]);
  console.log(`connection cuts: ${proxy.stats().cuts}; S3 ListParts calls: ${s3.stats().listParts}`);
  const resent = (tusSent - FILE_BYTES) / MiB;
  printResult({
    bench: "tus-upload",
    figures: [
      { name: `tus, 100 MiB at ${MBIT} Mbit/s, one drop`, figure: `recorded in ${tus.seconds.toFixed(0)} s`, value: tus.seconds, target: "recorded", met: true },
      { name: "tus: sent beyond the file after the drop", figure: `${resent.toFixed(2)} MiB`, value: resent, target: `≤ one chunk (${CHUNK / MiB} MiB)`, met: resent <= CHUNK / MiB },
      {
        name: `plain form, 100 MiB at ${MBIT} Mbit/s, no drop`,
        figure: plainRecorded ? `recorded in ${plain.seconds.toFixed(0)} s` : `HTTP ${plain.result.status}, not recorded`,
        value: plain.seconds,
        target: "— (reference)",
        met: null,
      },
    ],
    loadavg: os.loadavg(),
  });
} finally {
  await proxy.stop();
  await app.stop();
  await s3.stop();
  await database.drop();
}
