import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn } from "../../support/builders";
import { gatePassed, SECRETS, signedInAs } from "./support";
import { startApp, type TestApp } from "../../support/app";

const ROUTES_DIR = path.resolve(import.meta.dirname, "../../../app/routes");

/**
 * Every route module under /backoffice, found from the files (flat routes: `backoffice.clients.tsx`,
 * `backoffice.orders.$orderId.tracker.tsx`, folder routes with route.tsx (`backoffice.test/route.tsx`)),
 * turned into a URL. A new back-office route is covered without editing this test.
 */
interface BackofficeRoute {
  file: string;
  url: string;
  /** Where a form posts: index routes need `?index`. */
  postUrl: string;
  hasAction: boolean;
  adminOnly: boolean;
}

function backofficeRoutes(sampleOrderId: string): BackofficeRoute[] {
  return fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .filter((entry) => entry.name.startsWith("backoffice.") && (entry.isDirectory() || /\.(tsx?|jsx?)$/.test(entry.name)))
    .map((entry) => {
      const id = entry.isDirectory() ? entry.name : entry.name.replace(/\.(tsx?|jsx?)$/, "");
      // Split on dots outside [escapes].
      const segments = id.match(/(\[[^\]]*\]|[^.[]+)+/g) ?? [];
      const url = segments
        .map((segment) => segment.replace(/\[([^\]]*)\]/g, "$1"))
        .map((segment) => {
          if (segment === "_index") return "";
          if (segment === "$") return "no/such/page";
          if (segment.startsWith("$")) return sampleOrderId;
          return segment;
        })
        .filter((segment, index) => index === 0 || segment !== "")
        .join("/");
      const source = entry.isDirectory()
        ? fs.readFileSync(path.join(ROUTES_DIR, entry.name, fs.readdirSync(path.join(ROUTES_DIR, entry.name)).find((name) => name.startsWith("route."))!), "utf8")
        : fs.readFileSync(path.join(ROUTES_DIR, entry.name), "utf8");
      const hasAction = /export\s+(async\s+)?(function|const)\s+action\b/.test(source);
      const postUrl = segments.at(-1) === "_index" ? `/${url}?index` : `/${url}`;
      return { file: entry.name, url: `/${url}`, postUrl, hasAction, adminOnly: id === "backoffice.roles" };
    });
}

describe("every back-office route guards its loader and its action", () => {
  let t: TestDatabase;
  let app: TestApp;
  let orderId: string;
  let routes: ReturnType<typeof backofficeRoutes>;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    orderId = (await buildOrderIn(t.db, "paid")).id;
    routes = backofficeRoutes(orderId);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("finds the route files", () => {
    const urls = routes.map((route) => route.url);
    expect(urls).toEqual(expect.arrayContaining(["/backoffice", "/backoffice/clients", "/backoffice/files", "/backoffice/roles", "/backoffice/test", `/backoffice/orders/${orderId}/tracker`]));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    // Every page that changes something has its own action (and so its own guard, checked below).
    expect(routes.filter((route) => route.hasAction).map((route) => route.file)).toEqual(
      expect.arrayContaining(["backoffice._index.tsx", "backoffice.clients.tsx", "backoffice.files.tsx", "backoffice.roles.tsx", "backoffice.orders.$orderId.tracker.tsx"]),
    );
  });

  it("sends a stranger to the gate on GET, on POST and on the data request", async () => {
    const stranger = browserFetch(app);
    for (const route of routes) {
      const get = await stranger.request(route.url);
      expect(get.status, `GET ${route.file}`).toBe(302);
      expect(get.headers.get("Location"), `GET ${route.file}`).toMatch(/^\/backoffice\/login\?redirectTo=/);
      const post = await stranger.request(route.postUrl, { form: { intent: "delete_trash" } });
      if (route.hasAction) {
        expect(post.status, `POST ${route.file}`).toBe(302);
        expect(post.headers.get("Location"), `POST ${route.file}`).toMatch(/^\/backoffice\/login\?redirectTo=/);
      } else {
        // No action: Remix refuses the POST (405) or the guarded loaders send it to the gate.
        expect([302, 405], `POST ${route.file}`).toContain(post.status);
        if (post.status === 302) expect(post.headers.get("Location"), `POST ${route.file}`).toMatch(/^\/backoffice\/login\?redirectTo=/);
      }
      const single = await stranger.request(`${route.url === "/backoffice" ? "/backoffice/_root" : route.url}.data`);
      expect([202, 204, 302], `GET ${route.file}.data`).toContain(single.status);
      const body = await single.text();
      // Single fetch answers a redirect in its body: to the gate, and nothing else.
      if (body) expect(body, `GET ${route.file}.data`).toMatch(/^\[\["SingleFetchRedirect",1\].*"\/backoffice\/login\?redirectTo=[^"]*"/);
    }
  });

  it("keeps out a signed-in user without a staff role and the packer's password", async () => {
    const doctor = await signedInAs(app, t.db, "doctor@clinic.test");
    const { tryGatePassword } = await import("~/modules/auth/gate.server");
    const packerPass = await tryGatePassword(t.db, "packer", SECRETS.PACKER_PASSWORD, "10.0.0.9");
    const packer = browserFetch(app);
    if (packerPass.ok) packer.jar.set("packer_gate", packerPass.setCookie.split(";")[0]!.split("=").slice(1).join("="));
    expect(packer.jar.has("packer_gate")).toBe(true);
    for (const route of routes) {
      expect((await packer.request(route.url)).status, `GET ${route.file} as packer`).toBe(302);
      expect([302, 405], `POST ${route.file} as packer`).toContain((await packer.request(route.postUrl, { form: {} })).status);
      expect((await doctor.request(route.url)).status, `GET ${route.file}`).toBe(302);
      const post = await doctor.request(route.postUrl, { form: {} });
      expect(route.hasAction ? [302] : [302, 405], `POST ${route.file}`).toContain(post.status);
    }
  });

  it("lets staff in, and answers 403 to a manager on the admins' pages", async () => {
    const manager = await signedInAs(app, t.db, "manager@aligner.test", ["manager"]);
    const gate = await gatePassed(app);
    for (const staff of [manager, gate]) {
      for (const route of routes) {
        const response = await staff.request(route.url);
        if (route.adminOnly) expect(response.status, `GET ${route.file}`).toBe(403);
        else expect(response.headers.get("Location") ?? "", `GET ${route.file}`).not.toContain("/backoffice/login");
        if (route.adminOnly) expect((await staff.request(route.postUrl, { form: {} })).status, `POST ${route.file}`).toBe(403);
      }
    }
  });
});
