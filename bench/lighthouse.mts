/**
 * Lighthouse (mobile preset) on the landing, plus what it transfers (issue "public face", DESIGN §7).
 *
 *   npx remix build && npm run bench:lighthouse -- [path ...]      (default: / and /en; RUNS=3 runs each, median kept)
 *
 * Starts the real server (`scripts/start.mts`) on a free port — on DATABASE_URL when set, else on
 * the embedded defaults in a fresh data folder — and runs Lighthouse 12.8 with Debian's Chromium
 * (CHROME_PATH, default /usr/bin/chromium; never a downloaded browser) under the flags of
 * STACK-NOTES: Chromium resolves no host but the loopback address, so nothing outside is contacted.
 * Prints the four category scores and the bytes each kind of resource took on the wire (gzip as
 * sent, from Lighthouse's network records), against the budgets: JavaScript ≤ 1.3 × a bare Remix
 * 2.17 page (≈ 86 KB → 112 KB), document + CSS ≤ 50 KB.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort } from "../tests/support/free-port";

const ROOT = path.resolve(import.meta.dirname, "..");
const PATHS = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/en"];
const RUNS = Number(process.env.RUNS ?? 3);
const JS_BUDGET = 112 * 1024;
const DOC_CSS_BUDGET = 50 * 1024;

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aligner-lighthouse-"));
const server = spawn(process.execPath, ["--import", "tsx", "scripts/start.mts"], {
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

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  ],
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const results: Array<Record<string, string | number>> = [];
try {
  for (const pagePath of PATHS) {
    // Several runs, the one with the median performance score kept (Lighthouse's own advice on variance).
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(`${base}${pagePath}`, { port: chrome.port, output: "json", logLevel: "error" });
      if (!result) throw new Error(`no Lighthouse result for ${pagePath}`);
      runs.push(result.lhr);
    }
    runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
    const lhr = runs[Math.floor(runs.length / 2)]!;
    const requests = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; resourceType: string; transferSize: number }> } | undefined)?.items ?? [];
    const bytes = (type: string) => requests.filter((request) => request.resourceType === type).reduce((sum, request) => sum + request.transferSize, 0);
    const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    const row = {
      page: pagePath,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
      document: bytes("Document"),
      css: bytes("Stylesheet"),
      js: bytes("Script"),
      other: requests.reduce((sum, request) => sum + request.transferSize, 0) - bytes("Document") - bytes("Stylesheet") - bytes("Script"),
      requests: requests.length,
      lcp: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
      tbt: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      performanceRuns: runs.map((run) => Math.round((run.categories.performance?.score ?? 0) * 100)).join("/"),
    };
    results.push(row);
    const failing = Object.values(lhr.audits).filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary");
    console.log(
      `${pagePath}: performance ${row.performance}, accessibility ${row.accessibility}, best practices ${row["best-practices"]}, SEO ${row.seo}; ` +
        `LCP ${row.lcp} ms, TBT ${row.tbt} ms, CLS ${row.cls}; runs ${row.performanceRuns}, host benchmark ${row.benchmarkIndex}; document ${kb(row.document)}, CSS ${kb(row.css)}, JS ${kb(row.js)}, other ${kb(row.other)} in ${row.requests} requests`,
    );
    console.log(`  budgets: JS ${kb(row.js)} of ${kb(JS_BUDGET)} ${row.js <= JS_BUDGET ? "ok" : "OVER"}; document + CSS ${kb(row.document + row.css)} of ${kb(DOC_CSS_BUDGET)} ${row.document + row.css <= DOC_CSS_BUDGET ? "ok" : "OVER"}`);
    for (const audit of failing) console.log(`  failed audit: ${audit.id} — ${audit.title}`);
  }
} finally {
  await chrome.kill();
  server.kill("SIGTERM");
}
console.log(JSON.stringify(results));
