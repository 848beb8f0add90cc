/**
 * One page from two checkouts of the app, side by side: CPU per request of each under the same load,
 * the load alternating between them in short slices so that a shared machine's drift falls on both
 * alike. For telling a change of a few percent from noise: on this 2-core machine one throughput
 * run of a page varied by up to ±25 % from the next, while the same checkout against itself came
 * out at 0.97–1.03 (4–8 rounds).
 *
 *   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   (cd /tmp/base && npx remix build) && npx remix build
 *   node --import tsx bench/ab.mts /tmp/base . cabinet      (order | cabinet | backoffice)
 *   ROUNDS=10 SLICE=3 … ; ENV_A='{"NAME":"value"}' ENV_B=… to compare settings on one checkout;
 *   PAGE_A='backoffice?view=cards' PAGE_B='backoffice?view=table' … to compare two addresses of one page
 *
 * Each checkout's server (`scripts/start.mts`, NODE_ENV=production, one worker) runs on one
 * PostgreSQL database with the packer fixture's 50 orders; the page is opened as the throughput
 * benchmark opens it. Prints CPU per request (from /proc) and requests/s of each, and B ÷ A.
 */
import os from "node:os";
import autocannon from "autocannon";
import type { AppServer } from "../tests/support/app-server";
import { clientSessionCookie, gateCookie, seedWorkingDay, startBenchApp, walkWizard } from "./lib/app-fixture";
import { cpuSecondsOf } from "./lib/cpu";
import { createBenchDatabase } from "./lib/database";

const [rootA, rootB, page = "cabinet"] = process.argv.slice(2);
if (!rootA || !rootB || !["order", "cabinet", "backoffice"].includes(page)) {
  console.error("usage: node --import tsx bench/ab.mts CHECKOUT_A CHECKOUT_B [order|cabinet|backoffice]");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const SLICE_SECONDS = Number(process.env.SLICE ?? 3);
const CONNECTIONS = 20;

const database = await createBenchDatabase("ab");
await seedWorkingDay(database.db);
const apps: AppServer[] = [];
try {
  for (const [root, env] of [
    [rootA, process.env.ENV_A],
    [rootB, process.env.ENV_B],
  ] as const) {
    apps.push(await startBenchApp(database.url, [], 1, { root, env: { LOG_LEVEL: "warn", ...(JSON.parse(env ?? "{}") as Record<string, string>) } }));
  }
  const targets = [];
  for (const app of apps) {
    const cookie =
      page === "backoffice" ? await gateCookie(app, "backoffice") : page === "cabinet" ? await clientSessionCookie(database.db, app) : (await walkWizard(app, async () => {}, 3)).jar.header();
    // PAGE_A / PAGE_B: another address of the same page on each side (`backoffice?view=table`).
    const address = (apps.indexOf(app) ? process.env.PAGE_B : process.env.PAGE_A) ?? page;
    targets.push({ app, url: `${app.url}/${address}`, headers: { "accept-encoding": "gzip", cookie } });
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
