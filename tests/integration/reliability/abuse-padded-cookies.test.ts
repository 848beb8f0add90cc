import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { MiB, residentBytes, sampleResident } from "../../support/abusive-bodies";
import { startApp, type TestApp } from "../../support/app";
import { buildOrderIn } from "../../support/builders";

/**
 * One free account sending its pages' requests with a cookie header it pads anew each time (issue 56,
 * the probe that ended a 256 MB heap in 111 s through the page store ADR 081 removed): on one process
 * with the heap of `fly.toml`'s machine, 15,000 data requests of the cabinet, each with the account's
 * session and a distinct 15 KB cookie. Nothing the server keeps may grow with distinct cookies.
 */

const REQUESTS = 15_000;
const PARALLEL = 16;
const PADDING = "x".repeat(15_000);
const EMAIL = "padded@clinic.test";

let app: TestApp;
let session: string;

beforeAll(async () => {
  app = await startApp({ nodeArgs: ["--max-old-space-size=256"] });
  const user = await app.database.db.insertInto("users").values({ email: EMAIL }).returning("id").executeTakeFirstOrThrow();
  session = (await createUserSession(app.database.db, user.id)).split(";")[0]!;
  for (const status of ["paid", "processing", "shipped"] as const) await buildOrderIn(app.database.db, status, { email: EMAIL });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe("distinct padded cookies from one account", () => {
  it(`${REQUESTS} cabinet data requests, each with its own 15 KB cookie, on a 256 MB heap: all answered, the health check throughout, memory growth under 64 MiB`, { timeout: 600_000 }, async () => {
    let sent = 0;
    const statuses = new Map<number, number>();
    const ask = async (i: number) => {
      const response = await fetch(`${app.url}/cabinet.data?_routes=routes%2Fcabinet`, { headers: { Cookie: `${session}; pad${i}=${PADDING}` } });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    };
    const flood = async (count: number) => {
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (sent < count) await ask(sent++);
        }),
      );
    };
    // What a process sets up once (code, pools, the heap's first growth) is not the flood's.
    await flood(1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baseline = residentBytes(app.pid);
    const memory = sampleResident(app.pid);
    const health: number[] = [];
    let flooding = true;
    const checker = (async () => {
      while (flooding) {
        const response = await fetch(`${app.url}/healthz`).catch(() => null);
        health.push(response?.status ?? 0);
        await response?.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    sent = 0;
    statuses.clear();
    await flood(REQUESTS);
    flooding = false;
    await checker;
    const growth = memory.stop() - baseline;
    console.log(`RSS ${(baseline / MiB).toFixed(0)} MiB before, +${(growth / MiB).toFixed(1)} MiB at the peak; ${health.length} health checks`);

    expect(Object.fromEntries(statuses)).toEqual({ 200: REQUESTS });
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
    expect(growth).toBeLessThan(64 * MiB);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});
