import { createHash } from "node:crypto";
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { DB } from "~/modules/db/db.server";
import { calculateOrderPrice } from "~/modules/pricing/calculate";
import { FILE_TYPES, type FileType } from "~db/schema";

/**
 * Load with integrity (issue "Proof under pressure", item 5): virtual clinics walk the whole order
 * flow over HTTP at once — a plain browser without JavaScript: every form POST is followed by the GET
 * of its redirect — and each records exactly what it submitted. `checkIntegrity` then compares the
 * database and the S3 store with those records. Used by bench/load.mts (full size) and by
 * tests/integration/reliability/load.test.ts (CI size).
 */

export interface SubmittedFile {
  type: FileType;
  name: string;
  size: number;
  md5: string;
  triangles: number;
}

export interface SubmittedPatient {
  name: string;
  matrixType: "soft" | "hard";
  material: "single_layer" | "three_layer";
  cut: "wavy" | "straight";
  comment: string;
  skipRetainers: boolean;
  files: SubmittedFile[];
}

export interface SubmittedOrder {
  clinic: number;
  /** Known from the first page after creation. */
  orderId: string | null;
  email: string;
  phone: string;
  fullName: string;
  address: string;
  patients: SubmittedPatient[];
  /** The sandbox checkout was paid and the return page was shown. */
  paid: boolean;
  /** Why the walk stopped early (an unexpected answer), if it did. */
  aborted: string | null;
}

export interface RequestRecord {
  kind: string;
  status: number;
  ms: number;
  /** When it was sent (performance.now()). */
  at: number;
  /** The answer was an HTML page (the app's own page, error pages included). */
  html: boolean;
  /** Why there was no answer (status 0): the client's error and its cause. */
  error?: string;
}

export interface LoadOptions {
  appUrl: string;
  clinics: number;
  durationMs: number;
  /** Per-request limit; a request taking longer counts as a failure (status 0). */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface LoadRun {
  orders: SubmittedOrder[];
  requests: RequestRecord[];
  wallMs: number;
}

// ---------------------------------------------------------------------------------------------
// Real STL models: closed boxes the size of a dental arch, each face split into n × n squares.

type Point = [number, number, number];

export function tessellatedBoxStl(n: number, size: Point): Buffer {
  const [sx, sy, sz] = size;
  const triangles: Array<[Point, Point, Point]> = [];
  // Each face: a fixed axis at 0 or its size, two running axes.
  const faces: Array<{ axis: 0 | 1 | 2; at: number; u: 0 | 1 | 2; v: 0 | 1 | 2 }> = [
    { axis: 0, at: 0, u: 1, v: 2 },
    { axis: 0, at: sx, u: 2, v: 1 },
    { axis: 1, at: 0, u: 2, v: 0 },
    { axis: 1, at: sy, u: 0, v: 2 },
    { axis: 2, at: 0, u: 0, v: 1 },
    { axis: 2, at: sz, u: 1, v: 0 },
  ];
  for (const face of faces) {
    const point = (i: number, j: number): Point => {
      const p: Point = [0, 0, 0];
      p[face.axis] = face.at;
      p[face.u] = (size[face.u] * i) / n;
      p[face.v] = (size[face.v] * j) / n;
      return p;
    };
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        triangles.push([point(i, j), point(i + 1, j), point(i + 1, j + 1)]);
        triangles.push([point(i, j), point(i + 1, j + 1), point(i, j + 1)]);
      }
    }
  }
  const bytes = Buffer.alloc(84 + 50 * triangles.length);
  bytes.write("load test arch model", 0);
  bytes.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, index) => triangle.flat().forEach((value, position) => bytes.writeFloatLE(value, 84 + 50 * index + 12 + position * 4)));
  return bytes;
}

const md5 = (data: Buffer) => createHash("md5").update(data).digest("hex");

function randomModel(): { content: Buffer; triangles: number } {
  const n = 1 + Math.floor(Math.random() * 6);
  const content = tessellatedBoxStl(n, [50 + Math.random() * 20, 40 + Math.random() * 15, 15 + Math.random() * 10]);
  return { content, triangles: 12 * n * n };
}

// ---------------------------------------------------------------------------------------------
// One virtual clinic: a browser without JavaScript.

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export class StepError extends Error {}

/** A patient with random choices, no files yet. */
export function newPatient(label: string): SubmittedPatient {
  return {
    name: `Пациент ${label} ${pick(["Иванова", "Smith", "Петров"])}`,
    matrixType: pick(["soft", "hard"] as const),
    material: pick(["single_layer", "three_layer"] as const),
    cut: pick(["wavy", "straight"] as const),
    comment: pick(["", "Без аттачментов", "Extra care"]),
    skipRetainers: Math.random() < 0.5,
    files: [],
  };
}

export class Clinic {
  private cookies = new Map<string, string>();
  readonly ip: string;

  constructor(
    readonly index: number,
    private readonly options: LoadOptions,
    private readonly requests: RequestRecord[],
  ) {
    this.ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  }

  /** The order id in the signed current-order cookie (what the browser holds right now). */
  currentOrderId(): string | null {
    const raw = this.cookies.get("current_order");
    if (!raw) return null;
    try {
      const signed = decodeURIComponent(raw);
      const value = JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf(".")), "base64").toString("utf8")) as unknown;
      return typeof value === "string" && value ? value : null;
    } catch {
      return null;
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private storeCookies(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0/i.test(header) || /expires=Thu, 01 Jan 1970/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** One request as the clinic's browser sends it; the body is read whole (timed to the last byte). */
  async send(kind: string, pathname: string, init: { method?: string; body?: URLSearchParams | FormData } = {}): Promise<{ status: number; location: string | null; text: string }> {
    const method = init.method ?? (init.body ? "POST" : "GET");
    const url = pathname.startsWith("http") ? pathname : `${this.options.appUrl}${pathname}`;
    const started = performance.now();
    let status = 0;
    let html = false;
    let failure: string | undefined;
    try {
      const response = await fetch(url, {
        method,
        body: init.body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 60_000),
        headers: {
          Cookie: this.cookieHeader(),
          "X-Forwarded-For": this.ip,
          "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) load-clinic",
          ...(method === "GET" ? {} : { Origin: this.options.appUrl }),
        },
      });
      status = response.status;
      this.storeCookies(response);
      const text = await response.text();
      html = /^\s*<!DOCTYPE html>/i.test(text);
      return { status, location: response.headers.get("Location"), text };
    } catch (error) {
      status = 0;
      const cause = (error as Error).cause as Error | undefined;
      failure = `${(error as Error).message}${cause ? ` (${cause.message})` : ""}`;
      throw new StepError(`${kind}: ${failure}`);
    } finally {
      this.requests.push({ kind, status, ms: performance.now() - started, at: started, html, ...(failure ? { error: failure } : {}) });
    }
  }

  /** A form POST and, like a browser, the GET of the page it redirects to; checks the step shown. */
  async post(kind: string, fields: Record<string, string> | FormData, expectStep: number | null): Promise<string> {
    const body = fields instanceof FormData ? fields : new URLSearchParams(fields);
    const answer = await this.send(kind, "/order", { body });
    if (answer.status !== 302 || !answer.location) throw new StepError(`${kind}: status ${answer.status} ${answer.text.slice(0, 200)}`);
    const page = await this.send(`${kind}:page`, answer.location);
    if (page.status !== 200) throw new StepError(`${kind}:page: status ${page.status}`);
    if (expectStep !== null) {
      const shown = /Шаг (\d+) из 11/.exec(page.text)?.[1];
      if (Number(shown) !== expectStep) throw new StepError(`${kind}: expected step ${expectStep}, the page shows ${shown ?? "none"}`);
    }
    return page.text;
  }

  async upload(kind: string, type: FileType, expectStep: number, patient: SubmittedPatient): Promise<void> {
    const form = new FormData();
    form.append("intent", "next");
    const files = uploadForm(form, type, Array.from({ length: 1 + Math.floor(Math.random() * 2) }, randomModel));
    // Recorded before sending: a file the server lost must show up as missing.
    patient.files.push(...files);
    const page = await this.post(kind, form, expectStep);
    if (!page.includes(files[0]!.name)) throw new StepError(`${kind}: the uploaded file is not listed`);
  }


  /** Steps 1–3: creates the draft (its id is recorded at once) and saves contacts and delivery. */
  async startOrder(record: SubmittedOrder): Promise<void> {
    this.cookies.delete("current_order");
    const start = await this.send("start", "/order");
    if (start.status !== 200) throw new StepError(`start: status ${start.status}`);
    // The id is taken from the cookie as soon as the creating POST answers (before its page loads).
    const answer = await this.send("create", "/order", { body: new URLSearchParams({ intent: "next" }) });
    record.orderId = this.currentOrderId();
    if (answer.status !== 302 || !record.orderId) throw new StepError(`create: status ${answer.status}`);
    const created = await this.send("create:page", "/order");
    if (created.status !== 200 || !created.text.includes("Шаг 2 из 11")) throw new StepError(`create:page: status ${created.status}`);
    await this.post("contacts", { intent: "next", email: record.email, phone: record.phone }, 3);
    await this.post("delivery", { intent: "next", full_name: record.fullName, address: record.address, delivery_comment: "", consent: "on" }, 4);
  }

  /** Step 4: adds a patient (recorded first) and goes on to its matrix upload, step 5. */
  async addPatient(record: SubmittedOrder, patient: SubmittedPatient): Promise<void> {
    record.patients.push(patient);
    await this.post("add_patient", { intent: "add_patient", patient_name: patient.name }, 4);
    await this.post("patient_next", { intent: "next" }, 5);
  }

  /** Walks one order from step 1 to a paid sandbox payment (or only to the summary). */
  async order(record: SubmittedOrder, until: "summary" | "paid" = "paid"): Promise<void> {
    await this.startOrder(record);
    const patients = 1 + Math.floor(Math.random() * 2);
    for (let p = 0; p < patients; p++) {
      if (p > 0) await this.post("back_to_patient", { intent: "back_to_patient" }, 4);
      const patient = newPatient(`${this.index}-${p + 1}`);
      await this.addPatient(record, patient);
      await this.upload("upload_matrix", "matrix", 6, patient);
      await this.post("matrix_type", { intent: "next", matrix_type: patient.matrixType }, 7);
      await this.upload("upload_aligners", "aligners", 8, patient);
      await this.post("material", { intent: "next", material_type: patient.material }, 9);
      await this.post("cut", { intent: "next", cut_type: patient.cut, additional_comments: patient.comment }, 10);
      if (patient.skipRetainers) await this.post("skip_retainers", { intent: "skip_retainers" }, 11);
      else await this.upload("upload_retainer", "retainer", 11, patient);
    }
    const summary = await this.send("summary", "/order");
    if (summary.status !== 200) throw new StepError(`summary: status ${summary.status}`);
    if (until === "summary") return;
    const pay = await this.send("pay", "/order", { body: new URLSearchParams({ intent: "pay" }) });
    if (pay.status !== 302 || !pay.location?.startsWith("/payment/sandbox/")) throw new StepError(`pay: status ${pay.status} to ${pay.location}`);
    const checkout = await this.send("checkout", pay.location);
    if (checkout.status !== 200) throw new StepError(`checkout: status ${checkout.status}`);
    const paid = await this.send("checkout_pay", pay.location, { body: new URLSearchParams({ outcome: "pay" }) });
    if (paid.status !== 302 || !paid.location) throw new StepError(`checkout_pay: status ${paid.status}`);
    const result = await this.send("payment_return", paid.location);
    if (result.status !== 200) throw new StepError(`payment_return: status ${result.status}`);
    record.orderId ??= new URL(paid.location, this.options.appUrl).searchParams.get("orderId");
    record.paid = true;
  }
}

/** Appends models to a wizard upload form as the file input sends them; returns what was submitted. */
export function uploadForm(form: FormData, type: FileType, models: Array<{ content: Buffer; triangles: number }>): SubmittedFile[] {
  const files: SubmittedFile[] = [];
  models.forEach(({ content, triangles }, i) => {
    const name = `${type === "matrix" ? "Матрица" : type === "aligners" ? "Шаг" : "Ретейнер"} ${i + 1} верх.stl`;
    form.append("files", new Blob([new Uint8Array(content)], { type: "model/stl" }), name);
    files.push({ type, name, size: content.length, md5: md5(content), triangles });
  });
  return files;
}

/** What a clinic is about to submit for its next order (filled in as it walks). */
export function newOrderRecord(clinic: number, sequence: number): SubmittedOrder {
  return {
    clinic,
    orderId: null,
    email: `clinic-${clinic}@load.test`,
    phone: `+7 900 ${String(clinic).padStart(3, "0")}-${String(sequence % 100).padStart(2, "0")}-00`,
    fullName: `Клиника ${clinic}, заказ ${sequence + 1}`,
    address: `Москва, ул. Нагрузочная, ${clinic}, кв. ${sequence + 1}`,
    patients: [],
    paid: false,
    aborted: null,
  };
}

/** Runs `clinics` clinics at once; each starts new orders until `durationMs` has passed and finishes the one it is on. */
export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const requests: RequestRecord[] = [];
  const orders: SubmittedOrder[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;
  const runClinic = async (index: number) => {
    const clinic = new Clinic(index, options, requests);
    let sequence = 0;
    // Clinics start a little apart, as real ones would.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, options.durationMs / 10)));
    while (performance.now() < deadline) {
      const record = newOrderRecord(index, sequence);
      sequence++;
      orders.push(record);
      try {
        await clinic.order(record);
      } catch (error) {
        record.aborted = (error as Error).message;
        options.log?.(`clinic ${index}: order ${record.orderId ?? "?"} stopped: ${record.aborted}`);
        // A doctor who met an error page tries again a little later with a new order.
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  await Promise.all(Array.from({ length: options.clinics }, (_, index) => runClinic(index + 1)));
  return { orders, requests, wallMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Figures

export interface LoadFigures {
  orders: number;
  paidOrders: number;
  abortedOrders: number;
  ordersPerSecond: number;
  requests: number;
  requestsPerSecond: number;
  serverErrors: number;
  failedRequests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  byKind: Array<{ kind: string; count: number; p50Ms: number; p99Ms: number; errors: number }>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function loadFigures(run: LoadRun): LoadFigures {
  const all = run.requests.map((request) => request.ms).sort((a, b) => a - b);
  const kinds = [...new Set(run.requests.map((request) => request.kind))];
  const seconds = run.wallMs / 1000;
  const paid = run.orders.filter((order) => order.paid).length;
  return {
    orders: run.orders.length,
    paidOrders: paid,
    abortedOrders: run.orders.filter((order) => order.aborted).length,
    ordersPerSecond: paid / seconds,
    requests: run.requests.length,
    requestsPerSecond: run.requests.length / seconds,
    serverErrors: run.requests.filter((request) => request.status >= 500).length,
    failedRequests: run.requests.filter((request) => request.status === 0).length,
    p50Ms: percentile(all, 50),
    p99Ms: percentile(all, 99),
    maxMs: all.at(-1) ?? 0,
    byKind: kinds.map((kind) => {
      const of = run.requests.filter((request) => request.kind === kind);
      const times = of.map((request) => request.ms).sort((a, b) => a - b);
      return { kind, count: of.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), errors: of.filter((request) => request.status >= 500 || request.status === 0).length };
    }),
  };
}

export function formatFigures(figures: LoadFigures, mismatches: string[]): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const lines = [
    `orders: ${figures.orders} started, ${figures.paidOrders} paid, ${figures.abortedOrders} stopped early; ${figures.ordersPerSecond.toFixed(2)} paid orders/s`,
    `requests: ${figures.requests} (${figures.requestsPerSecond.toFixed(1)}/s); latency p50 ${ms(figures.p50Ms)}, p99 ${ms(figures.p99Ms)}, max ${ms(figures.maxMs)}`,
    `5xx: ${figures.serverErrors}; no answer: ${figures.failedRequests}; integrity mismatches: ${mismatches.length}`,
    "",
    "kind                      count    p50      p99   errors",
    ...figures.byKind.map((row) => `${row.kind.padEnd(24)} ${String(row.count).padStart(6)} ${ms(row.p50Ms).padStart(8)} ${ms(row.p99Ms).padStart(8)} ${String(row.errors).padStart(6)}`),
  ];
  if (mismatches.length) lines.push("", "mismatches (first 20):", ...mismatches.slice(0, 20).map((line) => `  ${line}`));
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Integrity: the database and the S3 store against what the clinics submitted

export interface IntegrityTarget {
  db: DB;
  s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  bucket?: string;
}

interface StoredFileInfo {
  originalName: string;
  storagePath: string;
  size: number;
  triangles: number;
}

const FILE_COLUMN = { matrix: "matrix_files_info", aligners: "aligner_files_info", retainer: "retainer_files_info" } as const;

export interface IntegrityOptions {
  /**
   * Orders whose walk stopped (a fault test) are checked for consistency instead of completeness:
   * what is stored must be a prefix of what was submitted (fields unset or as submitted, files a
   * prefix of each list), with every stored file whole in S3 and queued once, and a total, status
   * and payment that agree with what is stored. Without it, a stopped walk is itself a mismatch.
   */
  allowStopped?: boolean;
  /** Orders in the database that no clinic of this run started (an earlier run's) are not counted as extra. */
  onlyThisRun?: boolean;
}

const PAID_OR_PENDING = new Set(["pending", "paid", "processing", "shipped", "completed"]);

/** Every difference between what was submitted and what the database and S3 hold; empty when all is exact. */
export async function checkIntegrity(run: LoadRun, target: IntegrityTarget, options: IntegrityOptions = {}): Promise<string[]> {
  const { db } = target;
  const bucket = target.bucket ?? "orders";
  const problems: string[] = [];
  const s3 = new S3Client({
    endpoint: target.s3.endpoint,
    region: target.s3.region,
    credentials: { accessKeyId: target.s3.accessKeyId, secretAccessKey: target.s3.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });

  const orders = await db.selectFrom("orders").selectAll().execute();
  const patients = await db.selectFrom("orders_patients").selectAll().orderBy("created_at").orderBy("folder_name").execute();
  const queue = await db.selectFrom("ftp_uploads_queue").selectAll().execute();
  const payments = await db.selectFrom("payments").selectAll().execute();
  const history = await db.selectFrom("order_status_history").selectAll().orderBy("created_at").execute();

  const submittedById = new Map<string, SubmittedOrder>();
  for (const record of run.orders) {
    if (!record.orderId) {
      if (record.aborted && !options.allowStopped) problems.push(`clinic ${record.clinic}: an order stopped before its id was known (${record.aborted})`);
      continue;
    }
    const earlier = submittedById.get(record.orderId);
    if (earlier) {
      // A walk that stopped before anything was typed leaves an untouched draft, and the same browser's
      // next walk gets that draft back instead of a new one (ADR 038): the later walk is the order.
      const reopened = Boolean(earlier.aborted) && options.allowStopped && earlier.clinic === record.clinic;
      if (!reopened) problems.push(`order ${record.orderId} was walked twice`);
    }
    submittedById.set(record.orderId, record);
  }
  // Lost and extra orders.
  for (const order of orders) if (!submittedById.has(order.id) && !options.onlyThisRun) problems.push(`order ${order.id} (${order.email}, ${order.status}) in the database was never started by a clinic`);
  const stored = new Map(orders.map((order) => [order.id, order]));
  for (const id of submittedById.keys()) if (!stored.has(id)) problems.push(`order ${id} is missing from the database`);

  const allKeys = new Set<string>();
  for (const [id, record] of submittedById) {
    const order = stored.get(id);
    if (!order) continue;
    const where = `order ${id} (clinic ${record.clinic})`;
    const lenient = Boolean(record.aborted) && Boolean(options.allowStopped);
    if (record.aborted && !options.allowStopped) problems.push(`${where}: the walk stopped: ${record.aborted}`);
    /** Equal, or (for a stopped walk) not set yet. */
    const check = (at: string, name: string, actual: unknown, expected: unknown, unset: unknown = null) => {
      if (actual === expected || (lenient && actual === unset)) return;
      problems.push(`${at}: ${name} is ${JSON.stringify(actual)}, submitted ${JSON.stringify(expected)}`);
    };
    check(where, "email", order.email, record.email);
    check(where, "phone", order.phone, record.phone);
    check(where, "full_name", order.full_name, record.fullName);
    check(where, "address", order.address, record.address);
    check(where, "market", order.market, "domestic");

    const ownPatients = patients.filter((patient) => patient.order_id === id);
    if (lenient ? ownPatients.length > record.patients.length : ownPatients.length !== record.patients.length) {
      problems.push(`${where}: ${ownPatients.length} patients stored, ${record.patients.length} submitted`);
    }
    const ownQueue = queue.filter((entry) => entry.order_id === id);
    let storedFiles = 0;
    const composition: Array<{ material: string | null; matrixType: string | null; counts: Record<FileType, number>; skipRetainers: boolean; skipMatrix: boolean; skipAligners: boolean }> = [];

    for (const [index, patient] of ownPatients.entries()) {
      const submitted = record.patients[index];
      if (!submitted) continue;
      const at = `${where}, patient ${index + 1}`;
      check(at, "name", patient.patient_name, submitted.name, undefined);
      check(at, "folder", patient.folder_name, `${order.code}_${index + 1}`, undefined);
      check(at, "matrix_type", patient.matrix_type, submitted.matrixType);
      check(at, "material_type", patient.material_type, submitted.material);
      check(at, "cut_type", patient.cut_type, submitted.cut);
      check(at, "additional_comments", patient.additional_comments, submitted.comment || null);
      check(at, "skip_retainers", Boolean(patient.skip_retainers), submitted.skipRetainers, false);
      const counts = { matrix: 0, aligners: 0, retainer: 0 } as Record<FileType, number>;
      for (const type of FILE_TYPES) {
        const list = (patient[FILE_COLUMN[type]] as unknown as StoredFileInfo[]) ?? [];
        const want = submitted.files.filter((file) => file.type === type);
        counts[type] = list.length;
        if (lenient ? list.length > want.length : list.length !== want.length) problems.push(`${at}: ${list.length} ${type} files stored, ${want.length} submitted`);
        for (const [position, info] of list.entries()) {
          const file = want[position];
          storedFiles++;
          allKeys.add(info.storagePath);
          if (!file || info.originalName !== file.name || info.size !== file.size || info.triangles !== file.triangles) {
            problems.push(`${at}: ${type} file ${position + 1} is ${JSON.stringify([info.originalName, info.size, info.triangles])}, submitted ${JSON.stringify(file ? [file.name, file.size, file.triangles] : null)}`);
          }
          if (!info.storagePath.startsWith(`order_${id}/${patient.folder_name}/${type}/`)) problems.push(`${at}: key ${info.storagePath} is outside the patient's ${type} folder`);
          const entries = ownQueue.filter((entry) => entry.file_path === info.storagePath);
          if (entries.length !== 1) problems.push(`${at}: ${entries.length} queue entries for ${info.storagePath}`);
          for (const entry of entries) {
            if (entry.file_type !== type || Number(entry.file_size) !== info.size || entry.original_name !== info.originalName || entry.patient_id !== patient.id) {
              problems.push(`${at}: queue entry of ${info.storagePath} is ${JSON.stringify([entry.file_type, entry.file_size, entry.original_name])}`);
            }
            if (!entry.destination_path.endsWith(`/${order.code}/${patient.folder_name}/${type}`)) problems.push(`${at}: queue destination ${entry.destination_path}`);
          }
          // The object: there, with the submitted size and content (the MD5 ETag of a single PUT).
          try {
            const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: info.storagePath }));
            if (head.ContentLength !== info.size || (file && head.ContentLength !== file.size)) problems.push(`${at}: object ${info.storagePath} has ${head.ContentLength} bytes, submitted ${file?.size}`);
            if (file && head.ETag && !head.ETag.includes("-") && head.ETag.replaceAll('"', "") !== file.md5) problems.push(`${at}: object ${info.storagePath} content differs (ETag ${head.ETag})`);
          } catch (error) {
            problems.push(`${at}: object ${info.storagePath} is missing (${(error as Error).name})`);
          }
        }
      }
      composition.push({ material: patient.material_type, matrixType: patient.matrix_type, counts, skipRetainers: Boolean(patient.skip_retainers), skipMatrix: Boolean(patient.skip_matrix), skipAligners: Boolean(patient.skip_aligners) });
    }
    if (ownQueue.length !== storedFiles) problems.push(`${where}: ${ownQueue.length} queue entries, ${storedFiles} files`);

    // Status, total and payment: exact for a finished walk, consistent with what is stored for a stopped one.
    const earlier = run.orders.filter((other) => other.clinic === record.clinic && other !== record && run.orders.indexOf(other) < run.orders.indexOf(record));
    // Orders of the same clinic from an earlier run on this database count too (`onlyThisRun`): the
    // server's new-customer rule looks at every order of the e-mail.
    const paidBefore = options.onlyThisRun && orders.some((other) => other.email === record.email && !submittedById.has(other.id) && PAID_OR_PENDING.has(other.status));
    const isNewCustomer = !paidBefore && !earlier.some((other) => other.orderId && PAID_OR_PENDING.has(stored.get(other.orderId)?.status ?? ""));
    const price = calculateOrderPrice({
      currency: "rub",
      conditions: null,
      isNewCustomer,
      patients: composition.map((patient, index) => ({
        id: String(index),
        name: String(index),
        materialType: patient.material as "single_layer" | "three_layer" | null,
        matrixType: patient.matrixType as "soft" | "hard" | null,
        alignerFiles: patient.skipAligners ? 0 : patient.counts.aligners,
        matrixFiles: patient.skipMatrix ? 0 : patient.counts.matrix,
        retainerFiles: patient.skipRetainers ? 0 : patient.counts.retainer,
      })),
    });
    const own = payments.filter((payment) => payment.order_id === id);
    const succeeded = own.filter((payment) => payment.status === "succeeded");
    const steps = history.filter((row) => row.order_id === id).map((row) => `${row.from_status ?? ""}>${row.to_status}`);
    if (!lenient) {
      check(where, "status", order.status, "paid");
      check(where, "total_cost", Number(order.total_cost), price.total);
      if (own.length !== 1) problems.push(`${where}: ${own.length} payment attempts`);
      const expectedSteps = ["draft>pending", "pending>paid"];
      if (steps.filter((step) => step !== ">draft").join(",") !== expectedSteps.join(",")) problems.push(`${where}: status history ${steps.join(", ")}`);
    } else {
      if (!["draft", "pending", "paid"].includes(order.status)) problems.push(`${where}: status ${order.status}`);
      if (order.status !== "draft") check(where, "total_cost", Number(order.total_cost), price.total);
      if (order.status === "paid" && succeeded.length !== 1) problems.push(`${where}: paid with ${succeeded.length} successful payments`);
      if (order.status !== "paid" && succeeded.length > 0) problems.push(`${where}: a successful payment but the order is ${order.status}`);
    }
    for (const payment of succeeded) {
      if (Number(payment.amount) !== Number(order.total_cost) || payment.currency !== "rub") problems.push(`${where}: payment of ${payment.amount} ${payment.currency}, order total ${order.total_cost} rub`);
    }
    if (record.paid && order.status !== "paid") problems.push(`${where}: the clinic saw it paid, the order is ${order.status}`);
  }

  // Orphans: objects no file row points at (a half-recorded upload).
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      if (!object.Key || allKeys.has(object.Key)) continue;
      if (options.onlyThisRun && !submittedById.has(/^order_([^/]+)\//.exec(object.Key)?.[1] ?? "")) continue;
      problems.push(`object ${object.Key} (${object.Size} bytes) belongs to no recorded file`);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  // Queue entries of unknown orders.
  for (const entry of queue) if (!submittedById.has(entry.order_id) && !options.onlyThisRun) problems.push(`queue entry ${entry.id} of unknown order ${entry.order_id}`);
  s3.destroy();
  return problems;
}
