import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileInfo } from "~db/schema";
import { MiB } from "../../support/abusive-bodies";
import { buildOrderIn } from "../../support/builders";
import { type TestApp, startApp } from "../../support/app";
import { type Browser, rendered, signedInAs } from "../backoffice/support";

/**
 * Data exports with files take turns (issue 56; ADR 082), against the real server on PostgreSQL
 * over HTTP: twelve clinics asking at once for their archive with its models, read as fast as
 * loopback goes, leave another clinic's cabinet as fast as when nothing is exported (95th percentile
 * within 1.5 ×); each archive is sent whole, at the export's pace, or refused with 429,
 * `Retry-After` and a page that says to try again in a minute, in the reader's language. One clinic
 * gets one archive at a time; archives without models take no turn.
 */

/** Models in each clinic's archive (hard links to one file: distinct names, one copy on disk); two archives at the process's pace, 8 s of sending. */
const MODELS_PER_CLINIC = 1;
const TRIANGLES = Math.floor((16 * MiB - 84) / 50);
const MODEL_BYTES = 84 + 50 * TRIANGLES;
/** How long an export waits for a turn here: the rule of the default 10 s, in a test of seconds. */
const WAIT_SECONDS = 2;
/** Rounds of quiet and of 12 exports at once, and each quiet window. */
const ROUNDS = 4;
const QUIET_MS = 6000;

let app: TestApp;

beforeAll(async () => {
  app = await startApp({ env: { DATA_EXPORT_WAIT_SECONDS: String(WAIT_SECONDS) } });
  downloader = startDownloader();
});

afterAll(async () => {
  downloader?.close();
  if (process.env.SHOW_APP_OUTPUT) console.log(app?.output().slice(-8000));
  await app?.close();
});

/** A signed-in clinic with a paid order whose patient holds `MODELS_PER_CLINIC` stored copies of `model`. */
async function clinicWithModels(email: string, model: string): Promise<Browser> {
  const size = fs.statSync(model).size;
  const db = app.database.db;
  const order = await buildOrderIn(db, "paid", { email, fullName: "Архивова Анна", phone: "+7 900 700-00-01", address: "Омск, ул. Ленина, 7" });
  const folder = `${order.code}_1`;
  const files: FileInfo[] = Array.from({ length: MODELS_PER_CLINIC }, (_, step) => {
    const key = `order_${order.id}/${folder}/aligners/step-${step + 1}_1700000000000.stl`;
    const target = path.join(app.dataDir, "storage", "orders", key);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.linkSync(model, target);
    return { originalName: `step-${step + 1}.stl`, storagePath: key, url: `/files/orders/${key}`, type: "model/stl", size, jaw: "upper", stepNumber: step + 1, confirmed: true };
  });
  await db
    .insertInto("orders_patients")
    .values({ order_id: order.id, patient_name: "Архивов Артём", folder_name: folder, matrix_files_info: "[]", aligner_files_info: JSON.stringify(files), retainer_files_info: "[]" })
    .execute();
  return signedInAs(app, db, email);
}

interface Download {
  status: number;
  retryAfter: string | null;
  language: string | null;
  bytes: number;
  /** The archive ends with the ZIP end-of-central-directory record: it was sent whole. */
  zip: boolean;
  text: string;
}

/**
 * The archives with their models, each list asked at once and read to the end as fast as it comes,
 * by another process (tests/support/downloads.mts), started once: the reading costs this one, which
 * times the cabinet, nothing.
 */
function startDownloader() {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/downloads.mts"], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting: Array<(line: string) => void> = [];
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting.shift()?.(line);
    }
  });
  return {
    run(browsers: Browser[]): Promise<Download[]> {
      const asked = browsers.map((browser) => ({ url: `${app.url}/cabinet/data?files=1`, cookie: browser.jar.header() }));
      return new Promise((resolve) => {
        waiting.push((line) => resolve((JSON.parse(line) as Download[]).map((answer) => ({ ...answer, text: rendered(answer.text) }))));
        child.stdin.write(`${JSON.stringify(asked)}\n`);
      });
    },
    close() {
      child.stdin.end();
    },
  };
}

let downloader: ReturnType<typeof startDownloader>;
const downloads = (browsers: Browser[]) => downloader.run(browsers);
const download = async (browser: Browser) => (await downloads([browser]))[0]!;

/** Loads the clinic's cabinet one request after another until `until` settles: each answer's time in ms. */
async function cabinetTimes(browser: Browser, until: Promise<unknown>): Promise<number[]> {
  let running = true;
  void until.finally(() => (running = false));
  const times: number[] = [];
  while (running) {
    const started = performance.now();
    const response = await browser.request("/cabinet");
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

const p95 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)] ?? 0;
const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A binary STL of `triangles` in the app's data folder, to be linked into orders. */
function writeModel(name: string, triangles: number): string {
  const file = path.join(app.dataDir, name);
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  fs.writeFileSync(file, bytes);
  return file;
}

describe("data exports with files at once", () => {
  let model: string;
  beforeAll(() => {
    model = writeModel("model-16mib.stl", TRIANGLES);
  });

  it(`12 clinics' archives with models at once, ${ROUNDS} times: another clinic's cabinet stays within 1.5 × of its quiet 95th percentile; each archive whole or refused with the reason`, { timeout: 300_000 }, async () => {
    const exporters = await Promise.all(Array.from({ length: 12 }, (_, i) => clinicWithModels(`dr.export-${i}@klinika-arhiv.test`, model)));
    const other = await signedInAs(app, app.database.db, "dr.other@klinika-spokojnaya.test");
    await buildOrderIn(app.database.db, "paid", { email: "dr.other@klinika-spokojnaya.test" });
    // One export first, alone, to warm what a process sets up once; its CPU is the figure of one export.
    const cpuBefore = processCpuSeconds(app.pid);
    const warm = await download(exporters[0]!);
    expect(warm).toMatchObject({ status: 200, zip: true });
    const oneExportCpu = processCpuSeconds(app.pid) - cpuBefore;
    for (let i = 0; i < 20; i++) await (await other.request("/cabinet")).arrayBuffer();

    // Quiet and loaded in turns, so that the machine's own load, which drifts, weighs on both alike.
    const quiet: number[] = [];
    const loaded: number[] = [];
    const answers: Download[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(...(await cabinetTimes(other, quietFor(QUIET_MS))));
      const exports = downloads(exporters);
      loaded.push(...(await cabinetTimes(other, exports)));
      answers.push(...(await exports));
    }
    quiet.push(...(await cabinetTimes(other, quietFor(QUIET_MS))));
    const seconds = (performance.now() - started) / 1000;

    const sent = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    console.log(
      `${ROUNDS} × 12 exports of ${((MODELS_PER_CLINIC * MODEL_BYTES) / MiB).toFixed(0)} MiB at once: ${sent.length} sent, ${refused.length} refused, ${seconds.toFixed(1)} s in all; one export ${oneExportCpu.toFixed(2)} CPU-s; ` +
        `cabinet p95 quiet ${p95(quiet).toFixed(0)} ms (${quiet.length} requests), during exports ${p95(loaded).toFixed(0)} ms (${loaded.length} requests)`,
    );

    expect(sent.length + refused.length).toBe(12 * ROUNDS);
    expect(sent.length).toBeGreaterThanOrEqual(2 * ROUNDS);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of sent) expect(answer.zip).toBe(true);
    for (const answer of sent) expect(answer.bytes).toBeGreaterThan(MODELS_PER_CLINIC * MODEL_BYTES);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("60");
      expect(answer.language).toBe("ru");
      expect(answer.text).toContain("Архив уже готовится");
      expect(answer.text).toContain("попробуйте ещё раз через минуту");
    }
    expect(loaded.length).toBeGreaterThan(20);
    expect(p95(loaded)).toBeLessThanOrEqual(1.5 * p95(quiet));
    expect(app.output()).not.toMatch(/"level":(50|60)/);
  });

  it("one clinic gets one archive with models at a time, whatever else is free; a HEAD takes no turn; without models, any number; in English for an English reader", { timeout: 120_000 }, async () => {
    // Smaller models: what is checked here is who gets a turn, not the pace.
    const clinic = await clinicWithModels("dr.twice@klinika-arhiv.test", writeModel("model-10mib.stl", Math.floor((10 * MiB) / 50)));
    // A HEAD makes no archive and holds no turn.
    for (let head = 0; head < 3; head++) expect((await fetch(`${app.url}/cabinet/data?files=1`, { method: "HEAD", headers: { Cookie: clinic.jar.header() } })).status).toBe(200);
    const answers = await downloads([clinic, clinic, clinic]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429]);
    expect(answers.find((answer) => answer.status === 200)).toMatchObject({ zip: true });
    // Its turn is given back with the last byte: the next archive is its own again.
    expect(await download(clinic)).toMatchObject({ status: 200, zip: true });

    const plain = await Promise.all(Array.from({ length: 5 }, () => clinic.request("/cabinet/data")));
    expect(plain.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all(plain.map((answer) => answer.arrayBuffer()));

    // The reader who chose English reads the refusal in English.
    await clinic.request("/language", { form: { lng: "en", redirectTo: "/cabinet" } });
    const english = await downloads([clinic, clinic]);
    const refusal = english.find((answer) => answer.status === 429)!;
    expect(refusal.language).toBe("en");
    expect(refusal.text).toContain("An archive with the model files is being prepared right now — please try again in a minute.");
    expect(refusal.text).toContain("Back to your account");
  });
});

/** CPU seconds a process has used (user and system), from /proc. */
function processCpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
