/**
 * How fast Chromium packs (ADR 045): the page's own packing code (stl-pack.ts, bundled here with
 * esbuild as the page's bundler does) on the scan-shaped 100 MiB model, 5 MiB chunk by chunk, each
 * chunk made into both its packed and its gzip member as the page's worker does. Once in a Web
 * Worker as the page runs it, once on the page's main thread with the CPU throttled 4× (DevTools'
 * "low-end" setting, which throttles the page's thread; whether it also slows a worker is not
 * documented, so the throttled figure is taken on the main thread). Takes about a minute.
 *
 *   node --import tsx bench/pack-browser.mts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { scanLikeStl } from "../tests/support/stl-models";
import { type Figure, printResult } from "./lib/result";

const model = scanLikeStl(1024, 1023, 2026);
const bundle = await build({
  stdin: {
    contents: `import { binaryTriangles, chunkLayout, smallerMember } from "./app/modules/uploads/stl-pack";
      const CHUNK = 5 * 1024 * 1024;
      async function packAll(file) {
        const triangles = binaryTriangles(file.size, new Uint8Array(await file.slice(0, 84).arrayBuffer()));
        let wire = 0;
        const started = performance.now();
        for (let start = 0; start < file.size; start += CHUNK) {
          const chunk = new Uint8Array(await file.slice(start, start + CHUNK).arrayBuffer());
          wire += (await smallerMember(chunk, chunkLayout(triangles, start, chunk.length))).length;
        }
        return { seconds: (performance.now() - started) / 1000, wire };
      }
      globalThis.packAll = packAll;
      globalThis.onmessage = async ({ data }) => globalThis.postMessage(await packAll(data));`,
    resolveDir: path.resolve(import.meta.dirname, ".."),
    loader: "ts",
  },
  bundle: true,
  format: "iife",
  write: false,
  target: "es2022",
});
const code = bundle.outputFiles[0]!.text;

// The model comes from a local server, as a chosen file comes from the disk: no copy through the driver.
const server = http.createServer((request, response) => {
  if (request.url === "/model.stl") response.writeHead(200, { "Content-Type": "application/octet-stream" }).end(model);
  else response.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>pack</title>");
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.addScriptTag({ content: code });
  await page.evaluate(async () => {
    (globalThis as any).model = await (await fetch("/model.stl")).blob();
  });
  type Run = { seconds: number; wire: number };
  const inWorker = await page.evaluate(
    (source) =>
      new Promise<Run>((resolve) => {
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
        worker.onmessage = ({ data }) => resolve(data as Run);
        worker.postMessage((globalThis as any).model);
      }),
    code,
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const throttled = await page.evaluate(() => (globalThis as any).packAll((globalThis as any).model) as Promise<Run>);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

  const MB = 1e6;
  console.table([
    { where: "Web Worker, CPU as it is", seconds: inWorker.seconds.toFixed(1), "MB/s": (model.length / MB / inWorker.seconds).toFixed(0), "wire ÷ file": (inWorker.wire / model.length).toFixed(3) },
    { where: "main thread, CPU throttled 4×", seconds: throttled.seconds.toFixed(1), "MB/s": (model.length / MB / throttled.seconds).toFixed(0), "wire ÷ file": (throttled.wire / model.length).toFixed(3) },
  ]);
  // At 2 Mbit/s the link takes 0.21 × 105 MB ≈ 90 s: packing must stay far below it.
  const linkSeconds = (inWorker.wire * 8) / 2e6;
  const figures: Figure[] = [
    { name: "Chromium packs 100 MiB (scan-shaped) in a worker", figure: `${inWorker.seconds.toFixed(1)} s`, value: inWorker.seconds, target: "— (reported)", met: null },
    { name: "Chromium packs 100 MiB with the CPU throttled 4×", figure: `${throttled.seconds.toFixed(1)} s`, value: throttled.seconds, target: `< the 2 Mbit/s link's ${linkSeconds.toFixed(0)} s for the packed bytes`, met: throttled.seconds < linkSeconds },
  ];
  printResult({ bench: "pack-browser", figures, loadavg: os.loadavg() });
} finally {
  await browser.close();
  server.close();
}
