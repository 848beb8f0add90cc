import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app";

/**
 * An idle connection stays open longer than a proxy keeps it (ADR 056): a proxy or browser that
 * reuses it after a pause of several seconds is answered on it, not reset. Node's own default
 * closed it after 5 s.
 */
describe("kept-alive connections", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A GET on the agent's one socket: its status and whether it went on a connection already open. */
  const get = (agent: http.Agent, url: string) =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const request = http.get(url, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
      });
      request.on("error", reject);
    });

  it("answers a request sent on the same connection after 6 s of silence", { timeout: 30_000 }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, `${app.url}/healthz`);
      expect(first).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get(agent, `${app.url}/healthz`);
      expect(second).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
