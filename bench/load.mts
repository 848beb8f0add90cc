/**
 * Load with integrity (issue "Proof under pressure", item 5): N virtual clinics run the whole order
 * flow at once over HTTP (start, contacts, delivery, patients, multipart STL uploads, options,
 * summary, sandbox payment), repeating while time remains, against PostgreSQL and the S3 server.
 * Then the database and the store are compared with what each clinic submitted. Prints paid
 * orders/s, request counts, p50/p99 latency, 5xx and integrity mismatches; exits 1 on any 5xx,
 * unanswered request or mismatch. CI runs the same at small size (tests/integration/reliability).
 *
 *   node --import tsx bench/load.mts [--clinics 100] [--seconds 60]   (needs PostgreSQL, like the tests)
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { startAppServer } from "../tests/support/app-server";
import { checkIntegrity, formatFigures, loadFigures, runLoad } from "../tests/support/load";
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";
import { startS3Server, s3AppEnv } from "../tests/support/s3-server";

const { values } = parseArgs({ options: { clinics: { type: "string", default: "100" }, seconds: { type: "string", default: "60" } } });
const clinics = Number(values.clinics);
const seconds = Number(values.seconds);

const database = await createBenchDatabase("load", { poolSize: 4 });
const { db } = database;
const s3 = await startS3Server();
const app = await startAppServer({
  DATABASE_URL: database.url,
  ...s3AppEnv(s3),
  SESSION_SECRET: "bench-load-session-secret-0123456789",
  BACKOFFICE_PASSWORD: "office",
  PACKER_PASSWORD: "packer",
  CRON_SECRET: "cron",
});

let failed = true;
try {
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(os.loadavg()[0]!), 5_000);
  console.log(`load: ${clinics} clinics for ${seconds} s on ${os.cpus().length} CPU cores, load average before ${os.loadavg()[0]!.toFixed(2)} (${new Date().toISOString()})`);
  const run = await runLoad({ appUrl: app.url, clinics, durationMs: seconds * 1000, requestTimeoutMs: 60_000, log: (line) => console.log(line) });
  clearInterval(sampler);
  const checkStarted = performance.now();
  const mismatches = await checkIntegrity(run, { db, s3 });
  const figures = loadFigures(run);
  console.log(formatFigures(figures, mismatches));
  const mean = loads.reduce((sum, value) => sum + value, 0) / Math.max(1, loads.length);
  console.log(`\nwall time ${(run.wallMs / 1000).toFixed(1)} s (clinics finish the order they are on); integrity check ${((performance.now() - checkStarted) / 1000).toFixed(1)} s`);
  console.log(`1-minute load average during the run: mean ${mean.toFixed(2)}, max ${Math.max(0, ...loads).toFixed(2)} (shared machine)`);
  if (figures.serverErrors || figures.failedRequests) console.log(`\napp output (tail):\n${app.output().slice(-4000)}`);
  failed = figures.serverErrors > 0 || figures.failedRequests > 0 || mismatches.length > 0 || figures.paidOrders === 0;
  printResult({
    bench: "load",
    loadavg: os.loadavg(),
    figures: [
      { name: `load: ${clinics} clinics for ${seconds} s, paid orders/s`, figure: `${figures.ordersPerSecond.toFixed(2)} (${figures.paidOrders} paid, p50 ${Math.round(figures.p50Ms)} ms, p99 ${Math.round(figures.p99Ms)} ms)`, target: "—", met: null, value: figures.ordersPerSecond },
      { name: "load: 5xx and unanswered requests", figure: String(figures.serverErrors + figures.failedRequests), target: "0", met: figures.serverErrors + figures.failedRequests === 0 },
      { name: "load: integrity mismatches", figure: String(mismatches.length), target: "0", met: mismatches.length === 0 },
    ],
  });
} finally {
  await app.stop();
  await s3.stop();
  await database.drop();
}
process.exit(failed ? 1 : 0);
