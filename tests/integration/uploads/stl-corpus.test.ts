import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { latestOutboxMail } from "../../support/mail-text";
import { tusUpload } from "../../support/tus-client";
import { SECRETS, startApp, type TestApp } from "../../support/app";

/**
 * Every file of the corpus written by other software (tests/fixtures/stl) through each way a file
 * enters an order — the plain form, the resumable upload, and both on the device a doctor reaches
 * through the "files on another device" link — compared with manifest.json: the same verdict,
 * triangle count and size, the warnings the doctor must see, the refusal's reason, and the stored
 * file byte for byte what was sent.
 */

const dir = path.resolve(import.meta.dirname, "../../fixtures/stl");
type Box = { min: number[]; max: number[] };
interface Expected {
  verdict: "accept" | "refuse";
  triangles?: number;
  bbox?: Box | null;
  warnings?: string[];
}
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as { files: Record<string, { expected: Expected }> };
const corpus = Object.entries(manifest.files).map(([name, { expected }]) => ({ name, expected, bytes: fs.readFileSync(path.join(dir, name)) }));
/** The files whose reading is not plain (the readers disagreed, or a warning is due): the other device gets these. */
const odd = corpus.filter(({ name }) => name.startsWith("derived_") || name.startsWith("admesh_") || /multiWordName|incorrectFaceCounter|empty/.test(name));

type Browser = ReturnType<typeof browserFetch>;
type FileInfo = { originalName: string; storagePath: string; size: number; triangles: number; scan: { format: string; size: { x: number; y: number; z: number } | null; warnings: string[] } };

/** What a refused file's reason is, as the upload reports it. */
function refusalOf(name: string, bytes: Buffer): string {
  if (bytes.length === 0) return "empty";
  return /cut-short|incorrectFaceCounter/.test(name) ? "truncated" : "not_stl";
}

const sizeOf = (box: Box) => ({ x: box.max[0]! - box.min[0]!, y: box.max[1]! - box.min[1]!, z: box.max[2]! - box.min[2]! });

describe("the STL corpus through every way into an order", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function toMatrixStep(browser: Browser) {
    const email = `corpus-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
    await browser.request("/order", { form: { intent: "next" } });
    await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-02" } });
    await browser.request("/order", { form: { intent: "next", full_name: "Петрова Ольга", address: "Москва, ул. Мира, 2", consent: "on" } });
    await browser.request("/order", { form: { intent: "add_patient", patient_name: "Орлов И." } });
    await browser.request("/order", { form: { intent: "next" } });
    const order = await t.db.selectFrom("orders").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    const patient = await t.db.selectFrom("orders_patients").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    return { order, patient };
  }

  const matrixFiles = async (patientId: string) =>
    ((await t.db.selectFrom("orders_patients").select("matrix_files_info").where("id", "=", patientId).executeTakeFirstOrThrow()).matrix_files_info as unknown as FileInfo[] | null) ?? [];

  async function plainUpload(browser: Browser, files: Array<{ name: string; bytes: Buffer }>) {
    const form = new FormData();
    for (const file of files) form.append("files", new Blob([new Uint8Array(file.bytes)]), file.name);
    form.append("intent", "upload");
    const response = await fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
    browser.jar.store(response);
    expect(response.status).toBe(302);
    return (await browser.request(response.headers.get("Location")!)).text();
  }

  /** The recorded file of `name` matches the manifest and the stored bytes are the sent ones. */
  function expectRecorded(recorded: FileInfo | undefined, file: (typeof corpus)[number]) {
    expect(recorded, file.name).toBeDefined();
    expect([file.name, recorded!.triangles, recorded!.size]).toEqual([file.name, file.expected.triangles, file.bytes.length]);
    const size = sizeOf(file.expected.bbox!);
    for (const axis of ["x", "y", "z"] as const) expect(Math.abs(recorded!.scan.size![axis] - size[axis]), `${file.name} ${axis}`).toBeLessThanOrEqual(0.05 + 1e-9);
    for (const warning of file.expected.warnings ?? []) expect(recorded!.scan.warnings).toContain(warning);
    expect(fs.readFileSync(path.join(app.dataDir, "storage", "orders", recorded!.storagePath)).equals(file.bytes), `${file.name} stored as sent`).toBe(true);
  }

  it("the plain form accepts what the manifest accepts, as the manifest reads it, and says why it refuses the rest", { timeout: 120_000 }, async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(browser);
    const page = await plainUpload(browser, corpus);
    const recorded = await matrixFiles(patient.id);
    for (const file of corpus) {
      const entry = recorded.find((info) => info.originalName === file.name);
      if (file.expected.verdict === "accept") {
        expectRecorded(entry, file);
        continue;
      }
      expect(entry, file.name).toBeUndefined();
      const cause = { empty: "файл пустой", truncated: "файл обрезан", not_stl: "содержимое файла не является STL-моделью" }[refusalOf(file.name, file.bytes)];
      expect(page).toMatch(new RegExp(`${file.name.replace(/\./g, "\\.")}[^<]*${cause}`));
    }
    expect(recorded).toHaveLength(corpus.filter((file) => file.expected.verdict === "accept").length);
    // The doctor reads what the extra bytes mean for the order, in plain words, without the counts (ADR 061)…
    expect(page).toContain("<li>Файл прочитан, в конце лишние данные — он сохранён как есть. Ничего делать не нужно.</li>");
    expect(page).not.toContain("лишние байты");
    // …and staff read the counts on the order's files page.
    const countShort = corpus.find((file) => file.name === "derived_gearwheel.count-short.bin.stl")!;
    const extra = String(countShort.bytes.length - 84 - 50 * countShort.expected.triangles!).replace(/\B(?=(\d{3})+$)/g, "[\\s\u00a0\u202f]?");
    const staff = browserFetch(app);
    await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } });
    const filesPage = await (await staff.request(`/backoffice/orders/${order.id}/files`)).text();
    expect(filesPage).toMatch(new RegExp(`После последнего треугольника в файле есть лишние байты \\(${extra}\\); модель прочитана по заголовку файла: треугольников — 2[\\s\u00a0\u202f]?400`));
  });

  it("the resumable upload gives the same verdict for every file", { timeout: 180_000 }, async () => {
    const browser = browserFetch(app);
    const { order, patient } = await toMatrixStep(browser);
    for (const file of corpus) {
      if (file.bytes.length === 0) continue; // a resumable upload of nothing is refused before it starts (tus.test.ts)
      const result = await tusUpload({ base: app.url, cookie: browser.jar.header(), origin: app.url, file: file.bytes, metadata: { filename: file.name, orderId: order.id, patientId: patient.id, type: "matrix" } as never, retryDelays: null });
      if (file.expected.verdict === "accept") {
        expect([file.name, result.ok, result.body?.file?.triangles]).toEqual([file.name, true, file.expected.triangles]);
      } else {
        // The refusal keeps its machine code and says it in the reader's language (ADR 024).
        expect([file.name, result.status, result.body]).toEqual([file.name, 422, { ok: false, error: refusalOf(file.name, file.bytes), message: expect.any(String) }]);
      }
    }
    const recorded = await matrixFiles(patient.id);
    for (const file of corpus.filter((entry) => entry.expected.verdict === "accept")) expectRecorded(recorded.find((info) => info.originalName === file.name), file);
    expect(recorded).toHaveLength(corpus.filter((file) => file.expected.verdict === "accept").length);
  });

  it("on the other device, reached by the sign-in link, both ways give the same verdicts", { timeout: 120_000 }, async () => {
    const here = browserFetch(app);
    const { order, patient } = await toMatrixStep(here);
    expect((await here.request("/uploads/continue", { form: { orderId: order.id } })).status).toBe(302);
    const mail = latestOutboxMail(path.join(app.dataDir, "outbox"), order.email!);
    const token = new URL(mail!.link).searchParams.get("token")!;
    const there = browserFetch(app);
    expect((await there.request("/auth/verify", { form: { token } })).status).toBe(302);
    expect((await there.request(`/order?id=${order.id}`)).status).toBe(200);

    await plainUpload(there, odd.map((file) => ({ name: `form-${file.name}`, bytes: file.bytes })));
    for (const file of odd.filter((entry) => entry.bytes.length > 0)) {
      await tusUpload({ base: app.url, cookie: there.jar.header(), origin: app.url, file: file.bytes, metadata: { filename: `tus-${file.name}`, orderId: order.id, patientId: patient.id, type: "matrix" } as never, retryDelays: null });
    }
    const recorded = await matrixFiles(patient.id);
    for (const file of odd) {
      for (const way of ["form", "tus"]) {
        const entry = recorded.find((info) => info.originalName === `${way}-${file.name}`);
        if (file.expected.verdict === "accept") expectRecorded(entry, file);
        else expect(entry, `${way}-${file.name}`).toBeUndefined();
      }
    }
  });
});
