/**
 * Uploads a 100 MiB STL through the app (multipart form post, streamed to S3) and, side by side,
 * straight to the same S3 server with @aws-sdk/lib-storage. Prints throughput of both, their ratio
 * and the app server's peak RSS growth during the upload, and the CPU time the app, s3rver and the
 * client used on each path (to show what limits the ratio on a 2-core machine).
 * Targets (issue "Order wizard"): ≥ 0.8 × the direct throughput, RSS growth ≤ 64 MiB.
 *
 * Method: one 16 MiB upload on each path first, unmeasured, so neither path pays for warming up
 * s3rver, the app or the client; then ROUNDS rounds of one upload per path, the order alternating
 * from round to round. The ratio is that of the median times; RSS growth is the largest of any
 * round, each measured from the app's RSS just before its upload. The client sends the app's
 * multipart body with node:http from a plain stream, as cheaply as it can: a browser would run on
 * another machine, and here every cycle the client spends is taken from the app or s3rver.
 *
 * Two direct baselines: the SDK's standard stream upload (lib-storage `Upload`), the target's
 * reference, and the app's own uploader (putStreamed) called from this process, the stricter one: the
 * difference to it is what the HTTP hop, the multipart parsing and the checks cost.
 *
 *   node --import tsx bench/upload-s3.mts        (needs PostgreSQL, like the tests)
 *   UPLOAD_ROUNDS=5 node --import tsx bench/upload-s3.mts
 *   APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" …   (the app server's Node flags, to profile it)
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { putStreamed } from "../app/modules/storage/s3-multipart.server";
import { browserFetch, startAppServer } from "../tests/support/app-server";
import { startS3Server, s3AppEnv } from "../tests/support/s3-server";
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";

const FILE_BYTES = 100 * 1024 * 1024 - 16; // 84 + 50 × n: the largest binary STL within 100 MiB
const WARM_UP_BYTES = 84 + 50 * 335_000; // about 16 MiB
const ROUNDS = Number(process.env.UPLOAD_ROUNDS ?? 3);
const GRID = 1024; // quads per side of the model's surface

/**
 * A binary STL of `bytes` shaped like a scan: a wavy 70 × 70 mm surface of GRID × GRID quads, two
 * triangles each, so the upload's mesh checks do their real work (every edge is shared). Written
 * once to a temp file; both paths read it from there (the page cache), as a browser reads a file.
 */
function writeMeshStl(file: string, bytes: number): void {
  const triangles = (bytes - 84) / 50;
  const out = fs.openSync(file, "w");
  const header = Buffer.alloc(84);
  header.write("binary STL: upload benchmark surface");
  header.writeUInt32LE(triangles, 80);
  fs.writeSync(out, header);
  const block = Buffer.alloc(50 * 2 * GRID);
  const corner = (i: number, j: number) => [i * 0.07, j * 0.07, 5 + 5 * Math.sin(i / 50) * Math.cos(j / 70)];
  let written = 0;
  for (let i = 0; i < GRID && written < triangles; i++) {
    let at = 0;
    const facet = (a: number[], b: number[], c: number[]) => {
      [0, 0, 1, ...a, ...b, ...c].forEach((value, k) => block.writeFloatLE(value, at + k * 4));
      block.writeUInt16LE(0, at + 48);
      at += 50;
    };
    for (let j = 0; j < GRID && written + at / 50 < triangles; j++) {
      const [a, b, c, d] = [corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)];
      facet(a!, b!, c!);
      if (written + at / 50 < triangles) facet(a!, c!, d!);
    }
    fs.writeSync(out, block, 0, at);
    written += at / 50;
  }
  fs.closeSync(out);
  if (fs.statSync(file).size !== bytes) throw new Error(`mesh file has ${fs.statSync(file).size} bytes, not ${bytes}`);
}

/** CPU seconds (user + system) a process has used so far, from /proc (USER_HZ = 100). */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Cpu {
  app: number;
  s3: number;
  client: number;
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const database = await createBenchDatabase("upload", { poolSize: 2 });
const { db } = database;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "upload-bench-"));

const s3 = await startS3Server();
const app = await startAppServer({
  DATABASE_URL: database.url,
  ...s3AppEnv(s3),
}, { nodeArgs: process.env.APP_NODE_ARGS?.split(" ").filter(Boolean) ?? [] });

try {
  const files = { full: path.join(scratch, "full.stl"), warmUp: path.join(scratch, "warm-up.stl") };
  writeMeshStl(files.full, FILE_BYTES);
  writeMeshStl(files.warmUp, WARM_UP_BYTES);

  const browser = browserFetch(app);
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email: "bench@clinic.ru", phone: "1" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Bench", address: "Bench", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Bench" } });
  await browser.request("/order", { form: { intent: "next" } });

  /** One upload through the app as the wizard's plain form posts it: a streamed multipart body. */
  async function postToApp(file: string, bytes: number): Promise<void> {
    const boundary = `----bench${Date.now()}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="bench.stl"\r\nContent-Type: model/stl\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      yield* fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
      yield tail;
    }
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${app.url}/order`, {
        method: "POST",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": head.length + bytes + tail.length, Cookie: browser.jar.header(), Origin: app.url },
      });
      request.on("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      Readable.from(body()).pipe(request);
    });
    const stored = await db.selectFrom("orders_patients").select("matrix_files_info").executeTakeFirstOrThrow();
    const last = (stored.matrix_files_info as unknown as Array<{ size: number }>).at(-1);
    if (status !== 302 || last?.size !== bytes) throw new Error(`upload through the app failed: ${status} ${JSON.stringify(last)}`);
  }

  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  let directUploads = 0;
  /** The same bytes straight to the same S3 server, with the app's part size and parts in flight. */
  async function putDirect(file: string): Promise<void> {
    const Key = `bench/direct-${++directUploads}.stl`;
    await new Upload({ client, params: { Bucket: "orders", Key, Body: fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) }, partSize: 5 * 1024 * 1024, queueSize: 2 }).done();
  }

  /** The same again with the app's own uploader and the app's part settings, from this process. */
  async function putDirectStreamed(file: string): Promise<void> {
    const Key = `bench/direct-${++directUploads}.stl`;
    await putStreamed(client, { Bucket: "orders", Key }, fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), { partSize: 5 * 1024 * 1024, partsInFlight: 2 });
  }

  /** Time, CPU of each process and (through the app) the app's peak RSS growth of one upload. */
  async function measure(work: () => Promise<void>) {
    const baseline = rssOf(app.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(app.pid))), 50);
    const before = { app: cpuOf(app.pid), s3: cpuOf(s3.pid), client: process.cpuUsage() };
    const started = performance.now();
    await work();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const clientCpu = process.cpuUsage(before.client);
    const cpu: Cpu = { app: cpuOf(app.pid) - before.app, s3: cpuOf(s3.pid) - before.s3, client: (clientCpu.user + clientCpu.system) / 1e6 };
    return { seconds, cpu, growth: (peak - baseline) / 1048576 };
  }

  const paths = {
    app: { label: "through the app", upload: (file: string, bytes: number) => postToApp(file, bytes) },
    direct: { label: "direct, lib-storage", upload: (file: string) => putDirect(file) },
    directStreamed: { label: "direct, app's uploader", upload: (file: string) => putDirectStreamed(file) },
  };
  type PathName = keyof typeof paths;
  const names = Object.keys(paths) as PathName[];
  for (const name of names) await paths[name].upload(files.warmUp, WARM_UP_BYTES);

  const runs = Object.fromEntries(names.map((name) => [name, [] as Array<Awaited<ReturnType<typeof measure>>>])) as Record<PathName, Array<Awaited<ReturnType<typeof measure>>>>;
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another path, so none always follows the same one.
    const order = names.map((_, index) => names[(index + round) % names.length]!);
    for (const name of order) runs[name].push(await measure(() => paths[name].upload(files.full, FILE_BYTES)));
  }

  const mib = FILE_BYTES / 1024 / 1024;
  console.log(`upload of a ${mib.toFixed(1)} MiB STL, ${ROUNDS} rounds after a warm-up (${new Date().toISOString()})`);
  console.table(
    names.flatMap((name) =>
      runs[name].map((run, index) => ({
        path: paths[name].label,
        round: index + 1,
        throughput: `${(mib / run.seconds).toFixed(1)} MiB/s`,
        time: `${run.seconds.toFixed(2)} s`,
        "CPU app / s3rver / client": `${run.cpu.app.toFixed(2)} / ${run.cpu.s3.toFixed(2)} / ${run.cpu.client.toFixed(2)} s`,
        "RSS growth": name === "app" ? `${run.growth.toFixed(1)} MiB` : "",
      })),
    ),
  );
  const seconds = Object.fromEntries(names.map((name) => [name, median(runs[name].map((run) => run.seconds))])) as Record<PathName, number>;
  const ratio = seconds.direct / seconds.app;
  const strictRatio = seconds.directStreamed / seconds.app;
  const growth = Math.max(...runs.app.map((run) => run.growth));
  const perRound = (baseline: PathName) => runs.app.map((run, index) => (runs[baseline][index]!.seconds / run.seconds).toFixed(2)).join(", ");
  console.log(`load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  console.log(`ratio app / direct with lib-storage (median times): ${ratio.toFixed(2)}, per round ${perRound("direct")} (target ≥ 0.8)`);
  console.log(`ratio app / direct with the app's uploader (median times): ${strictRatio.toFixed(2)}, per round ${perRound("directStreamed")}`);
  console.log(`app server RSS: peak growth ${growth.toFixed(1)} MiB over the rounds (target ≤ 64 MiB)`);
  const throughput = (name: PathName) => `${(mib / seconds[name]).toFixed(1)} MiB/s`;
  printResult({
    bench: "upload-s3",
    figures: [
      { name: "100 MiB through the app / direct to S3 (lib-storage)", figure: `${ratio.toFixed(2)} (${throughput("app")} vs ${throughput("direct")}, median of ${ROUNDS})`, value: ratio, target: "≥ 0.8", met: ratio >= 0.8 },
      { name: "100 MiB through the app / direct with the app's uploader", figure: `${strictRatio.toFixed(2)} (${throughput("app")} vs ${throughput("directStreamed")})`, value: strictRatio, target: "—", met: null },
      { name: "app RSS growth during the upload", figure: `${growth.toFixed(1)} MiB`, value: growth, target: "≤ 64 MiB", met: growth <= 64 },
    ],
    loadavg: os.loadavg(),
  });
} finally {
  await app.stop();
  await s3.stop();
  await database.drop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
