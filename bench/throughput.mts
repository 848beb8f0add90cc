/**
 * Server throughput of the app's pages beside bare Remix apps (issues "Proof under pressure", item 3,
 * and "Fast under load", items 1–2).
 *
 *   npx remix build && node --import tsx bench/throughput.mts [--duration 10] [--connections 50] [--targets 6,7,13] [--profile [--profile-targets 1,3,6]] [--bare-routes N]
 *   APP_NODE_ARGS="--max-semi-space-size=32" …   (Node flags for the app server, to try V8 settings)
 *
 * autocannon (in this process) with 50 connections for ~10 s on each of: two bare Remix apps
 * (bench/lib/bare-remix.ts, remix-serve, NODE_ENV=production) — one with a single route, one with as
 * many routes as the app —, `GET /order` for a draft at step 3 (its cookie; walked there over HTTP),
 * `GET /cabinet` for a signed-in clinic with 8 orders (also one of its tabs, and one order's own page), `GET /backoffice` past the staff gate in both views (cards and table), the
 * landing and a legal page for an anonymous visitor, `/de` and `/en` for a first-time visitor (the
 * answer saves the language) and `/privacy` with German saved, then both bare apps again (the machine is
 * shared: the two runs of each show the drift; their mean is the reference), then each personal page
 * at a fixed offered load of half the bare app's capacity (requests at an even pace whatever the
 * answers, each latency counted from when the request was due: bench/lib/open-loop.ts): the p99 a
 * clinic meets on a busy day, not at saturation. Every
 * answer is made for its request (nothing is kept for a viewer, ADR 081). Requests ask for gzip,
 * as browsers do. The app is the real server (`scripts/start.mts`, NODE_ENV=production, one worker
 * per core unless --web-concurrency) on PostgreSQL with the 50 orders of the packer fixture.
 * Targets: personal pages ≥ 0.6 × the bare app with the same number of routes, and p99 ≤ 250 ms at
 * half the bare app's capacity; public pages ≥ 1.0 × the one-route bare app, p99 ≤ 100 ms.
 *
 * Also printed, to say what limits a figure: each server's CPU time per request during its run
 * (from /proc), one request's latency on an idle server (median of 20), and with --profile a second
 * pass under a V8 profiler (`--cpu-prof`, pages made every time) with the server's self time by part of the stack and its
 * busiest functions, while the load ran. `--bare-routes N` sets the route count of the second bare
 * app (default: the app's, counted in app/routes).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { type AppServer } from "../tests/support/app-server";
import { CLIENT_EMAIL, clientSessionCookie, gateCookie, seedWorkingDay, startBenchApp, walkWizard } from "./lib/app-fixture";
import { createBenchDatabase } from "./lib/database";
import { type BareRemix, startBareRemix } from "./lib/bare-remix";
import { cpuSecondsOf } from "./lib/cpu";
import { largestProfile, summarizeProfile } from "./lib/cpu-profile";
import { openLoop } from "./lib/open-loop";
import { decode, getRaw } from "./lib/page-weight";
import { type Figure, printResult } from "./lib/result";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    profile: { type: "boolean", default: false },
    // Which targets the profiling pass takes, by their place in the list (0 is the one-route bare app):
    // by default the bare app with the app's routes, /order and the cabinet's list and tab.
    "profile-targets": { type: "string", default: "1,2,3,4" },
    // Where to keep the profiles (one .cpuprofile per profiled target) for DevTools or a closer look.
    "keep-profiles": { type: "string" },
    // Only these targets, by the same places (the two bare apps are always measured): `--targets 6,7` for the back-office's views.
    targets: { type: "string" },
    "bare-routes": { type: "string" },
    // Web worker processes of the app; unset is the production default, one per core (ADR 032).
    "web-concurrency": { type: "string" },
  },
});
const WEB_CONCURRENCY = values["web-concurrency"] === undefined ? undefined : Number(values["web-concurrency"]);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const RATIO_TARGET = 0.6;
const P99_TARGET_MS = 250;
const PUBLIC_RATIO_TARGET = 1.0;
const PUBLIC_P99_TARGET_MS = 100;
/** The app's routes, as Remix counts them: the route modules in app/routes (tests beside them aside). */
const APP_ROUTES = fs.readdirSync(path.resolve(import.meta.dirname, "../app/routes")).filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)).length;
const BARE_ROUTES = values["bare-routes"] === undefined ? APP_ROUTES : Number(values["bare-routes"]);

interface Target {
  label: string;
  /** What the page is measured against: the one-route bare app (public pages) or the one with the app's route count. */
  reference: "one route" | "same routes" | null;
  /** A personal page: also measured at a fixed offered load. */
  personal?: boolean;
  url: string;
  pid: number;
  headers: Record<string, string>;
}

interface Run {
  label: string;
  reference: Target["reference"];
  /** Measured at this offered load (req/s) instead of as fast as the server answers. */
  offered?: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  serverCpuMsPerRequest: number;
  serverCores: number;
  loadCores: number;
  load1: number;
}

async function cannon(target: Target, seconds: number, connections: number) {
  return autocannon({ url: target.url, connections, duration: seconds, headers: { "accept-encoding": "gzip", ...target.headers } });
}

async function measure(target: Target, offered?: number): Promise<Run> {
  await cannon(target, 3, 10); // warm-up: JIT, pools, caches
  const serverBefore = cpuSecondsOf(target.pid);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  // A fixed offered load is an open loop at an even pace (bench/lib/open-loop.ts); saturation is autocannon's closed loop.
  const result = offered
    ? await openLoop(target.url, { rate: offered, seconds: DURATION, headers: { "accept-encoding": "gzip", ...target.headers } })
    : await cannon(target, DURATION, CONNECTIONS).then((run) => ({ rps: run.requests.average, requests: run.requests.total, p50: run.latency.p50, p99: run.latency.p99, non2xx: run.non2xx, errors: run.errors }));
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = cpuSecondsOf(target.pid) - serverBefore;
  const own = process.cpuUsage(ownBefore);
  const run: Run = {
    label: offered ? `${target.label}, ${Math.round(offered)} req/s offered` : target.label,
    reference: target.reference,
    offered,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuMsPerRequest: (serverCpu * 1000) / Math.max(1, result.requests),
    serverCores: serverCpu / seconds,
    loadCores: (own.user + own.system) / 1e6 / seconds,
    load1: os.loadavg()[0]!,
  };
  console.log(
    `${run.label}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.requests} requests (${run.non2xx} non-2xx, ${run.errors} errors); ` +
      `server CPU ${run.serverCpuMsPerRequest.toFixed(2)} ms/request (${run.serverCores.toFixed(2)} cores), autocannon ${run.loadCores.toFixed(2)} cores, load ${run.load1.toFixed(1)}`,
  );
  return run;
}

/** One request at a time on an idle server: the median of 20, in ms. */
async function idleLatency(target: Target): Promise<number> {
  const times = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const response = await getRaw(target.url, target.headers);
    if (response.status !== 200) throw new Error(`${target.label}: HTTP ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[10]!;
}

async function check(target: Target, expected: string) {
  const response = await getRaw(target.url, target.headers);
  const html = decode(response);
  if (response.status !== 200 || !html.includes(expected)) throw new Error(`${target.label}: HTTP ${response.status}, "${expected}" not on the page`);
}

async function startAll(nodeArgs: { app?: string[]; bare?: string[] } = {}) {
  const app = await startBenchApp(database.url, nodeArgs.app, WEB_CONCURRENCY);
  const bares: BareRemix[] = [];
  try {
    bares.push(await startBareRemix(nodeArgs.bare, 0));
    bares.push(await startBareRemix(nodeArgs.bare, BARE_ROUTES - 1));
    const draft = await walkWizard(app, async () => {}, 3);
    const client = await clientSessionCookie(database.db, app);
    // One of the clinic's placed orders, for its tab and its own page in the cabinet (ADR 070).
    const clientOrder = await database.db.selectFrom("orders").select(["id", "status"]).where("email", "=", CLIENT_EMAIL).where("status", "<>", "draft").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    const office = await gateCookie(app, "backoffice");
    const targets: Target[] = [
      { label: "bare Remix, 1 route", reference: null, url: `${bares[0]!.url}/`, pid: bares[0]!.pid, headers: {} },
      { label: `bare Remix, ${BARE_ROUTES} routes`, reference: null, url: `${bares[1]!.url}/`, pid: bares[1]!.pid, headers: {} },
      { label: "/order (draft at step 3)", reference: "same routes", personal: true, url: `${app.url}/order`, pid: app.pid, headers: { cookie: draft.jar.header() } },
      { label: "/cabinet (signed-in clinic)", reference: "same routes", personal: true, url: `${app.url}/cabinet`, pid: app.pid, headers: { cookie: client } },
      { label: "/cabinet?status=… (a tab, oldest first)", reference: "same routes", personal: true, url: `${app.url}/cabinet?status=${clientOrder.status}&sort=oldest`, pid: app.pid, headers: { cookie: client } },
      { label: "/cabinet/orders/:id (the order's page)", reference: "same routes", personal: true, url: `${app.url}/cabinet/orders/${clientOrder.id}`, pid: app.pid, headers: { cookie: client } },
      { label: "/backoffice (orders as cards, staff)", reference: "same routes", personal: true, url: `${app.url}/backoffice?view=cards`, pid: app.pid, headers: { cookie: office } },
      { label: "/backoffice?view=table (orders as a table, staff)", reference: "same routes", personal: true, url: `${app.url}/backoffice?view=table`, pid: app.pid, headers: { cookie: office } },
      { label: "/ (landing, anonymous)", reference: "one route", url: `${app.url}/`, pid: app.pid, headers: {} },
      { label: "/privacy (legal page, anonymous)", reference: "one route", url: `${app.url}/privacy`, pid: app.pid, headers: {} },
      // Language URLs for a first-time visitor: each answer also saves the language in a cookie (ADR 048).
      { label: "/de (language URL, new visitor)", reference: "one route", url: `${app.url}/de`, pid: app.pid, headers: {} },
      { label: "/en (language URL, new visitor)", reference: "one route", url: `${app.url}/en`, pid: app.pid, headers: {} },
      { label: "/privacy in German (lng=de)", reference: "one route", url: `${app.url}/privacy`, pid: app.pid, headers: { cookie: "lng=ImRlIg%3D%3D" } },
      // What a browser with JavaScript fetches when staff move to another tab or page of the cards: the
      // loaders' data (single fetch), no document. Beside the bare app's document, for scale only.
      { label: "/backoffice.data (the cards' data on a move, staff with JavaScript)", reference: "same routes", personal: true, url: `${app.url}/backoffice.data?view=cards`, pid: app.pid, headers: { cookie: office } },
    ];
    const expected = ["Welcome to Remix", "Welcome to Remix", "Шаг 3 из 11", CLIENT_EMAIL, CLIENT_EMAIL, `Заказ ${clientOrder.id.slice(0, 6).toUpperCase()}`, "Заказы</h1>", "Заказы</h1>", "Aligner Lab", "Aligner Lab", 'lang="de"', 'lang="en"', 'lang="de"', "routes/backoffice._index"];
    for (const [index, target] of targets.entries()) await check(target, expected[index]!);
    return { app, bares, targets };
  } catch (error) {
    // Leave no server behind when the set-up fails.
    for (const bare of bares) await bare.stop();
    await app.stop();
    throw error;
  }
}

const database = await createBenchDatabase("throughput");
await seedWorkingDay(database.db);
const runs: Run[] = [];
const idle = new Map<string, number>();
let started: Awaited<ReturnType<typeof startAll>> | undefined;
const stopAll = async (servers: { app: AppServer; bares: BareRemix[] }) => {
  await servers.app.stop();
  for (const bare of servers.bares) await bare.stop();
};
const profiles: Array<{ label: string; summary: ReturnType<typeof summarizeProfile> }> = [];
try {
  started = await startAll({ app: process.env.APP_NODE_ARGS?.split(" ").filter(Boolean) });
  const chosen = values.targets ? new Set(values.targets.split(",").map(Number)) : null;
  const measured = started.targets.filter((target, index) => !chosen || target.reference === null || chosen.has(index));
  for (const target of measured) idle.set(target.label, await idleLatency(target));
  for (const target of measured) runs.push(await measure(target));
  // The bare apps again: the drift of a shared machine shows in the two runs of each.
  for (const target of started.targets.filter((candidate) => candidate.reference === null)) runs.push({ ...(await measure(target)), label: `${target.label} (again)` });
  // Each personal page at half the bare app's capacity: the latency a clinic meets on a busy day.
  const half = reference(`bare Remix, ${BARE_ROUTES} routes`).rps / 2;
  for (const target of measured.filter((candidate) => candidate.personal)) runs.push(await measure(target, half));
  await stopAll(started);
  started = undefined;

  if (values.profile) {
    // A second pass under the profiler, one server per page so each profile holds one page's work:
    // the bare app with the app's routes, then the personal pages.
    const profileRoot = fs.mkdtempSync(path.join(os.tmpdir(), "bench-throughput-profile-"));
    try {
      for (const index of values["profile-targets"]!.split(",").map(Number)) {
        const dir = path.join(profileRoot, String(index));
        fs.mkdirSync(dir);
        const profiler = ["--cpu-prof", `--cpu-prof-dir=${dir}`];
        const pass = await startAll(index <= 1 ? { bare: profiler } : { app: profiler });
        const target = pass.targets[index]!;
        let window: { fromUs: number; toUs: number };
        try {
          await cannon(target, 3, 10);
          const fromUs = Number(process.hrtime.bigint() / 1000n);
          await cannon(target, DURATION, CONNECTIONS);
          window = { fromUs, toUs: Number(process.hrtime.bigint() / 1000n) };
        } finally {
          await stopAll(pass);
        }
        // The profiled server wrote one profile per thread on exit (one per worker); the largest is the busiest.
        const file = largestProfile(dir);
        if (!file) throw new Error(`no CPU profile written for ${target.label}`);
        profiles.push({ label: target.label, summary: summarizeProfile(file, window) });
        if (values["keep-profiles"]) {
          fs.mkdirSync(values["keep-profiles"], { recursive: true });
          fs.copyFileSync(file, path.join(values["keep-profiles"], `target-${index}.cpuprofile`));
        }
      }
    } finally {
      fs.rmSync(profileRoot, { recursive: true, force: true });
    }
  }
} finally {
  if (started) await stopAll(started);
  await database.drop();
}

/** The mean req/s of a bare app's two runs. */
function reference(label: string) {
  const pair = runs.filter((run) => run.reference === null && run.label.startsWith(label));
  return { rps: pair.reduce((sum, run) => sum + run.rps, 0) / pair.length, p99: Math.max(...pair.map((run) => run.p99)) };
}
const references = { "one route": reference("bare Remix, 1 route"), "same routes": reference(`bare Remix, ${BARE_ROUTES} routes`) } as const;
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s each, app with ${WEB_CONCURRENCY ?? `${os.availableParallelism()} (one per core)`} worker process(es) and ${APP_ROUTES} routes, ${os.cpus().length} cores, Node ${process.version}; ` +
    `references (mean of 2 runs each): bare Remix with 1 route ${references["one route"].rps.toFixed(0)} req/s, with ${BARE_ROUTES} routes ${references["same routes"].rps.toFixed(0)} req/s`,
);
console.log("| target | req/s | × its reference | p50 | p99 | idle latency | server CPU per request | server cores | autocannon cores | load (1 min) |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const run of runs) {
  const idleMs = idle.get(run.label.replace(" (again)", ""));
  const ratio = run.reference ? `${(run.rps / references[run.reference].rps).toFixed(2)} (${run.reference})` : "—";
  console.log(
    `| ${run.label} | ${run.rps.toFixed(0)} | ${ratio} | ${run.p50} ms | ${run.p99} ms | ${idleMs === undefined ? "—" : `${idleMs.toFixed(1)} ms`} | ${run.serverCpuMsPerRequest.toFixed(2)} ms | ${run.serverCores.toFixed(2)} | ${run.loadCores.toFixed(2)} | ${run.load1.toFixed(1)} |`,
  );
}
for (const { label, summary } of profiles) {
  console.log(`\nprofile of ${label}: ${summary.busyMs} ms busy of ${summary.totalMs} ms sampled; self time by part:`);
  for (const part of summary.parts) console.log(`  ${part.percentOfBusy.toFixed(1).padStart(5)} %  ${String(part.ms).padStart(6)} ms  ${part.part}`);
  console.log("  busiest functions (self time):");
  for (const fn of summary.functions) console.log(`  ${fn.percentOfBusy.toFixed(1).padStart(5)} %  ${String(fn.ms).padStart(6)} ms  ${fn.name}`);
  console.log("  widest functions (time with the function on the stack):");
  for (const fn of summary.inclusive) console.log(`  ${fn.percentOfBusy.toFixed(1).padStart(5)} %  ${String(fn.ms).padStart(6)} ms  ${fn.name}`);
}

const figures: Figure[] = [];
for (const [name, ref] of Object.entries(references)) {
  figures.push({ name: `bare Remix, ${name === "one route" ? 1 : BARE_ROUTES} route(s), req/s (mean of 2)`, figure: `${ref.rps.toFixed(0)} req/s, p99 ≤ ${ref.p99} ms`, value: ref.rps, target: "—", met: null });
}
for (const run of runs.filter((candidate) => candidate.reference !== null)) {
  const kind = run.reference!;
  const ratio = run.rps / references[kind].rps;
  const clean = run.non2xx === 0 && run.errors === 0;
  // Public pages for anonymous visitors must match the one-route bare app; personal pages 0.6 × the bare app with as many routes.
  const ratioTarget = kind === "one route" ? PUBLIC_RATIO_TARGET : RATIO_TARGET;
  const errors = clean ? "" : ` (${run.non2xx} non-2xx, ${run.errors} errors)`;
  if (run.offered) {
    // A personal page at a fixed offered load: what it served of it, and its p99 there.
    figures.push({ name: `p99 ${run.label}`, figure: `${run.p99} ms (served ${run.rps.toFixed(0)} req/s)${errors}`, value: run.p99, target: `≤ ${P99_TARGET_MS} ms`, met: clean && run.p99 <= P99_TARGET_MS && run.rps >= run.offered * 0.95 });
    continue;
  }
  figures.push({ name: `req/s ${run.label}`, figure: `${run.rps.toFixed(0)} req/s = ${ratio.toFixed(2)} × bare (${kind})${errors}`, value: ratio, target: `≥ ${ratioTarget} × bare (${kind})`, met: clean && ratio >= ratioTarget });
  if (kind !== "one route") continue;
  // Little's law: with every connection always waiting, the mean latency is connections ÷ throughput,
  // and p99 can be no lower than the mean; said beside the figure so a target under it reads as such.
  const floor = (CONNECTIONS / run.rps) * 1000;
  figures.push({ name: `p99 ${run.label}`, figure: `${run.p99} ms (mean at this throughput ${floor.toFixed(0)} ms)`, value: run.p99, target: `≤ ${PUBLIC_P99_TARGET_MS} ms`, met: run.p99 <= PUBLIC_P99_TARGET_MS });
}
printResult({ bench: "throughput", figures, loadavg: os.loadavg() });
