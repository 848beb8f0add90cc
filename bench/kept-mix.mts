/**
 * How often a viewer's kept page (ADR 081) is given again under a working day's traffic, not a
 * benchmark's repeats: the app as it runs (KEPT_PAGE_SECONDS=10, one worker) with a queue worker
 * beside it (its production poll), clinics placing orders over HTTP (bench load's clinics: uploads,
 * payment), and viewers who come back to their page the way people do — clinics' cabinets and a
 * staff member's work list, each asked for again every `--reload-s` seconds (default 5; 3 is a
 * restless viewer) with a little jitter. Prints the store's answers from memory and made
 * (`aligner_kept_page_answers_total`), the hit rate, and the share of the app's CPU the hits saved,
 * from each kind of answer's CPU cost measured in the same process beforehand.
 *
 *   npx remix build && node --import tsx bench/kept-mix.mts [--seconds 60] [--clinics 4] [--viewers 6] [--reload-s 5]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startQueueWorker } from "../tests/support/queue-worker";
import { runLoad } from "../tests/support/load";
import { freePort } from "../tests/support/free-port";
import { SECRETS, clientSessionCookie, gateCookie, seedWorkingDay, startBenchApp } from "./lib/app-fixture";
import { cpuSecondsOf } from "./lib/cpu";
import { createBenchDatabase } from "./lib/database";
import { printResult } from "./lib/result";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, clinics: { type: "string", default: "4" }, viewers: { type: "string", default: "6" }, "reload-s": { type: "string", default: "5" } } });
const SECONDS = Number(values.seconds);
const RELOAD_MS = Number(values["reload-s"]) * 1000;

const database = await createBenchDatabase("kept-mix");
await seedWorkingDay(database.db);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kept-mix-"));
const metricsPort = await freePort();
const env = { DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) };
const app = await startBenchApp(database.url, [], 1, { keptPages: true, env });
const worker = await startQueueWorker({ DATABASE_URL: database.url, ...SECRETS, DATA_DIR: dataDir }, ["--poll-ms", "2000", "--housekeeping-ms", "60000"]);

async function keptCounts(): Promise<{ memory: number; made: number }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const count = (from: string) => Number(new RegExp(`aligner_kept_page_answers_total\\{[^}]*from="${from}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { memory: count("memory"), made: count("made") };
}

try {
  // The viewers: clinics of the fixture in their cabinet (the list and an order's page), one staff member on the work list.
  const clinics = await database.db.selectFrom("orders").select("email").where("status", "<>", "draft").groupBy("email").orderBy("email").execute();
  const office = await gateCookie(app, "backoffice");
  const viewers: Array<{ urls: string[]; cookie: string }> = [{ urls: ["/backoffice?view=cards", "/backoffice?view=table"], cookie: office }];
  for (const { email } of clinics.slice(0, Number(values.viewers) - 1)) {
    const order = await database.db.selectFrom("orders").select("id").where("email", "=", email).where("status", "<>", "draft").executeTakeFirstOrThrow();
    viewers.push({ urls: ["/cabinet", `/cabinet/orders/${order.id}`, "/cabinet"], cookie: await clientSessionCookie(database.db, app, email) });
  }

  // What each kind of answer costs the app, measured alone: the same page twice in a row (made, then from memory).
  // A distinct query makes each answer anew (another key); the same one is given from memory.
  const costOf = async (url: string | ((i: number) => string), cookie: string, times = 100) => {
    const before = cpuSecondsOf(app.pid);
    for (let i = 0; i < times; i++) await (await fetch(app.url + (typeof url === "string" ? url : url(i)), { headers: { cookie, "accept-encoding": "gzip" } })).arrayBuffer();
    return ((cpuSecondsOf(app.pid) - before) * 1000) / times;
  };
  await costOf("/cabinet", viewers[1]!.cookie, 20); // warm-up
  const quiet = await keptCounts();
  const keptMs = await costOf("/cabinet", viewers[1]!.cookie);
  const afterKept = await keptCounts();
  console.log(`cost check: ${afterKept.memory - quiet.memory} of 100 from memory while nothing was written`);
  const madeMs = await costOf((i) => `/cabinet?n=${i}`, viewers[1]!.cookie);
  const before = await keptCounts();
  const cpuBefore = cpuSecondsOf(app.pid);
  const deadline = performance.now() + SECONDS * 1000;
  let asked = 0;
  const view = async (viewer: (typeof viewers)[number], index: number) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * RELOAD_MS));
    for (let step = 0; performance.now() < deadline; step++) {
      const response = await fetch(app.url + viewer.urls[step % viewer.urls.length]!, { headers: { cookie: viewer.cookie, "accept-encoding": "gzip" } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`viewer ${index}: HTTP ${response.status}`);
      asked++;
      await new Promise((resolve) => setTimeout(resolve, RELOAD_MS * (0.8 + Math.random() * 0.4)));
    }
  };
  const [load] = await Promise.all([runLoad({ appUrl: app.url, clinics: Number(values.clinics), durationMs: SECONDS * 1000, requestTimeoutMs: 60_000 }), ...viewers.map(view)]);
  const cpuMs = (cpuSecondsOf(app.pid) - cpuBefore) * 1000;
  const after = await keptCounts();
  const memory = after.memory - before.memory;
  const made = after.made - before.made;
  const rate = memory / Math.max(1, memory + made);
  // Every answer from memory spared one made one: the cabinet's made cost less its kept cost.
  const savedMs = memory * Math.max(0, madeMs - keptMs);
  console.log(`${SECONDS} s, ${viewers.length} viewers every ${RELOAD_MS / 1000} s (${asked} page views), ${Number(values.clinics)} clinics ordering (${load.requests.length} requests, ${load.orders.filter((order) => order.paid).length} paid), queue worker polling every 2 s`);
  console.log(`kept-page answers: ${memory} from memory, ${made} made — hit rate ${(rate * 100).toFixed(1)} %`);
  console.log(`app CPU during the run ${(cpuMs / 1000).toFixed(1)} s; a kept answer ${keptMs.toFixed(2)} ms, a made cabinet ${madeMs.toFixed(2)} ms; CPU saved by the store ≈ ${((savedMs / Math.max(1, cpuMs)) * 100).toFixed(2)} %`);
  printResult({
    bench: "kept-mix",
    loadavg: os.loadavg(),
    figures: [
      { name: "kept pages under a working day's traffic: hit rate", figure: `${(rate * 100).toFixed(1)} % (${memory} of ${memory + made})`, value: rate, target: "—", met: null },
      { name: "kept pages: share of the app's CPU saved", figure: `${((savedMs / Math.max(1, cpuMs)) * 100).toFixed(2)} %`, value: savedMs / Math.max(1, cpuMs), target: "—", met: null },
    ],
  });
} finally {
  worker.child.kill("SIGTERM");
  await app.stop();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
