import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { buildPatient } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { browserIn, cyrillicSamples, MARKET_HOSTS, marketBrowser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/**
 * Every error answer a person can see is in their language (issue 19, item 2; ADR 024): the
 * resource routes' 4xx answers — resumable uploads, file downloads, logos, texts, upload status and
 * finishing, cron and webhooks — walked in each of the six languages. Each answer is the locale's own
 * sentence for its case (text, or JSON `message`), equal to no other language's sentence; a
 * non-Russian answer has no Cyrillic, a Russian one no English words beyond header names.
 */

type Tree = { [key: string]: string | Tree };
const common = (language: string): Tree => JSON.parse(fs.readFileSync(path.resolve(`locales/${language}/common.json`), "utf8"));
const uploads = (language: string): Tree => JSON.parse(fs.readFileSync(path.resolve(`locales/${language}/uploads.json`), "utf8"));
const lookup = (tree: Tree, key: string): string => {
  const value = key.split(".").reduce<string | Tree | undefined>((node, part) => (typeof node === "object" ? node[part] : undefined), tree);
  if (typeof value !== "string") throw new Error(`no text ${key}`);
  return value;
};
/** The sentence a language has for a key: `answers.*` in common.json, `uploads.*` in uploads.json. */
const sentence = (language: string, key: string) => (key.startsWith("uploads.") ? lookup(uploads(language), key) : lookup(common(language), key));

/** Header names and product words that stay as they are in every language. */
const UNTRANSLATED = /Upload-Offset|Upload-Length|Upload-Metadata|Content-Type|STL|FTP/g;

interface Case {
  name: string;
  send: (browser: Browser, fixture: Fixture) => Promise<Response>;
  status: number;
  /** The locale key of the sentence the answer must carry. */
  key: string;
  kind: "text" | "json";
}
type Browser = Awaited<ReturnType<typeof browserIn>>;
interface Fixture {
  orderId: string;
  uploadUrl: string;
}

const TUS = { "Tus-Resumable": "1.0.0" };
const b64 = (value: string) => Buffer.from(value).toString("base64");

const CASES: Case[] = [
  { name: "tus: GET", send: (b) => b.request("/uploads/tus"), status: 405, key: "answers.methodNotAllowed", kind: "text" },
  {
    name: "tus: PATCH without Upload-Offset",
    send: (b, f) => b.request(f.uploadUrl, { method: "PATCH", headers: { ...TUS, "Content-Type": "application/offset+octet-stream" } }),
    status: 403, // @tus/server's status for a missing offset
    key: "answers.upload.offsetRequired",
    kind: "text",
  },
  {
    name: "tus: PATCH at the wrong offset",
    send: (b, f) => b.request(f.uploadUrl, { method: "PATCH", headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "7" } }),
    status: 409,
    key: "answers.upload.offsetConflict",
    kind: "text",
  },
  {
    name: "tus: PATCH to an upload of someone else's order",
    send: (b) => b.request(`/uploads/tus/tus-${randomUUID()}-${"0".repeat(32)}`, { method: "PATCH", headers: { ...TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" } }),
    status: 404,
    key: "uploads.causes.gone",
    kind: "json",
  },
  { name: "file download: unknown model", send: (b) => b.request(`/files/orders/order_${randomUUID()}/p/aligners/x.stl`), status: 404, key: "answers.notFound", kind: "text" },
  { name: "logo without the packer password", send: (b) => b.request("/packer/logos/someone"), status: 403, key: "answers.forbidden", kind: "text" },
  { name: "texts of an unknown key", send: (b) => b.request("/texts/xx.customer.000000000000"), status: 404, key: "answers.notFound", kind: "text" },
  { name: "upload status of an unknown order", send: (b) => b.request(`/uploads/status?order=${randomUUID()}`), status: 404, key: "answers.notFound", kind: "json" },
  { name: "upload finishing without an upload", send: (b) => b.request("/uploads/finish", { form: { id: "" } }), status: 400, key: "uploads.causes.gone", kind: "json" },
  { name: "upload finishing of someone else's upload", send: (b) => b.request("/uploads/finish", { form: { id: `tus-${randomUUID()}-${"0".repeat(32)}`, uploadKey: "abcdefgh" } }), status: 404, key: "answers.notFound", kind: "text" },
  { name: "another device: unknown order", send: (b) => b.request("/uploads/continue", { form: { orderId: randomUUID(), email: "a@b.test" } }), status: 404, key: "answers.notFound", kind: "text" },
  { name: "cron: GET", send: (b) => b.request("/api/cron"), status: 405, key: "answers.methodNotAllowed", kind: "json" },
  { name: "cron: no secret", send: (b) => b.request("/api/cron", { method: "POST" }), status: 401, key: "answers.unauthorized", kind: "json" },
  { name: "webhook: GET", send: (b) => b.request("/api/webhooks/stripe"), status: 405, key: "answers.methodNotAllowed", kind: "json" },
  { name: "webhook: unsigned body", send: (b) => b.request("/api/webhooks/sandbox", { method: "POST", headers: { "Content-Type": "application/json" } }), status: 400, key: "answers.badRequest", kind: "json" },
];

describe("error answers in the reader's language", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A browser in that language with its own draft, a patient and a started resumable upload. */
  async function fixtureFor(browser: Browser): Promise<Fixture> {
    expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
    const order = await t.db.selectFrom("orders").select("id").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    const patient = await buildPatient(t.db, order.id, "Test P.");
    const metadata = [`filename ${b64("jaw.stl")}`, `orderId ${b64(order.id)}`, `patientId ${b64(patient.id)}`, `type ${b64("aligners")}`, `uploadKey ${b64(randomUUID())}`].join(",");
    const created = await browser.request("/uploads/tus", { method: "POST", headers: { ...TUS, "Upload-Length": "684", "Upload-Metadata": metadata } });
    expect(created.status, await created.clone().text()).toBe(201);
    return { orderId: order.id, uploadUrl: new URL(created.headers.get("Location")!, app.url).pathname };
  }

  it.each(LANGUAGES)("in %s, every case answers with that language's sentence", async (language) => {
    const browser = await browserIn(app, "domestic", language);
    const fixture = await fixtureFor(browser);
    for (const test of CASES) {
      const response = await test.send(browser, fixture);
      const label = `${language} ${test.name}`;
      const raw = await response.text();
      expect(response.status, `${label}: ${raw}`).toBe(test.status);
      const text = test.kind === "json" ? (JSON.parse(raw) as { message?: string }).message ?? "" : raw.trim();
      expect(text, label).toBe(sentence(language, test.key));
      for (const other of LANGUAGES) if (other !== language) expect(text, `${label}: also ${other}'s text`).not.toBe(sentence(other, test.key));
      if (language === "ru") expect(text.replace(UNTRANSLATED, ""), label).not.toMatch(/[A-Za-z]{3,}/);
      else expect(cyrillicSamples(text), label).toEqual([]);
    }
  });

  it("speaks the market's language to a reader who chose none (English on the international market)", async () => {
    const response = await marketBrowser(app, "international").request(`/files/orders/order_${randomUUID()}/p/aligners/x.stl`);
    expect(response.status).toBe(404);
    expect((await response.text()).trim()).toBe(sentence("en", "answers.notFound"));
    expect(response.headers.get("Content-Language")).toBe("en");
    const domestic = await marketBrowser(app, "domestic").request(`/files/orders/order_${randomUUID()}/p/aligners/x.stl`);
    expect((await domestic.text()).trim()).toBe(sentence("ru", "answers.notFound"));
  });
});
