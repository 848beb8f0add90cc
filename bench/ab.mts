/**
 * One page from two checkouts of the app, side by side: CPU per request of each under the same load,
 * the load alternating between them in short slices so that a shared machine's drift falls on both
 * alike. For telling a change of a few percent from noise: on this 2-core machine one throughput
 * run of a page varied by up to ±25 % from the next, while the same checkout against itself came
 * out at 1.03.
 *
 *   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   (cd /tmp/base && npx remix build) && npx remix build
 *   node --import tsx bench/ab.mts /tmp/base . cabinet      (order | cabinet | backoffice)
 *   ROUNDS=10 SLICE=3 … ; ENV_A='{"NAME":"value"}' ENV_B=… to compare settings on one checkout
 *
 * Each checkout's server (`scripts/start.mts`, NODE_ENV=production, one worker) runs on one
 * PostgreSQL database with the packer fixture's 50 orders; the page is opened as the throughput
 * benchmark opens it. Prints CPU per request (from /proc) and requests/s of each, and B ÷ A.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "../tests/support/free-port";
import type { AppServer } from "../tests/support/app-server";
import { clientSessionCookie, gateCookie, SECRETS, seedWorkingDay, walkWizard } from "./lib/app-fixture";
import { createBenchDatabase } from "./lib/database";

const [rootA, rootB, page = "cabinet"] = process.argv.slice(2);
if (!rootA || !rootB || !["order", "cabinet", "backoffice"].includes(page)) {
  console.error("usage: node --import tsx bench/ab.mts CHECKOUT_A CHECKOUT_B [order|cabinet|backoffice]");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const SLICE_SECONDS = Number(process.env.SLICE ?? 3);
const CONNECTIONS = 20;
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds of a process and its children. */
function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return own + children.reduce((sum, child) => sum + (fs.existsSync(`/proc/${child}`) ? cpuSecondsOf(child) : 0), 0);
}

async function startCheckout(root: string, databaseUrl: string, extra: Record<string, string>): Promise<AppServer & { child: ChildProcess }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ab-"));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.mts"], {
    cwd: path.resolve(root),
    env: {
      ...process.env,
      ...SECRETS,
      DATABASE_URL: databaseUrl,
      APP_ENV: "development",
      NODE_ENV: "production",
      QUEUE_IN_PROCESS: "false",
      WEB_CONCURRENCY: "1",
      PUBLIC_URL_DOMESTIC: `http://127.0.0.1:${port}`,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...extra,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${root}: the app exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${root}: the app did not become healthy`);
    const healthy = await fetch(`${url}/healthz`).then((response) => response.ok, () => false);
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    url,
    port,
    pid: child.pid!,
    dataDir,
    output: () => "",
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const database = await createBenchDatabase("ab");
await seedWorkingDay(database.db);
const apps: AppServer[] = [];
try {
  apps.push(await startCheckout(rootA, database.url, JSON.parse(process.env.ENV_A ?? "{}") as Record<string, string>));
  apps.push(await startCheckout(rootB, database.url, JSON.parse(process.env.ENV_B ?? "{}") as Record<string, string>));
  const targets = [];
  for (const app of apps) {
    const cookie =
      page === "backoffice" ? await gateCookie(app, "backoffice") : page === "cabinet" ? await clientSessionCookie(database.db, app) : (await walkWizard(app, async () => {}, 3)).jar.header();
    targets.push({ app, url: `${app.url}/${page}`, headers: { "accept-encoding": "gzip", cookie } });
  }
  for (const target of targets) await autocannon({ url: target.url, connections: 10, duration: 3, headers: target.headers }); // warm-up
  const sums = targets.map(() => ({ cpu: 0, requests: 0, seconds: 0, failed: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const index of order) {
      const target = targets[index]!;
      const cpuBefore = cpuSecondsOf(target.app.pid);
      const started = performance.now();
      const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: SLICE_SECONDS, headers: target.headers });
      const sum = sums[index]!;
      sum.cpu += cpuSecondsOf(target.app.pid) - cpuBefore;
      sum.requests += result.requests.total;
      sum.seconds += (performance.now() - started) / 1000;
      sum.failed += result.non2xx + result.errors;
    }
  }
  const perRequest = sums.map((sum) => (sum.cpu * 1000) / Math.max(1, sum.requests));
  for (const [index, sum] of sums.entries()) {
    console.log(`${index ? "B" : "A"} /${page}: ${perRequest[index]!.toFixed(2)} ms CPU per request, ${(sum.requests / sum.seconds).toFixed(1)} req/s, ${sum.failed} failed`);
  }
  console.log(`B ÷ A, CPU per request: ${(perRequest[1]! / perRequest[0]!).toFixed(3)} (${ROUNDS} rounds of ${SLICE_SECONDS} s each, load ${os.loadavg()[0]!.toFixed(1)})`);
  if (sums.some((sum) => sum.failed > 0)) process.exitCode = 1;
} finally {
  for (const app of apps) await app.stop();
  await database.drop();
}
