/**
 * Page weight and Lighthouse of the app's pages beside a bare Remix page (issue "Proof under
 * pressure", item 2; budgets DESIGN §7).
 *
 *   npx remix build && node --import tsx bench/pages.mts [--no-lighthouse]     (RUNS=3 Lighthouse runs per page, median kept)
 *
 * Pages: `/`, `/order` at each of the 11 wizard steps (one draft walked through the steps over HTTP
 * with form posts, files uploaded on 5, 7 and 10), `/cabinet` and `/partner` (a signed-in clinic with
 * its orders), `/auth` (sign-in), `/backoffice`, `/backoffice/affiliates`, `/backoffice/clients` (a client's conditions open), `/backoffice/translate` and `/packer` (gates passed), with the 50 orders of the packer fixture in the
 * database. The app is the real server (`scripts/start.mts`, NODE_ENV=production) on PostgreSQL.
 *
 * Bytes: each document fetched with `Accept-Encoding: gzip` and counted as received, then every
 * stylesheet and every script it references (modulepreload, script src, inline module imports).
 * The floor: a bare Remix app with one route built in the same run from the same @remix-run/*
 * packages and future flags (bench/lib/bare-remix.ts), measured the same way.
 * Targets: page JS ≤ 1.3 × floor JS (no JS counts as met); HTML + CSS ≤ 50 KB (`/packer`: all ≤ 60 KB);
 * Lighthouse mobile performance ≥ 95 (also run on the bare page, to show what the machine allows).
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { type AppServer } from "../tests/support/app-server";
import { CLIENT_EMAIL, clientSessionCookie, gateCookie, seedWorkingDay, startBenchApp, walkWizard } from "./lib/app-fixture";
import { createBenchDatabase } from "./lib/database";
import { startBareRemix } from "./lib/bare-remix";
import { launchChrome, lighthouseMedian, type LighthouseRow } from "./lib/lighthouse";
import { pageWeight, type PageWeight } from "./lib/page-weight";
import { type Figure, kb, printResult } from "./lib/result";

const { values } = parseArgs({ options: { "no-lighthouse": { type: "boolean", default: false } } });
const LIGHTHOUSE = !values["no-lighthouse"];
const RUNS = Number(process.env.RUNS ?? 3);
const JS_RATIO_TARGET = 1.3;
const HTML_CSS_BUDGET = 50 * 1024;
const PACKER_BUDGET = 60 * 1024;
const PERFORMANCE_TARGET = 95;

interface Row {
  label: string;
  weight: PageWeight;
  lighthouse?: LighthouseRow;
}

const loadSamples: number[] = [];
const sampler = setInterval(() => loadSamples.push(os.loadavg()[0]!), 5_000);

const database = await createBenchDatabase("pages");
let app: AppServer | undefined;
const bare = await startBareRemix();
const chrome = LIGHTHOUSE ? await launchChrome() : undefined;
const rows: Row[] = [];

async function measure(base: string, label: string, pagePath: string, cookie = ""): Promise<Row> {
  const weight = await pageWeight(base, pagePath, cookie);
  if (weight.status !== 200) throw new Error(`${label}: HTTP ${weight.status}`);
  const row: Row = { label, weight };
  if (chrome) row.lighthouse = await lighthouseMedian(chrome.port, `${base}${pagePath}`, { runs: RUNS, label, ...(cookie ? { headers: { Cookie: cookie } } : {}) });
  const lh = row.lighthouse;
  console.log(
    `${label}: HTML ${kb(weight.html)} (${weight.htmlEncoding ?? "identity"}, ${kb(weight.htmlRaw)} raw, of which inline scripts ${kb(weight.inlineScriptRaw)}), CSS ${kb(weight.css)} in ${weight.cssFiles.length}, JS ${kb(weight.js)} in ${weight.jsFiles.length}` +
      (lh ? `; Lighthouse performance ${lh.performance} (runs ${lh.performanceRuns}), LCP ${lh.lcp} ms, TBT ${lh.tbt} ms, CLS ${lh.cls.toFixed(3)}, host benchmark ${lh.benchmarkIndex}` : ""),
  );
  if (lh?.hints.length) console.log(`  below 0.9: ${lh.hints.join("; ")}`);
  return row;
}

let floor: Row;
try {
  floor = await measure(bare.url, "bare Remix page (floor)", "/");
  console.log(`  floor JS files: ${floor.weight.jsFiles.map((file) => `${file.href} ${file.bytes}`).join(", ")}`);

  await seedWorkingDay(database.db);
  app = await startBenchApp(database.url);
  const base = app.url;
  rows.push(await measure(base, "/", "/"));
  await walkWizard(app, async (step, cookie) => {
    rows.push(await measure(base, `/order step ${step}`, "/order", cookie));
  });
  const client = await clientSessionCookie(database.db, app);
  rows.push(await measure(base, "/cabinet", "/cabinet", client));
  // The pages whose forms are checked in the browser with their zod schemas (ADR 053).
  rows.push(await measure(base, "/partner", "/partner", client));
  rows.push(await measure(base, "/auth", "/auth"));
  const staff = await gateCookie(app, "backoffice");
  rows.push(await measure(base, "/backoffice", "/backoffice", staff));
  rows.push(await measure(base, "/backoffice/affiliates", "/backoffice/affiliates", staff));
  rows.push(await measure(base, "/backoffice/clients", `/backoffice/clients?all=1&client=${encodeURIComponent(CLIENT_EMAIL)}`, staff));
  rows.push(await measure(base, "/backoffice/translate", "/backoffice/translate", staff));
  rows.push(await measure(base, "/packer", "/packer", await gateCookie(app, "packer")));
} finally {
  clearInterval(sampler);
  await chrome?.kill();
  await app?.stop();
  await bare.stop();
  await database.drop();
}

const floorJs = floor.weight.js;
console.log(`\nfloor: bare Remix 2.17 page, JS ${kb(floorJs)} (${floor.weight.jsFiles.length} files), HTML ${kb(floor.weight.html)}; target page JS ≤ ${JS_RATIO_TARGET} × ${kb(floorJs)} = ${kb(floorJs * JS_RATIO_TARGET)}`);
console.log("| page | HTML | CSS | JS | JS / floor | HTML + CSS | performance | LCP | TBT |");
console.log("|---|---|---|---|---|---|---|---|---|");
const figures: Figure[] = [{ name: "floor: bare Remix page JS", figure: kb(floorJs), value: floorJs, target: "—", met: null }];
if (floor.lighthouse) figures.push({ name: "floor: bare Remix page Lighthouse", figure: `${floor.lighthouse.performance} (runs ${floor.lighthouse.performanceRuns})`, value: floor.lighthouse.performance, target: `≥ ${PERFORMANCE_TARGET}`, met: floor.lighthouse.performance >= PERFORMANCE_TARGET });
for (const row of rows) {
  const { weight, lighthouse: lh } = row;
  const ratio = weight.js / floorJs;
  const htmlCss = weight.html + weight.css;
  const packer = row.label === "/packer";
  console.log(
    `| ${row.label} | ${kb(weight.html)} | ${kb(weight.css)} | ${kb(weight.js)} | ${weight.js ? ratio.toFixed(2) : "no JS"} | ${kb(htmlCss)} | ${lh ? `${lh.performance} (${lh.performanceRuns})` : "—"} | ${lh ? `${(lh.lcp / 1000).toFixed(2)} s` : "—"} | ${lh ? `${lh.tbt} ms` : "—"} |`,
  );
  figures.push({ name: `JS / floor ${row.label}`, figure: weight.js ? `${ratio.toFixed(2)} (${kb(weight.js)})` : "no JS", value: ratio, target: `≤ ${JS_RATIO_TARGET}`, met: weight.js === 0 || ratio <= JS_RATIO_TARGET });
  if (packer) figures.push({ name: `all bytes ${row.label}`, figure: kb(htmlCss + weight.js), value: htmlCss + weight.js, target: `≤ ${kb(PACKER_BUDGET)}`, met: htmlCss + weight.js <= PACKER_BUDGET });
  else figures.push({ name: `HTML + CSS ${row.label}`, figure: kb(htmlCss), value: htmlCss, target: `≤ ${kb(HTML_CSS_BUDGET)}`, met: htmlCss <= HTML_CSS_BUDGET });
  if (lh) figures.push({ name: `Lighthouse ${row.label}`, figure: `${lh.performance} (runs ${lh.performanceRuns})`, value: lh.performance, target: `≥ ${PERFORMANCE_TARGET}`, met: lh.performance >= PERFORMANCE_TARGET });
}
const peakLoad = Math.max(...loadSamples, os.loadavg()[0]!);
console.log(`load average (1 min) during the run: ${Math.min(...loadSamples, peakLoad).toFixed(1)}–${peakLoad.toFixed(1)}; ${os.cpus().length} cores`);
printResult({ bench: "pages", figures, loadavg: os.loadavg() });
