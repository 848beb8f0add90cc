import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { press, walkToPatientStep } from "./journeys";
import { binaryStl, scanLikeStl } from "../support/stl-models";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { fixtureFile } from "./support";

/**
 * Honest upload progress that moves (ADR 054, "How progress is counted"; ADR 096): on a slow link
 * every state the upload list shows is read as it changes — its percentage, its megabytes, its time
 * left — beside the offsets the server acknowledged in its answers to the tus HEAD and PATCH
 * requests. At every update the percentage is at least what the server holds and at most the end of
 * the chunk in flight (the next offset it acknowledged), the megabytes say the same, and a time left,
 * when told, is close to the time the upload took; on a 1.5 Mbit/s line (Chromium's own throttling)
 * it changes at least every 3 s and stays within 2 points of the bytes that went over the link.
 * Once a shown "Передача · 35 %" stood beside "6,72 МБ из 9,54 МБ" and "осталось ~2 с" with 35 s
 * left; then, counting only acknowledgements of 5 MiB chunks, a scan stood at 0 % for 10–18 s.
 * Without JavaScript the step is the plain form and shows no progress (wizard.spec.ts).
 */

const MiB = 1024 * 1024;
const appPort = Number(process.env.E2E_PORT ?? (process.env.E2E_TARGET === "embedded" ? 3220 : 3210));
const LABELS = { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true };

/** One state of the file's line in the upload list, as the page showed it. */
interface Shown {
  at: number;
  stage: string;
  percent: number;
  bar: number;
  sent: number;
  total: number;
  wire: number | null;
  left: number | null;
  acknowledged: number;
  /** The bytes the test proxy had carried to the server when the line was seen. */
  upstream: number;
}

/** "6,72 МБ" → bytes (the page's sizes are binary units with two decimals). */
function bytesOf(text: string): number {
  const match = /([\d\s\u00a0,.]+)\s*(Байт|КБ|МБ|ГБ)/.exec(text);
  if (!match) throw new Error(`no size in "${text}"`);
  const value = Number(match[1]!.replace(/[\s\u00a0]/g, "").replace(",", "."));
  return value * 1024 ** ["Байт", "КБ", "МБ", "ГБ"].indexOf(match[2]!);
}

/**
 * Records every state of the upload list's line for `name` (a MutationObserver in the page), and
 * every offset the server acknowledged (its answers' `Upload-Offset`), each with the time it was seen.
 */
async function watchProgress(page: Page, name: string, upstream: () => number = () => 0) {
  const acknowledged: Array<{ at: number; offset: number }> = [];
  page.on("response", (response) => {
    const method = response.request().method();
    const offset = response.headers()["upload-offset"];
    if (response.url().includes("/uploads/tus/") && (method === "PATCH" || method === "HEAD") && response.status() < 300 && offset) acknowledged.push({ at: Date.now(), offset: Number(offset) });
  });
  const raw: Array<{ at: number; upstream: number; status: string; bytes: string; bar: string; acknowledged: string }> = [];
  await page.exposeFunction("recordUploadLine", (line: (typeof raw)[number]) => void raw.push({ ...line, at: Date.now(), upstream: upstream() }));
  // Installed again after a document load (the exposed function stays).
  const observe = () => page.evaluate((file) => {
    let last = "";
    const read = () => {
      const item = [...document.querySelectorAll(".upload-progress .upload-item")].find((candidate) => candidate.querySelector(".file-name")?.textContent === file);
      if (!item) return;
      const lines = item.querySelectorAll(".upload-line");
      const line = {
        status: lines[0]?.querySelector(".small")?.textContent ?? "",
        bytes: lines[1]?.querySelector("span")?.textContent ?? "",
        bar: item.querySelector("[role=progressbar]")?.getAttribute("aria-valuenow") ?? "",
        acknowledged: item.getAttribute("data-acknowledged") ?? "",
      };
      const key = JSON.stringify(line);
      if (key !== last) {
        last = key;
        (window as unknown as { recordUploadLine(value: typeof line): void }).recordUploadLine(line);
      }
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  }, name);
  await observe();
  return {
    acknowledged,
    observe,
    shown(): Shown[] {
      return raw.map((line) => {
        const status = /^(.+) · (\d+) %$/.exec(line.status.trim());
        if (!status) throw new Error(`no stage and percentage in "${line.status}"`);
        const [sizes, ...rest] = line.bytes.split(" · ");
        const [sent, total] = sizes!.split(" из ");
        const wire = rest.find((part) => part.startsWith("по сети передано"));
        const left = rest.find((part) => part.startsWith("осталось"));
        const seconds = left ? /~(\d+) (с|мин)/.exec(left) : null;
        return {
          at: line.at,
          stage: status[1]!,
          percent: Number(status[2]),
          bar: Number(line.bar),
          sent: bytesOf(sent!),
          total: bytesOf(total!),
          wire: wire ? bytesOf(wire) : null,
          left: seconds ? Number(seconds[1]) * (seconds[2] === "мин" ? 60 : 1) : null,
          acknowledged: Number(line.acknowledged),
          upstream: line.upstream,
        };
      });
    },
  };
}

/** Half a hundredth of the unit the page rounds to: the megabytes are rounded, the percentage is floored. */
const ROUNDING = 0.005 * MiB;

/** The offset the server acknowledged next after `held`: the end of the chunk that was in flight. */
const nextOffset = (offsets: number[], held: number, end: number) => Math.min(end, ...offsets.filter((offset) => offset > held));

test.describe("the upload list tells what the server holds", () => {
  const link = { proxy: null as unknown as TcpProxy, origin: "" };
  test.beforeEach(async ({ javaScriptEnabled, page }) => {
    test.skip(!javaScriptEnabled, "the progress list needs JavaScript; without it the step is the plain form (wizard.spec.ts)");
    link.proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: appPort } });
    link.origin = `http://127.0.0.1:${link.proxy.port}`;
    // Gzip members, not packing (ADR 045): a browser without Web Workers.
    await page.addInitScript(() => Reflect.deleteProperty(globalThis, "Worker"));
    await walkToPatientStep(page, LABELS, `progress-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`, `${link.origin}/order`);
    await page.getByLabel("Имя пациента").fill("Смирнова Е.");
    await press(page, "Далее →", 5);
  });
  test.afterEach(async () => {
    await link.proxy?.stop();
  });

  test("a file sent as it is: at every update the percentage lies between the server's offset and the end of the chunk in flight, the megabytes the same, and the time left close to the truth", async ({ page }) => {
    test.setTimeout(120_000);
    // A browser without CompressionStream sends the file as it is: the offsets are the file's bytes.
    await page.evaluate(() => Reflect.deleteProperty(globalThis, "CompressionStream"));
    const file = fixtureFile("progress-16mib.stl", (path) => fs.writeFileSync(path, binaryStl(Math.floor((16 * MiB - 84) / 50))));
    const size = fs.statSync(file).size;
    const watch = await watchProgress(page, "progress-16mib.stl");
    // 1.5 MB/s: chunks of about 2 s of the link (up to 3 MB) acknowledged as they end, about 11 s in all.
    link.proxy.setLimits({ bytesPerSecond: 1_500_000, latencyMs: 40 });
    await page.setInputFiles("#field-files", file);
    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });

    const offsets = watch.acknowledged.map((ack) => ack.offset);
    const end = watch.acknowledged.find((ack) => ack.offset === size)?.at;
    expect(end, "the server acknowledged the whole file").toBeDefined();
    expect(offsets.filter((offset) => offset > 0 && offset < size).length).toBeGreaterThanOrEqual(3);
    const shown = watch.shown();
    for (const line of shown) {
      const where = JSON.stringify(line);
      expect(line.total, where).toBeCloseTo(size, -4);
      // What the line stands on is an offset the server acknowledged (or nothing yet).
      expect([0, ...offsets], where).toContain(line.acknowledged);
      const held = line.stage === "Готово" ? size : line.acknowledged;
      // The percentage is at least what the server holds and at most the end of the chunk in flight,
      // never 100 before the server recorded the file; the bar is the same, and the megabytes too.
      expect(line.percent, where).toBeGreaterThanOrEqual(Math.floor((held * 100) / size) - 1);
      expect(line.percent, where).toBeLessThanOrEqual((nextOffset(offsets, held, size) * 100) / size + 1);
      if (line.stage === "Передача") expect(line.percent, where).toBeLessThan(100);
      expect(line.bar, where).toBe(line.percent);
      expect(line.sent, where).toBeGreaterThanOrEqual(held - ROUNDING);
      expect(line.sent, where).toBeLessThanOrEqual(nextOffset(offsets, held, size) + ROUNDING);
      expect(Math.abs(line.percent - (line.sent * 100) / line.total), where).toBeLessThanOrEqual(1 + (ROUNDING * 100) / size);
      expect(line.wire, where).toBeNull();
      // A time left, when told, is close to the time the upload still took.
      if (line.left !== null) {
        const truth = (end! - line.at) / 1000;
        expect(Math.abs(line.left - truth), where).toBeLessThanOrEqual(Math.max(3, truth * 0.35));
      }
    }
    // Every offset the server acknowledged on the way was shown as it came.
    for (const offset of offsets.filter((value) => value < size)) expect(shown.map((line) => line.acknowledged)).toContain(offset);
    expect(shown.map((line) => line.percent)).toEqual([...shown.map((line) => line.percent)].sort((a, b) => a - b));
    expect(new Set(shown.map((line) => line.percent)).size).toBeGreaterThanOrEqual(4);
    expect(shown.at(-1)).toMatchObject({ stage: "Готово", percent: 100 });
    // Told at least once on this steady link, after acknowledgements agreed.
    expect(shown.some((line) => line.left !== null)).toBe(true);
  });

  test("on a 1.5 Mbit/s line with 150 ms of latency the percentage moves at least every 3 s, within 2 points of the bytes on the link, and the file is done only when the server says so", async ({ page }) => {
    test.setTimeout(120_000);
    // The file as it is: its bytes are the link's bytes (less each request's own few hundred).
    await page.evaluate(() => Reflect.deleteProperty(globalThis, "CompressionStream"));
    const file = fixtureFile("progress-3mb.stl", (path) => fs.writeFileSync(path, binaryStl(Math.floor((3_000_000 - 84) / 50))));
    const size = fs.statSync(file).size;
    // The link is Chromium's own throttling (as DevTools offers it); the proxy only counts what went through.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 1_500_000 / 8, uploadThroughput: 1_500_000 / 8 });
    const watch = await watchProgress(page, "progress-3mb.stl", () => link.proxy.stats().upstreamBytes);
    const before = link.proxy.stats().upstreamBytes;
    await page.setInputFiles("#field-files", file);
    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });

    const offsets = watch.acknowledged.map((ack) => ack.offset);
    const end = watch.acknowledged.find((ack) => ack.offset === size)!.at;
    const shown = watch.shown();
    const sending = shown.filter((line) => line.stage === "Передача");
    // Every request the upload made on the way (creation, chunks) added its own head: a few hundred bytes each.
    const overhead = (offsets.length + 2) * 1_000;
    for (const line of sending) {
      const where = JSON.stringify({ ...line, linkBytes: line.upstream - before });
      // Within 2 points of what the link carried (the file's bytes; the requests' heads at most above them).
      const carried = line.upstream - before;
      expect(line.percent, where).toBeGreaterThanOrEqual(((carried - overhead) * 100) / size - 2);
      expect(line.percent, where).toBeLessThanOrEqual((carried * 100) / size + 2);
      expect(line.percent, where).toBeLessThan(100);
    }
    // The percentage changed at least every 3 s while the file went up.
    const changes = sending.filter((line, index) => index === 0 || line.percent !== sending[index - 1]!.percent).map((line) => line.at);
    expect(changes.length).toBeGreaterThanOrEqual(8);
    for (let index = 1; index < changes.length; index++) expect(changes[index]! - changes[index - 1]!, `${index}: ${changes.join(", ")}`).toBeLessThanOrEqual(3_000);
    expect(end - changes.at(-1)!).toBeLessThanOrEqual(3_000);
    // Smaller chunks than S3's 5 MiB part: several acknowledgements on the way.
    expect(offsets.filter((offset) => offset > 0 && offset < size).length).toBeGreaterThanOrEqual(4);
    // "Готово" only after the server acknowledged the whole file.
    const done = shown.find((line) => line.stage === "Готово")!;
    expect(done.at).toBeGreaterThanOrEqual(end - 100);
    expect(shown.at(-1)).toMatchObject({ stage: "Готово", percent: 100 });
  });

  test("a compressed file: the percentage is the file's bytes the acknowledged offset stands for, the megabytes and the bytes on the wire the same", async ({ page }) => {
    test.setTimeout(120_000);
    // 12.6 MB shaped like a scan's export: about half of it goes over the link.
    const file = fixtureFile("progress-scan-12mb.stl", (path) => fs.writeFileSync(path, scanLikeStl(360, 350, 21)));
    const size = fs.statSync(file).size;
    const watch = await watchProgress(page, "progress-scan-12mb.stl");
    link.proxy.setLimits({ bytesPerSecond: 600_000, latencyMs: 40 });
    await page.setInputFiles("#field-files", file);
    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });

    const offsets = watch.acknowledged.map((ack) => ack.offset);
    const wireTotal = Math.max(...offsets);
    expect(wireTotal).toBeLessThan(size * 0.8);
    const shown = watch.shown();
    const sending = shown.filter((line) => line.stage === "Передача");
    expect(sending.some((line) => line.percent > 0)).toBe(true);
    for (const line of shown) {
      const where = JSON.stringify(line);
      expect([0, ...offsets], where).toContain(line.acknowledged);
      expect(Math.abs(line.percent - (line.sent * 100) / size), where).toBeLessThanOrEqual(1 + (ROUNDING * 100) / size);
      expect(line.bar, where).toBe(line.percent);
      if (line.stage === "Готово") continue;
      // The file's share shown is about its share of the stream (members compress alike), between
      // what the server holds and the end of the chunk in flight…
      const next = nextOffset(offsets, line.acknowledged, wireTotal);
      expect(line.percent, where).toBeGreaterThanOrEqual((line.acknowledged * 100) / wireTotal - 15);
      expect(line.percent, where).toBeLessThanOrEqual((next * 100) / wireTotal + 15);
      if (line.stage === "Передача") expect(line.percent, where).toBeLessThan(100);
      // …and so are the bytes on the wire shown.
      if (line.wire !== null) {
        expect(line.wire, where).toBeGreaterThanOrEqual(line.acknowledged - ROUNDING);
        expect(line.wire, where).toBeLessThanOrEqual(next + ROUNDING);
      }
    }
    expect(shown.at(-1)).toMatchObject({ stage: "Готово", percent: 100 });
  });

  test("a compressed upload found again after a reload starts from the share of the file the server holds, not from nothing", async ({ page }) => {
    test.setTimeout(150_000);
    // 25 MB shaped like a scan: about 11 MiB on the wire, three chunks.
    const file = fixtureFile("progress-scan-25mb.stl", (path) => fs.writeFileSync(path, scanLikeStl(510, 500, 22)));
    const size = fs.statSync(file).size;
    const watch = await watchProgress(page, "progress-scan-25mb.stl");
    link.proxy.setLimits({ bytesPerSecond: 1_500_000, latencyMs: 40 });
    await page.setInputFiles("#field-files", file);
    await expect.poll(() => watch.acknowledged.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const before = watch.shown().filter((line) => line.acknowledged > 0);
    expect(before.length).toBeGreaterThan(0);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.reload();
    const reloadedAt = Date.now();
    await expect(page.getByText("Незавершённые загрузки.")).toBeVisible();
    await watch.observe();
    await page.setInputFiles("#field-files", file);
    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });

    const offsets = watch.acknowledged.map((ack) => ack.offset);
    const wireTotal = Math.max(...offsets);
    const after = watch.shown().filter((line) => line.at >= reloadedAt);
    const resumed = after.filter((line) => line.stage === "Передача" && line.acknowledged > 0);
    // The first the page heard after the reload is the server's offset (its answer to HEAD), at least what it held before.
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed[0]!.acknowledged).toBeGreaterThanOrEqual(before.at(-1)!.acknowledged);
    // What the page showed when the server had acknowledged that much (the first line standing on it; later ones add the chunk in flight).
    const heldBefore = before.find((line) => line.acknowledged === before.at(-1)!.acknowledged)!;
    expect(resumed[0]!.percent).toBeGreaterThanOrEqual(heldBefore.percent - 1);
    for (const line of after) {
      const where = JSON.stringify(line);
      expect([0, ...offsets], where).toContain(line.acknowledged);
      expect(Math.abs(line.percent - (line.sent * 100) / size), where).toBeLessThanOrEqual(1 + (ROUNDING * 100) / size);
      if (line.stage !== "Передача") continue;
      expect(line.percent, where).toBeGreaterThanOrEqual((line.acknowledged * 100) / wireTotal - 15);
      expect(line.percent, where).toBeLessThanOrEqual((nextOffset(offsets, line.acknowledged, wireTotal) * 100) / wireTotal + 15);
    }
    expect(after.at(-1)).toMatchObject({ stage: "Готово", percent: 100 });
  });
});
