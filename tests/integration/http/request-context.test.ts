import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import type { KyselyPlugin, OperationNode } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { setDb } from "~/modules/db/db.server";
import { browserFetch, CookieJar } from "../../support/app-server";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/**
 * The facts of a request are read once (STYLE 17, ADR 030): however many loaders, guards and
 * helpers a request runs, the session is looked up once. The app runs in this process, on the
 * server build, over a database that counts the statements on the `sessions` table.
 */
const SECRETS = { SESSION_SECRET: "context-test-session-secret-0123456789", BACKOFFICE_PASSWORD: "office", PACKER_PASSWORD: "packer", CRON_SECRET: "cron" };
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
    const build = (await import(pathToFileURL(BUILD).href)) as ServerBuild;
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

  /** The session statements one request made. */
  async function counted(run: () => Promise<Response>) {
    sessionQueries = 0;
    const response = await run();
    await response.arrayBuffer();
    return { status: response.status, sessionQueries };
  }

  it("looks the session up once per wizard GET and once per wizard POST", async () => {
    const browser = await signedInBrowser();
    expect(await counted(() => browser.request("/order"))).toEqual({ status: 200, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "next" } }))).toEqual({ status: 302, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order"))).toEqual({ status: 200, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "next", email: "doctor@clinic.ru", phone: "+7 900 000-00-01" } }))).toEqual({ status: 302, sessionQueries: 1 });
    expect(await counted(() => browser.request("/order", { form: { intent: "back" } }))).toEqual({ status: 302, sessionQueries: 1 });
  });

  it("looks the session up once on the cabinet and the partner page", async () => {
    const browser = await signedInBrowser();
    expect(await counted(() => browser.request("/cabinet"))).toEqual({ status: 200, sessionQueries: 1 });
    expect((await counted(() => browser.request("/partner"))).sessionQueries).toBe(1);
  });
});
