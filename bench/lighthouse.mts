/**
 * Lighthouse (mobile preset) on the landing, plus what it transfers (issue "public face", DESIGN §7).
 *
 *   npm run build && npm run bench:lighthouse -- [path ...]      (default: / and /en; RUNS=3 runs each, median kept)
 *
 * Starts the real server (`scripts/start.mts`) on a free port — on DATABASE_URL when set, else on
 * the embedded defaults in a fresh data folder — and runs Lighthouse 12.8 with Debian's Chromium
 * (CHROME_PATH, default /usr/bin/chromium; never a downloaded browser) under the flags of
 * STACK-NOTES: Chromium resolves no host but the loopback address, so nothing outside is contacted.
 * Prints the four category scores and the bytes each kind of resource took on the wire (gzip as
 * sent, from Lighthouse's network records), against the targets: performance ≥ 95, JavaScript
 * ≤ 1.3 × a bare Remix 2.17 page (≈ 86 KB → 112 KB), document + CSS ≤ 50 KB; last, the
 * BENCH_RESULT line (bench/lib/result.ts) for `npm run bench`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtEntry } from "../tests/support/built-server";
import { freePort } from "../tests/support/free-port";
import { launchChrome, lighthouseMedian, type LighthouseRow } from "./lib/lighthouse";
import { type Figure, kb, printResult } from "./lib/result";

const ROOT = path.resolve(import.meta.dirname, "..");
const PATHS = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/en"];
const RUNS = Number(process.env.RUNS ?? 3);
const PERFORMANCE_TARGET = 95;
const JS_BUDGET = 112 * 1024;
const DOC_CSS_BUDGET = 50 * 1024;

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aligner-lighthouse-"));
const server = spawn(process.execPath, [builtEntry(ROOT, "start")], {
  cwd: ROOT,
  env: { ...process.env, NODE_ENV: "production", APP_ENV: process.env.APP_ENV ?? "development", PORT: String(port), DATA_DIR: dataDir, QUEUE_IN_PROCESS: "false" },
  stdio: ["ignore", "pipe", "pipe"],
});
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));
const base = `http://127.0.0.1:${port}`;
for (let waited = 0; ; waited += 250) {
  if (server.exitCode !== null) throw new Error(`server exited:\n${serverLog}`);
  if (await fetch(`${base}/healthz`).then((response) => response.ok, () => false)) break;
  if (waited > 120_000) throw new Error(`server did not start:\n${serverLog}`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}

const chrome = await launchChrome();
const results: LighthouseRow[] = [];
try {
  for (const pagePath of PATHS) {
    const row = await lighthouseMedian(chrome.port, `${base}${pagePath}`, { runs: RUNS, label: pagePath });
    results.push(row);
    console.log(
      `${pagePath}: performance ${row.performance}, accessibility ${row.accessibility}, best practices ${row["best-practices"]}, SEO ${row.seo}; ` +
        `LCP ${row.lcp} ms, TBT ${row.tbt} ms, CLS ${row.cls}; runs ${row.performanceRuns}, host benchmark ${row.benchmarkIndex}; document ${kb(row.document)}, CSS ${kb(row.css)}, JS ${kb(row.js)}, other ${kb(row.other)} in ${row.requests} requests`,
    );
    console.log(`  budgets: JS ${kb(row.js)} of ${kb(JS_BUDGET)} ${row.js <= JS_BUDGET ? "ok" : "OVER"}; document + CSS ${kb(row.document + row.css)} of ${kb(DOC_CSS_BUDGET)} ${row.document + row.css <= DOC_CSS_BUDGET ? "ok" : "OVER"}`);
    for (const audit of row.failedAudits) console.log(`  failed audit: ${audit}`);
  }
} finally {
  await chrome.kill();
  server.kill("SIGTERM");
}
console.log(JSON.stringify(results));
const figures: Figure[] = results.flatMap((row) => [
  { name: `Lighthouse performance ${row.page}`, figure: `${row.performance} (runs ${row.performanceRuns})`, value: row.performance, target: `≥ ${PERFORMANCE_TARGET}`, met: row.performance >= PERFORMANCE_TARGET },
  { name: `JS ${row.page}`, figure: kb(row.js), value: row.js, target: `≤ ${kb(JS_BUDGET)}`, met: row.js <= JS_BUDGET },
  { name: `document + CSS ${row.page}`, figure: kb(row.document + row.css), value: row.document + row.css, target: `≤ ${kb(DOC_CSS_BUDGET)}`, met: row.document + row.css <= DOC_CSS_BUDGET },
]);
printResult({ bench: "lighthouse", figures, loadavg: os.loadavg() });
