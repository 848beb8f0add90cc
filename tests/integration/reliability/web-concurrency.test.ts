import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app";

/**
 * Every core used (ADR 032): `npm start` on PostgreSQL runs WEB_CONCURRENCY worker processes behind
 * one port, both serve, one that dies is replaced, and a stop ends them all.
 */
const childrenOf = (pid: number): number[] =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

/** The status of a GET made on a connection of its own (no pooled keep-alive connection). */
const freshStatus = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on("error", reject);
  });

async function eventually<T>(read: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("worker processes", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { WEB_CONCURRENCY: "2", LOG_LEVEL: "info" } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it("serves one port from two workers, replaces one that dies, and stops them all", { timeout: 60_000 }, async () => {
    const workers = await eventually(() => childrenOf(app.pid), (pids) => pids.length === 2, 10_000);
    expect(workers).toHaveLength(2);

    // Pages made for each request (a query keeps them out of the public-page memory): both workers answer.
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => fetch(`${app.url}/privacy?n=${i}`).then(async (response) => (await response.text(), response.status))));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const servedBy = new Set(
      app
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"request"') && line.includes('"path":"/privacy"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect([...servedBy].sort()).toEqual([...workers].sort());

    process.kill(workers[0]!, "SIGKILL");
    const replaced = await eventually(() => childrenOf(app.pid), (pids) => pids.length === 2 && !pids.includes(workers[0]!), 15_000);
    expect(replaced).toHaveLength(2);
    expect(replaced).toContain(workers[1]);
    // A new connection, as a browser makes when its kept-alive one went with the dead worker: fetch's
    // pool may still hold a connection that worker had accepted, and fail on it ("other side closed").
    expect(await freshStatus(`${app.url}/healthz`)).toBe(200);

    const all = [app.pid, ...replaced];
    await app.stop();
    expect(await eventually(() => all.filter(alive), (left) => left.length === 0, 10_000)).toEqual([]);
  });
});
