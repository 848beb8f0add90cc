import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app";

/**
 * How the server itself serves, one app for both: the files of `public/`, and connections kept open.
 */
describe("the server", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  // The files of `public/` are served as files, with their short lifetime, and only for addresses with
  // an extension: every public file has one and no page's address does, so a page is never looked for
  // on the disk first (server.mts).
  describe("public files", () => {
    it("serves each public file with its type and an hour's lifetime", async () => {
      for (const [name, type] of [["/favicon.svg", "image/svg+xml"], ["/packer-logo.svg", "image/svg+xml"]] as const) {
        const response = await fetch(`${app.url}${name}`);
        expect(response.status, name).toBe(200);
        expect(response.headers.get("Content-Type")?.split(";")[0], name).toBe(type);
        expect(response.headers.get("Cache-Control"), name).toBe("public, max-age=3600");
        expect(await response.text(), name).toContain("<svg");
      }
    });

    it("answers a missing file, and a page, from the app", async () => {
      const missing = await fetch(`${app.url}/no-such-file.svg`);
      expect(missing.status).toBe(404);
      await missing.arrayBuffer();
      const page = await fetch(`${app.url}/privacy`);
      expect(page.status).toBe(200);
      expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
      await page.arrayBuffer();
    });
  });

  // An idle connection stays open longer than a proxy keeps it (ADR 056): a proxy or browser that
  // reuses it after a pause of several seconds is answered on it, not reset. Node's own default
  // closed it after 5 s.
  describe("kept-alive connections", () => {
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
        // The silence is what is tested: longer than Node's default of 5 s.
        await new Promise((resolve) => setTimeout(resolve, 6_000));
        const second = await get(agent, `${app.url}/healthz`);
        expect(second).toEqual({ status: 200, reused: true });
      } finally {
        agent.destroy();
      }
    });
  });
});
