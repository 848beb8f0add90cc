import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildPackingDay, transferSize } from "./fixtures";
import { SECRETS, startApp, type TestApp } from "../../support/app";

const KB = 1024;

/**
 * The packer page's weight with 50 orders (DESIGN §7: ≤ 60 KB with CSS): bytes on the wire with gzip,
 * as the packer's browser receives them — the document, its stylesheets and any scripts. The packer
 * pages need no client code (handle.hydrate = false), so the shell sends none.
 */
describe("/packer transfer size with 50 orders", () => {
  let t: TestDatabase;
  let app: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    await buildPackingDay(t.db, 50);
    app = await startApp({ database: t });
    const browser = browserFetch(app);
    await browser.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD } });
    cookie = browser.jar.header();
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it("stays within 60 KB on the wire, stylesheets and scripts included", async () => {
    // "Все заказы": the day's 50 orders whatever their state (the default view lists only those to pack).
    const page = await transferSize(`${app.url}/packer?view=all`, cookie);
    expect(page.status).toBe(200);
    expect(page.encoding).toBe("gzip");
    const html = zlib.gunzipSync(page.body).toString("utf8");
    expect(html.match(/class="pk-card"/g)).toHaveLength(50);

    const assets = async (pattern: RegExp) => {
      let total = 0;
      for (const [, href] of html.matchAll(pattern)) total += (await transferSize(`${app.url}${href}`)).bytes;
      return total;
    };
    const css = await assets(/<link rel="stylesheet" href="([^"]+)"/g);
    const js = await assets(/<(?:link rel="modulepreload" href|script[^>]* src)="([^"]+)"/g);
    const report = {
      htmlRaw: Buffer.byteLength(html),
      htmlGzipWire: page.bytes,
      htmlGzipOneBlock: zlib.gzipSync(html, { level: 6 }).length,
      css,
      js,
      total: page.bytes + css + js,
    };
    console.log(`/packer, 50 orders, bytes: ${JSON.stringify(report)} (${(report.total / KB).toFixed(1)} KB on the wire in all)`);
    expect(js).toBe(0);
    expect(html).not.toMatch(/<script[^>]* src=/);
    expect(report.total).toBeLessThanOrEqual(60 * KB);
  });
});
