import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../support/app";

/**
 * The files of `public/` are served as files, with their short lifetime, and only for addresses with
 * an extension: every public file has one and no page's address does, so a page is never looked for
 * on the disk first (server.mts).
 */
describe("public files", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

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
