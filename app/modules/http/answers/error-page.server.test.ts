import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "~/modules/log/logger.server";
import { finalErrorHandler } from "./error-page.server";

// The page's words come from the locale files through the staff's overrides, which need a database:
// here the reader's language is English and each text is its key, so the test sees which text was chosen.
vi.mock("../request/request-context.server", () => ({ getLocale: async () => ({ market: "international", language: "en" }) }));
vi.mock("~/modules/translations/overrides.server", () => ({
  textTranslator: async () => (key: string, values?: Record<string, string>) => (values?.id ? `${key}:${values.id}` : key),
}));

describe("the server's last error handler", () => {
  let url: string;
  let close: () => void;
  const errors = vi.spyOn(logger, "error").mockImplementation(() => undefined);
  vi.spyOn(logger, "info").mockImplementation(() => undefined);

  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("X-Request-Id", "req-123");
      next();
    });
    app.get("/broken", () => {
      throw new Error(`render failed in ${import.meta.dirname}`);
    });
    app.get("/too-large", (_req, _res, next) => next(Object.assign(new Error("body over the limit"), { status: 413 })));
    app.get("/half-sent", (_req, res, next) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("partial");
      next(new Error("failed mid-answer"));
    });
    app.use(finalErrorHandler({ stylesheets: () => ["/build/_assets/app.css"] }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it("answers a failure with the unexpected-error page and its request id, never the error or a stack", async () => {
    errors.mockClear();
    const response = await fetch(`${url}/broken`);
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(response.headers.get("Content-Language")).toBe("en");
    expect(html).toContain("<h1>errors.unexpected.title</h1>");
    expect(html).toContain("errors.reference:req-123");
    expect(html).toContain('<link rel="stylesheet" href="/build/_assets/app.css">');
    expect(html).not.toContain("render failed");
    expect(html).not.toContain(import.meta.dirname);
    expect(html).not.toMatch(/\bat .+:\d+:\d+/);
    // Logged once, with the request's id and the error (its stack stays in the log).
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toMatchObject({ requestId: "req-123", err: expect.any(Error) });
  });

  it("keeps the status an error asks for and logs a refusal as no error", async () => {
    errors.mockClear();
    const response = await fetch(`${url}/too-large`);
    expect(response.status).toBe(413);
    // A body too large has its own words since ADR 056 (before, the bad-request page's).
    expect(await response.text()).toContain("errors.tooLarge.title");
    const json = await fetch(`${url}/too-large`, { headers: { Accept: "application/json" } });
    expect(await json.json()).toEqual({ error: "tooLarge", message: "errors.tooLarge.title. errors.tooLarge.text" });
    expect(errors).not.toHaveBeenCalled();
  });

  it("cuts off an answer already under way instead of appending a page to it", async () => {
    errors.mockClear();
    const outcome = await fetch(`${url}/half-sent`)
      .then((response) => response.text())
      .then(
        () => "whole answer",
        () => "cut off",
      );
    expect(outcome).toBe("cut off");
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
