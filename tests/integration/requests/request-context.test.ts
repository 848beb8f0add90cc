import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import type { KyselyPlugin, OperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { setDb } from "~/modules/db/db.server";
import { browserFetch, CookieJar } from "../../support/app-server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { SECRETS } from "../../support/app";

/**
 * The facts of a request are read once (STYLE 17, ADR 030): however many loaders, guards and
 * helpers a request runs, the session is looked up once, the market is taken from the host once
 * and the browser's order cookies are parsed once. The app runs in this process, on the server
 * build's route table and assets, over a database that counts the statements on the `sessions`
 * table. The pages measured here (root, wizard, cabinet, partner) and the document entry run
 * from source rather than from the bundle, so that the market and the order cookies are read
 * through the modules below, wrapped to count their calls.
 */
const reads = vi.hoisted(() => ({ market: 0, currentOrderCookie: 0, browserOrdersCookie: 0 }));

vi.mock("~/modules/market/market.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/modules/market/market.server")>();
  return {
    ...actual,
    getMarket: (request: Request) => {
      reads.market++;
      return actual.getMarket(request);
    },
  };
});

vi.mock("~/modules/orders/browser-orders.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/modules/orders/browser-orders.server")>();
  return {
    ...actual,
    readCurrentOrderId: (request: Request) => {
      reads.currentOrderCookie++;
      return actual.readCurrentOrderId(request);
    },
    readBrowserOrderIds: (request: Request) => {
      reads.browserOrdersCookie++;
      return actual.readBrowserOrderIds(request);
    },
  };
});

/** The server build with the measured pages and the document entry taken from source. */
async function buildFromSource(built: ServerBuild): Promise<ServerBuild> {
  // A route's own types (its meta's data) are narrower than the build's table of routes.
  const fromSource: Record<string, unknown> = {
    root: await import("~/root"),
    "routes/order": await import("~/routes/order"),
    "routes/cabinet": await import("~/routes/cabinet"),
    "routes/partner": await import("~/routes/partner"),
  };
  const routes = { ...built.routes };
  for (const [id, module] of Object.entries(fromSource)) {
    if (!routes[id]) throw new Error(`The server build has no route ${id}`);
    routes[id] = { ...routes[id], module: module as ServerBuild["routes"][string]["module"] };
  }
  return { ...built, entry: { module: await import("~/entry.server") }, routes };
}

const BUILD = path.resolve(import.meta.dirname, "../../../build/index.js");

/** Whether a statement names the `sessions` table anywhere (select, insert, update, delete, join). */
function touchesSessions(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  const candidate = node as { kind?: string; table?: { identifier?: { name?: string } } };
  if (candidate.kind === "TableNode" && candidate.table?.identifier?.name === "sessions") return true;
  return Object.values(node).some(touchesSessions);
}

describe("one request context", () => {
  let t: TestDatabase;
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let app: { url: string };
  let sessionQueries = 0;

  const counter: KyselyPlugin = {
    transformQuery(args) {
      if (touchesSessions(args.node as OperationNode)) sessionQueries++;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };

  beforeAll(async () => {
    if (!fs.existsSync(BUILD)) throw new Error("No server build: run `npm run build` before the HTTP tests");
    t = await createTestDatabase(4);
    Object.assign(process.env, SECRETS, { DATABASE_URL: t.url });
    setDb(t.db.withPlugin(counter));
    const build = await buildFromSource((await import(pathToFileURL(BUILD).href)) as ServerBuild);
    const web = express();
    web.all("*", createRequestHandler({ build, mode: "production", getLoadContext: () => ({ clientIp: "127.0.0.1", cspNonce: "request-context-test", requestId: "request-context-test" }) }));
    server = web.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.drop();
  });

  async function signedInBrowser() {
    const user = await t.db
      .insertInto("users")
      .values({ email: `doctor-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru` })
      .returning("id")
      .executeTakeFirstOrThrow();
    const jar = new CookieJar();
    const [pair] = (await createUserSession(t.db, user.id)).split(";");
    jar.set("__session", pair!.slice(pair!.indexOf("=") + 1));
    return browserFetch(app, jar);
  }

  /** The session statements one request made, and how often it read the market and the order cookies. */
  async function counted(run: () => Promise<Response>) {
    sessionQueries = 0;
    Object.assign(reads, { market: 0, currentOrderCookie: 0, browserOrdersCookie: 0 });
    const response = await run();
    await response.arrayBuffer();
    return { status: response.status, sessionQueries, ...reads };
  }

  it("looks the session up once per wizard GET and once per wizard POST", async () => {
    const browser = await signedInBrowser();
    expect(await counted(() => browser.request("/order"))).toMatchObject({ status: 200, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "next" } }))).toMatchObject({ status: 302, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order"))).toMatchObject({ status: 200, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "next", email: "doctor@clinic.ru", phone: "+7 900 000-00-01" } }))).toMatchObject({ status: 302, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "back" } }))).toMatchObject({ status: 302, sessionQueries: 1 });
  });

  it("reads the market and the browser's order cookies once per wizard GET and once per wizard POST", async () => {
    const browser = await signedInBrowser();
    const once = { market: 1, currentOrderCookie: 1, browserOrdersCookie: 1 };
    // The first visit makes the draft and sets both cookies; every later request sends them back.
    expect(await counted(() => browser.request("/order"))).toMatchObject({ status: 200, ...once });
    expect(await counted(() => browser.request("/order"))).toMatchObject({ status: 200, ...once });
    expect(await counted(() => browser.request("/order", { form: { intent: "next" } }))).toMatchObject({ status: 302, ...once });
    // A refused step answers 400 and renders the page again: the action, the root's loader and the wizard's, one reading.
    expect(await counted(() => browser.request("/order", { form: { intent: "next", email: "not-an-email" } }))).toMatchObject({ status: 400, ...once });
    expect(await counted(() => browser.request("/order", { form: { intent: "next", email: "doctor@clinic.ru", phone: "+7 900 000-00-01" } }))).toMatchObject({ status: 302, ...once });
    expect(await counted(() => browser.request("/order", { form: { intent: "back" } }))).toMatchObject({ status: 302, ...once });
  });

  it("looks the session up once on the cabinet and the partner page", async () => {
    const browser = await signedInBrowser();
    expect(await counted(() => browser.request("/cabinet"))).toMatchObject({ status: 200, sessionQueries: 1 });
    expect((await counted(() => browser.request("/partner"))).sessionQueries).toBe(1);
  });
});
