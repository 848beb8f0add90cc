/**
 * Uploads a 100 MiB STL through the app (multipart form post, streamed to S3) and, side by side,
 * straight to the same S3 server with @aws-sdk/lib-storage. Prints throughput of both, their ratio
 * and the app server's peak RSS growth during the upload, and the CPU time the app, s3rver and the
 * client used on each path (to show what limits the ratio on a 2-core machine).
 * Targets (issue "Order wizard"): ≥ 0.8 × the direct throughput, RSS growth ≤ 64 MiB.
 *
 *   node --import tsx bench/upload-s3.mts        (needs PostgreSQL, like the tests)
 */
import fs from "node:fs";
import os from "node:os";
import { Readable } from "node:stream";
import { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { browserFetch, startAppServer } from "../tests/support/app-server";
import { startS3Server, s3AppEnv } from "../tests/support/s3-server";
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";

const FILE_BYTES = 100 * 1024 * 1024 - 16; // 84 + 50 × n, just under 100 MiB
const TRIANGLES = (FILE_BYTES - 84) / 50;
const CHUNK = 1024 * 1024;

/** The STL generated on the fly: header with the triangle count, then zero facets. */
function stlStream(): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= FILE_BYTES) return this.push(null);
      const size = Math.min(CHUNK, FILE_BYTES - sent);
      const chunk = Buffer.alloc(size);
      if (sent === 0) chunk.writeUInt32LE(TRIANGLES, 80);
      sent += size;
      this.push(chunk);
    },
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (USER_HZ = 100). */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU used by the app, s3rver and this process (the client) while `work` runs. */
async function cpuDuring<T>(pids: { app: number; s3: number }, work: () => Promise<T>) {
  const before = { app: cpuOf(pids.app), s3: cpuOf(pids.s3), client: process.cpuUsage() };
  const result = await work();
  const client = process.cpuUsage(before.client);
  return { result, cpu: { app: cpuOf(pids.app) - before.app, s3: cpuOf(pids.s3) - before.s3, client: (client.user + client.system) / 1e6 } };
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

const database = await createBenchDatabase("upload", { poolSize: 2 });
const { db } = database;

const s3 = await startS3Server();
const app = await startAppServer({
  DATABASE_URL: database.url,
  ...s3AppEnv(s3),
});

try {
  const browser = browserFetch(app);
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email: "bench@clinic.ru", phone: "1" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Bench", address: "Bench", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Bench" } });
  await browser.request("/order", { form: { intent: "next" } });

  // Through the app: a streamed multipart body, never held in memory by this process.
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench.stl"\r\nContent-Type: model/stl\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for await (const chunk of stlStream()) yield chunk as Buffer;
    yield tail;
  }
  const baseline = rssOf(app.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(app.pid))), 50);
  const appStarted = performance.now();
  const appRun = await cpuDuring({ app: app.pid, s3: s3.pid }, () => fetch(`${app.url}/order`, {
    method: "POST",
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: "half",
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(head.length + FILE_BYTES + tail.length), Cookie: browser.jar.header(), Origin: app.url },
    redirect: "manual",
  } as RequestInit));
  const response = appRun.result;
  const appSeconds = (performance.now() - appStarted) / 1000;
  clearInterval(sampler);
  const stored = await db.selectFrom("orders_patients").select("matrix_files_info").executeTakeFirstOrThrow();
  const files = stored.matrix_files_info as unknown as Array<{ size: number }>;
  if (response.status !== 302 || files[0]?.size !== FILE_BYTES) throw new Error(`upload through the app failed: ${response.status} ${JSON.stringify(files)}`);

  // Direct: the same bytes to the same S3 server.
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const directStarted = performance.now();
  const directRun = await cpuDuring({ app: app.pid, s3: s3.pid }, () =>
    new Upload({ client, params: { Bucket: "orders", Key: "bench/direct.stl", Body: stlStream() }, partSize: 5 * 1024 * 1024, queueSize: 2 }).done(),
  );
  const directSeconds = (performance.now() - directStarted) / 1000;

  const mib = FILE_BYTES / 1024 / 1024;
  const rows = [
    ["through the app", `${(mib / appSeconds).toFixed(1)} MiB/s`, `${appSeconds.toFixed(2)} s`],
    ["direct to S3", `${(mib / directSeconds).toFixed(1)} MiB/s`, `${directSeconds.toFixed(2)} s`],
  ];
  console.log(`upload of a ${mib.toFixed(1)} MiB STL (${new Date().toISOString()})`);
  console.table(rows.map(([path, throughput, time]) => ({ path, throughput, time })));
  const cpu = (run: { cpu: { app: number; s3: number; client: number } }, seconds: number) =>
    `app ${run.cpu.app.toFixed(2)} s, s3rver ${run.cpu.s3.toFixed(2)} s, client ${run.cpu.client.toFixed(2)} s — ${((run.cpu.app + run.cpu.s3 + run.cpu.client) / seconds).toFixed(2)} of ${os.cpus().length} cores`;
  console.log(`CPU through the app: ${cpu(appRun, appSeconds)}; direct: ${cpu(directRun, directSeconds)}; load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`ratio app / direct: ${(directSeconds / appSeconds).toFixed(2)} (target ≥ 0.8)`);
  console.log(`app server RSS: ${(baseline / 1048576).toFixed(0)} MiB before, peak growth ${((peak - baseline) / 1048576).toFixed(1)} MiB (target ≤ 64 MiB)`);
  const ratio = directSeconds / appSeconds;
  const growth = (peak - baseline) / 1048576;
  printResult({
    bench: "upload-s3",
    figures: [
      { name: "100 MiB through the app / direct to S3", figure: `${ratio.toFixed(2)} (${(mib / appSeconds).toFixed(1)} vs ${(mib / directSeconds).toFixed(1)} MiB/s)`, value: ratio, target: "≥ 0.8", met: ratio >= 0.8 },
      { name: "app RSS growth during the upload", figure: `${growth.toFixed(1)} MiB`, value: growth, target: "≤ 64 MiB", met: growth <= 64 },
    ],
    loadavg: os.loadavg(),
  });
} finally {
  await app.stop();
  await s3.stop();
  await database.drop();
}
