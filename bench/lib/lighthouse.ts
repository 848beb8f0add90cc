import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

/**
 * Lighthouse 12.8 (default mobile preset: simulated Slow 4G, 4× CPU) with Debian's Chromium
 * (CHROME_PATH, default /usr/bin/chromium; never a downloaded browser) under the flags of
 * STACK-NOTES: Chromium resolves no host but the loopback address, so nothing outside is contacted.
 */
export async function launchChrome() {
  return chromeLauncher.launch({
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
}

export interface LighthouseRow {
  page: string;
  performance: number;
  accessibility: number;
  "best-practices": number;
  seo: number;
  document: number;
  css: number;
  js: number;
  other: number;
  requests: number;
  lcp: number;
  tbt: number;
  cls: number;
  benchmarkIndex: number;
  performanceRuns: string;
  failedAudits: string[];
  /** The biggest opportunities and diagnostics Lighthouse scored below 0.9, with their savings. */
  hints: string[];
}

/** Several runs of one URL, the one with the median performance score kept (Lighthouse's own advice on variance). */
export async function lighthouseMedian(chromePort: number, url: string, options: { runs: number; label?: string; headers?: Record<string, string> }): Promise<LighthouseRow> {
  const runs = [];
  for (let run = 0; run < options.runs; run++) {
    const result = await lighthouse(url, { port: chromePort, output: "json", logLevel: "error", ...(options.headers ? { extraHeaders: options.headers } : {}) });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    runs.push(result.lhr);
  }
  runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
  const lhr = runs[Math.floor(runs.length / 2)]!;
  const requests = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; resourceType: string; transferSize: number }> } | undefined)?.items ?? [];
  const bytes = (type: string) => requests.filter((request) => request.resourceType === type).reduce((sum, request) => sum + request.transferSize, 0);
  const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const performanceAudits = new Set((lhr.categories.performance?.auditRefs ?? []).map((ref) => ref.id));
  const hints = Object.values(lhr.audits)
    .filter((audit) => performanceAudits.has(audit.id) && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative")
    .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
  return {
    page: options.label ?? new URL(url).pathname,
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
    failedAudits: Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary")
      .map((audit) => `${audit.id} — ${audit.title}`),
    hints,
  };
}
