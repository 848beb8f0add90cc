/**
 * How far one deployment goes (docs/decisions/028-scale-out.md): the same database, S3 server and
 * load served by 1 and then 2 app processes.
 *
 *   node --import tsx bench/scale-out.mts [--seconds 10] [--connections 50] [--clinics 20] [--load-seconds 20]
 *
 * For each process count: autocannon (in this process) on `GET /order` (a draft at step 3) and
 * `GET /cabinet` (a signed-in clinic with 8 orders), its connections split evenly over the processes,
 * each hit directly (a proxy on the same two cores would take its own share); then the load with
 * integrity through the round-robin proxy (clinics walking the whole order flow, every row and object
 * checked after). PostgreSQL's connections to the database are sampled all along. Prints requests/s
 * in all and per process, p99, the most connections seen, and the integrity result.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sql } from "kysely";
import { type AppServer, startAppServer } from "../tests/support/app-server";
import { checkIntegrity, loadFigures, runLoad } from "../tests/support/load";
import { startRoundRobinProxy } from "../tests/support/round-robin-proxy";
import { s3AppEnv, startS3Server } from "../tests/support/s3-server";
import { SECRETS, clientSessionCookie, seedWorkingDay, walkWizard } from "./lib/app-fixture";
import { createBenchDatabase } from "./lib/database";
import { type Figure, printResult } from "./lib/result";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    clinics: { type: "string", default: "20" },
    "load-seconds": { type: "string", default: "20" },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const CLINICS = Number(values.clinics);
const LOAD_SECONDS = Number(values["load-seconds"]);

interface Measured {
  processes: number;
  order: { rps: number; p99: number };
  cabinet: { rps: number; p99: number };
  load: { requestsPerSecond: number; paidPerSecond: number; p99: number; errors: number; mismatches: number };
  maxConnections: number;
  poolSize: number;
}

async function hammer(apps: AppServer[], pathname: string, cookie: string): Promise<{ rps: number; p99: number }> {
  const share = Math.max(1, Math.floor(CONNECTIONS / apps.length));
  const run = (app: AppServer, duration: number) =>
    autocannon({ url: `${app.url}${pathname}`, connections: share, duration, headers: { Cookie: cookie, "Accept-Encoding": "gzip" } });
  await Promise.all(apps.map((app) => run(app, 2))); // warm-up
  const results = await Promise.all(apps.map((app) => run(app, SECONDS)));
  const bad = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  if (bad > 0) throw new Error(`${pathname}: ${bad} requests failed`);
  return { rps: results.reduce((sum, result) => sum + result.requests.average, 0), p99: Math.max(...results.map((result) => result.latency.p99)) };
}

async function measure(processes: number): Promise<Measured> {
  const database = await createBenchDatabase(`scale${processes}`, { poolSize: 2 });
  const s3 = await startS3Server();
  const proxy = await startRoundRobinProxy();
  const env = { DATABASE_URL: database.url, ...s3AppEnv(s3), ...SECRETS, APP_ENV: "development", NODE_ENV: "production", PUBLIC_URL_DOMESTIC: proxy.url };
  const apps: AppServer[] = [];
  try {
    for (let i = 0; i < processes; i++) apps.push(await startAppServer(env, { timeoutMs: 120_000 }));
    proxy.backends = apps.map((app) => app.port);
    await seedWorkingDay(database.db);
    let draftCookie = "";
    await walkWizard(apps[0]!, async (step, cookie) => {
      if (step === 3) draftCookie = cookie;
    }, 3);
    const cabinetCookie = await clientSessionCookie(database.db, apps[0]!);

    const connections: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const row = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(database.db);
        connections.push(row.rows[0]!.n - 1); // the sampler's own pool keeps one more
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const order = await hammer(apps, "/order", draftCookie);
    const cabinet = await hammer(apps, "/cabinet", cabinetCookie);
    const run = await runLoad({ appUrl: proxy.url, clinics: CLINICS, durationMs: LOAD_SECONDS * 1000, requestTimeoutMs: 60_000 });
    sampling = false;
    await sampler;
    const figures = loadFigures(run);
    const mismatches = await checkIntegrity(run, { db: database.db, s3 }, { onlyThisRun: true });
    for (const mismatch of mismatches.slice(0, 10)) console.log(`  mismatch: ${mismatch}`);
    return {
      processes,
      order,
      cabinet,
      load: { requestsPerSecond: run.requests.length / (run.wallMs / 1000), paidPerSecond: figures.ordersPerSecond, p99: figures.p99Ms, errors: figures.serverErrors + figures.failedRequests, mismatches: mismatches.length },
      maxConnections: Math.max(0, ...connections),
      poolSize: 10,
    };
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    await proxy.stop();
    await s3.stop();
    await database.drop();
  }
}

console.log(`scale-out: ${os.cpus().length} CPU cores, load average ${os.loadavg()[0]!.toFixed(2)} (${new Date().toISOString()})`);
const results: Measured[] = [];
for (const processes of [1, 2]) {
  const measured = await measure(processes);
  results.push(measured);
  console.log(
    `${processes} process(es): /order ${measured.order.rps.toFixed(0)} req/s (p99 ${measured.order.p99} ms), /cabinet ${measured.cabinet.rps.toFixed(0)} req/s (p99 ${measured.cabinet.p99} ms); ` +
      `load ${measured.load.requestsPerSecond.toFixed(1)} req/s, ${measured.load.paidPerSecond.toFixed(2)} paid orders/s, p99 ${Math.round(measured.load.p99)} ms, ${measured.load.errors} errors, ${measured.load.mismatches} mismatches; ` +
      `PostgreSQL connections at most ${measured.maxConnections} (pool ${measured.poolSize} per process)`,
  );
}
const [one, two] = results as [Measured, Measured];
const figures: Figure[] = [];
for (const measured of results) {
  const n = measured.processes;
  figures.push(
    { name: `scale-out: /order, ${n} process(es), req/s in all (per process)`, figure: `${measured.order.rps.toFixed(0)} (${(measured.order.rps / n).toFixed(0)}), p99 ${measured.order.p99} ms`, target: "—", met: null, value: measured.order.rps },
    { name: `scale-out: /cabinet, ${n} process(es), req/s in all (per process)`, figure: `${measured.cabinet.rps.toFixed(0)} (${(measured.cabinet.rps / n).toFixed(0)}), p99 ${measured.cabinet.p99} ms`, target: "—", met: null, value: measured.cabinet.rps },
    { name: `scale-out: load through the proxy, ${n} process(es), paid orders/s`, figure: `${measured.load.paidPerSecond.toFixed(2)} (${measured.load.requestsPerSecond.toFixed(0)} req/s, p99 ${Math.round(measured.load.p99)} ms)`, target: "—", met: null, value: measured.load.paidPerSecond },
    { name: `scale-out: ${n} process(es), 5xx, unanswered requests and integrity mismatches`, figure: String(measured.load.errors + measured.load.mismatches), target: "0", met: measured.load.errors + measured.load.mismatches === 0 },
    { name: `scale-out: ${n} process(es), most PostgreSQL connections seen`, figure: String(measured.maxConnections), target: `≤ ${10 * n} (pool × processes)`, met: measured.maxConnections <= 10 * n },
  );
}
figures.push({ name: "scale-out: /order, 2 processes ÷ 1 on this machine", figure: (two.order.rps / one.order.rps).toFixed(2), target: "—", met: null, value: two.order.rps / one.order.rps });
figures.push({ name: "scale-out: /cabinet, 2 processes ÷ 1 on this machine", figure: (two.cabinet.rps / one.cabinet.rps).toFixed(2), target: "—", met: null, value: two.cabinet.rps / one.cabinet.rps });
printResult({ bench: "scale-out", loadavg: os.loadavg(), figures });
process.exit(figures.some((figure) => figure.met === false) ? 1 : 0);
