/**
 * `npm run bench`: builds the app once, runs every benchmark in its own process (output passed
 * through as it comes), collects the BENCH_RESULT line each prints last (bench/lib/result.ts) and
 * ends with one table: benchmark, figure, target, met.
 *
 *   npm run bench [-- --only pages,throughput] [--skip tus-upload] [--no-build]
 *
 * Each benchmark still runs alone: `node --import tsx bench/<name>.mts`. The machine may be shared:
 * each benchmark waits for the load average to settle first, and the load average is sampled during
 * each benchmark and printed beside its figures.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type BenchResult, parseResults } from "./lib/result";

const ROOT = path.resolve(import.meta.dirname, "..");

/** In order of running: the quick ones first, the 15-minute slow-link upload last. */
const BENCHES: Array<{ name: string; args: string[]; about: string }> = [
  { name: "pages", args: [], about: "page weight (HTML, CSS, JS with gzip) against a bare Remix page, and Lighthouse" },
  { name: "throughput", args: ["--profile"], about: "requests/s and p99 of the personal and public pages beside bare Remix apps of 1 route and of the app's route count (autocannon)" },
  { name: "lighthouse", args: ["/", "/en", "/de", "/public-offer"], about: "Lighthouse on the landing and legal pages" },
  { name: "upload-s3", args: [], about: "100 MiB STL through the app to S3 beside a direct upload" },
  { name: "ftp-queue", args: [], about: "200 files through the file server queue beside OpenSSH sftp" },
  { name: "slow-link", args: [], about: "the whole wizard in Chromium on an emulated 1.6 Mbit/s, 150 ms link with a 4× slower CPU, JS on and off" },
  { name: "load", args: [], about: "100 clinics run the whole order flow for 60 s, then every row and object is checked" },
  { name: "scale-out", args: [], about: "/order, /cabinet and the load with integrity on 1 and on 2 app processes, PostgreSQL connections counted" },
  { name: "scale", args: [], about: "every back-office, packer, cabinet and partner page, the scheduled job and order creation on 200 orders and on five years of a large lab (300,000 orders, 1 M queue entries)" },
  { name: "body-limits", args: [], about: "10 chunked 2 GiB bodies at a form, a webhook and the upload routes at once: memory growth and time" },
  { name: "stl-pack", args: [], about: "packed STL members (ADR 045) beside gzip members ÷ the file: the corpus, a scan-shaped and a CAD-like 100 MiB model" },
  { name: "pack-browser", args: [], about: "Chromium packing 100 MiB in a Web Worker, and with the CPU throttled 4×" },
  { name: "tus-upload", args: [], about: "100 MiB over a 2 Mbit/s link with one drop (tus, as it is, compressed and packed; a CAD-like model as it is and packed) beside the plain form" },
];

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    skip: { type: "string" },
    "no-build": { type: "boolean", default: false },
  },
});
const list = (value: string | undefined) => (value ? value.split(",").map((name) => name.trim()) : []);
const only = list(values.only);
const skip = list(values.skip);
for (const name of [...only, ...skip]) if (!BENCHES.some((bench) => bench.name === name)) throw new Error(`no benchmark "${name}" (have: ${BENCHES.map((bench) => bench.name).join(", ")})`);
const selected = BENCHES.filter((bench) => (only.length === 0 || only.includes(bench.name)) && !skip.includes(bench.name));

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

const started = new Date();
if (!values["no-build"]) {
  console.log("== remix build");
  const build = await run(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"]);
  if (build.code !== 0) throw new Error(`remix build failed with ${build.code}`);
}

interface Outcome {
  name: string;
  code: number | null;
  seconds: number;
  load: { min: number; max: number };
  result?: BenchResult;
}
/**
 * Each benchmark starts on a settled machine: the 1-minute load average left by the one before
 * (Chromium, PostgreSQL's vacuum, servers winding down) falls below SETTLE_LOAD (1.5 on 2 cores)
 * first, waiting at most SETTLE_MAX_SECONDS (120).
 */
const SETTLE_LOAD = Number(process.env.SETTLE_LOAD ?? 1.5);
const SETTLE_MAX_SECONDS = Number(process.env.SETTLE_MAX_SECONDS ?? 120);
async function settle(): Promise<string> {
  const begun = performance.now();
  while (os.loadavg()[0]! > SETTLE_LOAD && performance.now() - begun < SETTLE_MAX_SECONDS * 1000) await new Promise((resolve) => setTimeout(resolve, 5_000));
  return `waited ${((performance.now() - begun) / 1000).toFixed(0)} s for the load average to fall to ${os.loadavg()[0]!.toFixed(1)} (≤ ${SETTLE_LOAD} wanted)`;
}

const outcomes: Outcome[] = [];
for (const bench of selected) {
  console.log(`\n== ${bench.name}: ${bench.about}\n   ${await settle()}\n   node --import tsx bench/${bench.name}.mts ${bench.args.join(" ")}`);
  const samples = [os.loadavg()[0]!];
  const sampler = setInterval(() => samples.push(os.loadavg()[0]!), 5_000);
  const begun = performance.now();
  const { code, output } = await run(process.execPath, ["--import", "tsx", path.join("bench", `${bench.name}.mts`), ...bench.args]);
  clearInterval(sampler);
  samples.push(os.loadavg()[0]!);
  outcomes.push({
    name: bench.name,
    code,
    seconds: (performance.now() - begun) / 1000,
    load: { min: Math.min(...samples), max: Math.max(...samples) },
    result: parseResults(output).find((result) => result.bench === bench.name),
  });
}

const cell = (text: string) => text.replace(/\|/g, "\\|");
console.log(`\n== summary: ${started.toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ${os.type()} ${os.release()}`);
console.log("| benchmark | measure | figure | target | met? |");
console.log("|---|---|---|---|---|");
for (const outcome of outcomes) {
  if (!outcome.result) {
    console.log(`| ${outcome.name} | — | **no result** (exit code ${outcome.code}) | — | not met |`);
    continue;
  }
  for (const figure of outcome.result.figures) {
    const met = figure.met === null ? "—" : figure.met ? "met" : "**not met**";
    console.log(`| ${outcome.name} | ${cell(figure.name)} | ${cell(figure.figure)} | ${cell(figure.target)} | ${met} |`);
  }
}
console.log("\n| benchmark | time | load average (1 min) during it | exit code |");
console.log("|---|---|---|---|");
for (const outcome of outcomes) console.log(`| ${outcome.name} | ${outcome.seconds.toFixed(0)} s | ${outcome.load.min.toFixed(1)}–${outcome.load.max.toFixed(1)} | ${outcome.code} |`);
const failed = outcomes.filter((outcome) => outcome.code !== 0 || !outcome.result);
const unmet = outcomes.flatMap((outcome) => outcome.result?.figures.filter((figure) => figure.met === false) ?? []);
console.log(`\n${outcomes.length} benchmarks, ${failed.length} failed to run, ${unmet.length} figures not meeting their targets`);
process.exitCode = failed.length ? 1 : 0;
