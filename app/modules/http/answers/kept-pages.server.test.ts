import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteDegraded, requestFacts, withRequestFacts } from "~/modules/log/logger.server";
import { keptPages, keptRoutesOf } from "./kept-pages.server";

/**
 * The store of a viewer's pages (ADR 081) on its own: a page made by a counting handler, a data
 * version and a clock the test sets. The app's pages over HTTP are tests/integration/requests/kept-pages.test.ts.
 */

describe("keptRoutesOf", () => {
  const build = {
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/cabinet": { id: "routes/cabinet", parentId: "root", path: "cabinet", module: { handle: { keepForViewer: true } } },
      "routes/cabinet_.orders.$orderId": { id: "routes/cabinet_.orders.$orderId", parentId: "root", path: "cabinet/orders/:orderId", module: { handle: { keepForViewer: true } } },
      "routes/backoffice": { id: "routes/backoffice", parentId: "root", path: "backoffice", module: {} },
      "routes/backoffice._index": { id: "routes/backoffice._index", parentId: "routes/backoffice", index: true, module: { handle: { keepForViewer: true } } },
      "routes/backoffice.files": { id: "routes/backoffice.files", parentId: "routes/backoffice", path: "files", module: {} },
    },
  } as unknown as Parameters<typeof keptRoutesOf>[0];
  const { ids, pattern } = keptRoutesOf(build);

  it("names the routes that opted in, and matches their pages and data requests only", () => {
    expect([...ids].sort()).toEqual(["routes/backoffice._index", "routes/cabinet", "routes/cabinet_.orders.$orderId"]);
    for (const path of ["/cabinet", "/cabinet.data", "/cabinet/orders/ab12", "/cabinet/orders/ab12.data", "/backoffice", "/backoffice.data"]) expect(pattern?.test(path), path).toBe(true);
    for (const path of ["/", "/cabinet/", "/cabinet/orders", "/cabinet/orders/a/b", "/backoffice/files", "/order", "/cabinetx"]) expect(pattern?.test(path), path).toBe(false);
  });
});

describe("keptPages", () => {
  let url: string;
  let close: () => void;
  let made = 0;
  let version = "1:1:";
  let clock = 0;
  const realNow = Date.now;

  beforeAll(async () => {
    Date.now = () => realNow() + clock;
    const app = express();
    app.use((_req, _res, next) => withRequestFacts({ requestId: "test" }, next));
    app.use(
      keptPages({
        seconds: 10,
        dataVersion: async () => version,
        textsVersion: async () => 1,
        routes: () => ({ ids: new Set(["routes/page"]), pattern: /^\/(?:page|other)$/ }),
      }),
    );
    app.get(["/page", "/other"], (req, res) => {
      made++;
      const facts = requestFacts()!;
      facts.routeId = req.path === "/page" ? "routes/page" : "routes/other";
      if (req.query.toast) res.setHeader("Set-Cookie", "toast=; Max-Age=0");
      if (req.query.failed) noteDegraded();
      res.setHeader("Content-Security-Policy", `script-src 'nonce-n${made}'`);
      res.type("html").send(`<p>page ${made}</p><script nonce="n${made}"></script>`);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    Date.now = realNow;
    close?.();
  });

  const get = async (path: string, cookie = "__session=a", method = "GET") => {
    const response = await fetch(`${url}${path}`, { method, headers: { Cookie: cookie } });
    return { body: await response.text(), policy: response.headers.get("Content-Security-Policy") };
  };

  it("gives the same browser the same answer, with the policy it was made with, while data and time allow", async () => {
    const first = await get("/page?a");
    const second = await get("/page?a");
    expect(second).toEqual(first);
    expect(first.body).toContain(first.policy!.match(/nonce-(\w+)/)![1]);
  });

  it("makes the page anew once the data's version changes", async () => {
    const first = await get("/page?b");
    version = "1:2:";
    const second = await get("/page?b");
    expect(second.body).not.toBe(first.body);
    expect((await get("/page?b")).body).toBe(second.body);
  });

  it("answers for the configured seconds at most", async () => {
    const first = await get("/page?c");
    clock += 9_000;
    expect((await get("/page?c")).body).toBe(first.body);
    clock += 2_000;
    expect((await get("/page?c")).body).not.toBe(first.body);
  });

  it("keeps one browser's answer from another, and from a request without cookies", async () => {
    const mine = await get("/page?d", "__session=a");
    expect((await get("/page?d", "__session=b")).body).not.toBe(mine.body);
    expect((await get("/page?d", "__session=a; lng=de")).body).not.toBe(mine.body);
    expect((await get("/page?d", "")).body).not.toBe(mine.body);
  });

  it("keeps no answer that sets a cookie, shows a failure in place, or belongs to a route that did not opt in", async () => {
    for (const path of ["/page?toast=1", "/page?failed=1", "/other"]) {
      const first = await get(path);
      expect((await get(path)).body, path).not.toBe(first.body);
    }
  });

  it("answers a HEAD from a kept page and keeps nothing from one", async () => {
    const before = made;
    await get("/page?e", "__session=a", "HEAD");
    expect(made).toBe(before + 1);
    const page = await get("/page?e");
    await get("/page?e", "__session=a", "HEAD");
    expect((await get("/page?e")).body).toBe(page.body);
    expect(made).toBe(before + 2);
  });
});
