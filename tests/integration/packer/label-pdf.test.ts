import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { FileInfo } from "~db/schema";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn } from "../../support/builders";
import { addPatient } from "./fixtures";
import { SECRETS, startApp, type TestApp } from "../../support/app";
import { bagCode, groupedBagCode } from "~/modules/packer/bag-code";

type Browser = ReturnType<typeof browserFetch>;
const MM = 72 / 25.4;

/** Each page's size (from its MediaBox, in points) and its text, read back by PDF.js. */
async function readPdf(bytes: ArrayBuffer): Promise<Array<{ size: [number, number]; text: string }>> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const text = content.items.map((item) => ("str" in item ? item.str : "")).join(" ").replace(/\s+/g, " ").trim();
    pages.push({ size: [x1 - x0, y1 - y0] as [number, number], text });
  }
  await pdf.destroy();
  return pages;
}

const file = (orderId: string, name: string, declared: Partial<FileInfo> = {}): FileInfo => ({ originalName: name, storagePath: `order_${orderId}/x/${name}`, url: `/files/orders/order_${orderId}/x/${name}`, type: "model/stl", size: 1000, ...declared });

/** Labels as PDF made on the server (ADR 103): exact page sizes, the declared jaws and stages in their text, the workstation's choice remembered. */
describe("the packer's labels as PDF", () => {
  let t: TestDatabase;
  let app: TestApp;
  let packer: Browser;
  let order: Awaited<ReturnType<typeof buildOrderIn>>;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    packer = browserFetch(app);
    expect((await packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } })).status).toBe(302);
    order = await buildOrderIn(t.db, "paid", { fullName: "Клиника «Ровные зубы»", address: "Москва, ул. Арбат, 1" });
    // Declared jaws and steps that the names contradict or lack: the labels print what was declared (ADR 058).
    await addPatient(t.db, order, "Петров Пётр", 1, {
      matrix: [],
      aligners: [file(order.id, "scan_a.stl", { jaw: "lower", stepNumber: 7, confirmed: true }), file(order.id, "Шаг 01 низ.stl", { jaw: "upper", stepNumber: 12, confirmed: true })],
      retainer: [file(order.id, "retainer.stl", { jaw: "upper", stepNumber: null, confirmed: true })],
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("makes one 80 × 80 mm page per bag, naming its kind, order, patient, declared jaw and stage and its bag code", async () => {
    const response = await packer.request(`/packer/pdf/bags/${order.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const pages = await readPdf(await response.arrayBuffer());
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(page.size[0]).toBeCloseTo(80 * MM, 1);
      expect(page.size[1]).toBeCloseTo(80 * MM, 1);
    }
    const number = order.id.slice(0, 4).toUpperCase();
    const code = (jaw: "upper" | "lower", step: number | null, kind: "aligners" | "retainer" = "aligners") => groupedBagCode(bagCode(order.id, { patient: 1, kind, jaw, step }));
    expect(pages[0]!.text).toBe(`Элайнеры ${number} Петров Пётр ${code("lower", 7)} НЧ Шаг 07 ${order.code}/${order.code}_1 scan_a.stl`);
    expect(pages[1]!.text).toBe(`Элайнеры ${number} Петров Пётр ${code("upper", 12)} ВЧ Шаг 12 ${order.code}/${order.code}_1 Шаг 01 низ.stl`);
    expect(pages[2]!.text).toBe(`Ретейнеры ${number} Петров Пётр ${code("upper", null, "retainer")} ВЧ ${order.code}/${order.code}_1 retainer.stl`);
  });

  it("makes the box label on A4 with the client, address and every bag's declared jaw and stage", async () => {
    const response = await packer.request(`/packer/pdf/box/${order.id}`);
    expect(response.status).toBe(200);
    const pages = await readPdf(await response.arrayBuffer());
    expect(pages).toHaveLength(1);
    expect(pages[0]!.size[0]).toBeCloseTo(595.28, 1);
    expect(pages[0]!.size[1]).toBeCloseTo(841.89, 1);
    const text = pages[0]!.text;
    expect(text).toContain(order.id.slice(0, 4).toUpperCase());
    expect(text).toContain("Клиника «Ровные зубы»");
    expect(text).toContain("Москва, ул. Арбат, 1");
    expect(text).toContain("Этикеток: 3");
    expect(text).toContain("Элайнеры · НЧ, Шаг 07");
    expect(text).toContain("Элайнеры · ВЧ, Шаг 12");
    expect(text).toContain("Ретейнеры · ВЧ ·");
  });

  it("opens the PDFs from the list once this workstation chose them, and remembers it", async () => {
    const before = await (await packer.request("/packer")).text();
    expect(before).toContain(`href="/packer/bags/${order.id}"`);
    const chosen = await packer.request("/packer/labels", { form: { format: "pdf", back: "" } });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("Set-Cookie")).toMatch(/^packer_labels=[^;]+; Max-Age=31536000; Path=\/packer; HttpOnly; SameSite=Lax/);
    const after = await (await packer.request("/packer")).text();
    expect(after).toContain(`href="/packer/pdf/bags/${order.id}" target="label-print"`);
    expect(after).toContain(`href="/packer/pdf/box/${order.id}" target="label-print"`);
    expect(after).toMatch(/<option value="pdf" selected="">/);
    expect(await (await packer.request(`/packer/order/${order.id}`)).text()).toContain(`href="/packer/pdf/bags/${order.id}"`);
    // Back to HTML; a format we do not make is refused.
    expect((await packer.request("/packer/labels", { form: { format: "html", back: "" } })).status).toBe(302);
    expect(await (await packer.request("/packer")).text()).toContain(`href="/packer/bags/${order.id}"`);
    expect((await packer.request("/packer/labels", { form: { format: "docx", back: "" } })).status).toBe(400);
  });

  it("answers 404 for an order without bags, a draft or an unknown order, and sends the gate's visitor to it", async () => {
    const empty = await buildOrderIn(t.db, "paid", { fullName: "Без пациентов" });
    const none = await packer.request(`/packer/pdf/bags/${empty.id}`);
    expect(none.status).toBe(404);
    expect(await none.text()).toBe("Нет пациентов");
    expect((await packer.request(`/packer/pdf/box/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await packer.request("/packer/pdf/bags/not-an-id")).status).toBe(404);
    const stranger = await browserFetch(app).request(`/packer/pdf/box/${order.id}`);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toBe(`/packer?redirectTo=${encodeURIComponent(`/packer/pdf/box/${order.id}`)}`);
  });
});
