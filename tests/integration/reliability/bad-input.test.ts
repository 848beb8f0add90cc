import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "kysely";
import { gzipMember, withLengthField } from "~/modules/uploads/gzip-members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrder, buildOrderIn, buildPatient } from "../../support/builders";
import { startStripeDouble, type StripeDouble, stripeAppEnv } from "../../support/stripe-double";
import { startYooKassaDouble, type YooKassaDouble, yooKassaAppEnv } from "../../support/yookassa-double";
import { rendered, signedInAs } from "../backoffice/support";
import { SECRETS, type TestApp, startApp } from "../../support/app";
import { bagCode } from "~/modules/packer/bag-code";

/**
 * The bad-input catalogue (issue "Proof under pressure", item 7): every form and resource route
 * that accepts input gets missing, oversize, malformed, hostile and forged values over real HTTP.
 * Each case asserts: no 5xx; a clear message in the request's language (a 4xx page or a redirect
 * with an error toast, as the route does); no data change (a snapshot of the tables, and of the
 * stored files for uploads); hostile text shown back only escaped. A summary of cases per route
 * is printed at the end; BAD_INPUT_DEBUG=1 also prints every answer's status and any page whose
 * message was not found.
 */

type Browser = ReturnType<typeof browserFetch>;

const LONG = "Я".repeat(10_000);
const SQLI = "'; drop table orders; --";
const XSS = "<script>alert(1)</script>";
const XSS_IMG = '"><img src=x onerror=alert(1)>';
const CONTROL = { nul: "Анна\u0000Иванова", bell: "Анна\u0007", rtl: "Анна\u202Eтxt.exe" } as const;
const NOT_UUID = "not-a-uuid";
const FORGED_UUID = "00000000-0000-4000-8000-000000000000";

/** A binary STL of `triangles` facets; `claimed` lies about the count in the header. */
function binaryStl(triangles: number, claimed = triangles): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("binary stl", 0);
  bytes.writeUInt32LE(claimed, 80);
  return bytes;
}

/** A real model from the corpus written by other software (tests/fixtures/stl/README). */
const corpusFile = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/stl", name));
/** A PLY or OBJ another program wrote (tests/fixtures/mesh/README). */
const meshCorpusFile = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/mesh", name));

/** A 48 × 48 PNG of noise, encoded as PNG files are (signature, IHDR, deflated IDAT, IEND): an image, not a mesh. */
function pngImage(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const size = 48;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  let seed = 20;
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let at = 0; at < rows.length; at++) rows[at] = at % (1 + size * 3) === 0 ? 0 : (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

/** Tables whose rows bad input must never touch (sessions, tokens and rate limits are bookkeeping). */
const TABLES = [
  "users",
  "user_roles",
  "orders",
  "order_codes",
  "order_status_history",
  "order_file_corrections",
  "orders_patients",
  "payments",
  "payment_events",
  "ftp_uploads_queue",
  "client_settings",
  "partner_codes",
  "partner_affiliates",
  "partner_payouts",
  "translations",
  "bag_scans",
  "order_messages",
  "order_threads",
] as const;
type Table = (typeof TABLES)[number];

interface Case {
  route: string;
  name: string;
  /** The browser that sends it (anonymous when not given). */
  as?: () => Browser;
  send: (browser: Browser) => Promise<Response>;
  setup?: () => Promise<void>;
  /** Expected status (exact), or any of a list; default: any 4xx or a redirect. */
  status?: number | number[];
  /** What the user reads: in the answer's page, or in the page its redirect leads to. */
  message?: string | RegExp;
  /** Hostile text that must come back only escaped. */
  inert?: string;
  /** The form field the page must mark invalid (its message next to it), by name. */
  invalid?: string;
  /** What was typed into that field, which the page must show back in it (nothing lost). */
  kept?: string;
  /** Columns a case may change (the wizard keeps what was typed in a draft, DESIGN §4.9); "*": the whole table (accepted input). */
  mayChange?: Partial<Record<Table, string[]>>;
  /** Compare the stored files too. */
  files?: boolean;
  /** A further check (and clean-up) after the answer and the page were checked. */
  check?: () => Promise<void> | void;
}

describe("bad input over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let yookassa: YooKassaDouble;
  let stripe: StripeDouble;
  const results = new Map<string, { passed: number; failed: number }>();
  const browsers = {} as Record<"wizard" | "wizardEn" | "staff" | "staffEn" | "admin" | "packer" | "user" | "userEn" | "anonymous" | "anonymousEn" | "clinic" | "clinicEn", Browser>;
  let wizardOrder: { id: string };
  let wizardEnOrder: { id: string };
  let paidOrder: { id: string };
  let draftOrder: { id: string };
  /** Paid orders with one declared aligner file each: the one staff correct, and another order's. */
  let filedOrder: { id: string; patientId: string; path: string };
  let otherOrder: { id: string; patientId: string; path: string };
  let translationId: string;
  let wizardPatientId: string;
  let partner: { id: string; code: string };
  let adminId: string;

  const snapshot = async (mayChange: Case["mayChange"] = {}) => {
    const state: Record<string, unknown> = {};
    for (const table of TABLES) {
      const drop = mayChange[table] ?? [];
      if (drop.includes("*")) continue;
      const row = sql<{ n: number; h: string | null }>`select count(*)::int as n, md5(string_agg((to_jsonb(x) - ${sql.val(drop)}::text[])::text, '|' order by (to_jsonb(x) - ${sql.val(drop)}::text[])::text)) as h from ${sql.table(table)} x`;
      state[table] = (await row.execute(t.db)).rows[0];
    }
    return state;
  };
  const storedFiles = () => {
    const list = (dir: string): string[] => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : []);
    const files = (root: string) => list(root).filter((name) => fs.statSync(path.join(root, name)).isFile());
    return { storage: files(path.join(app.dataDir, "storage")), ftp: files(path.join(app.dataDir, "ftp")) };
  };

  // ── request helpers ────────────────────────────────────────────────────────────────────────────
  const post = (pathname: string, form: Record<string, string>) => (browser: Browser) => browser.request(pathname, { form });
  const get = (pathname: string) => (browser: Browser) => browser.request(pathname);
  const raw = (pathname: string, body: string | Buffer, contentType: string | null, extra: Record<string, string> = {}) => async (browser: Browser) => {
    const headers: Record<string, string> = { Cookie: browser.jar.header(), Origin: browser.app.url, ...extra };
    if (contentType) headers["Content-Type"] = contentType;
    const response = await fetch(`${browser.app.url}${pathname}`, { method: "POST", headers, body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]), redirect: "manual" });
    browser.jar.store(response);
    return response;
  };
  const json = (pathname: string, value: unknown) => raw(pathname, JSON.stringify(value), "application/json");
  const textPlain = (pathname: string, value: string) => raw(pathname, value, "text/plain;charset=UTF-8");
  const multipart =
    (pathname: string, parts: Array<{ name: string; value: string } | { name: string; filename: string; content: Buffer | string }>) => async (browser: Browser) => {
      const form = new FormData();
      for (const part of parts) {
        if ("filename" in part) form.append(part.name, new Blob([typeof part.content === "string" ? part.content : new Uint8Array(part.content)]), part.filename);
        else form.append(part.name, part.value);
      }
      const response = await fetch(`${browser.app.url}${pathname}`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: browser.app.url }, redirect: "manual" });
      browser.jar.store(response);
      return response;
    };
  /** A multipart body cut off in the middle of a file part (the connection dropped). */
  const truncated = (pathname: string, field: string, filename: string) => {
    const boundary = "----bad-input-boundary";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      binaryStl(40).subarray(0, 1000),
    ]);
    return raw(pathname, body, `multipart/form-data; boundary=${boundary}`);
  };
  /** A multipart body whose Content-Type names no boundary at all. */
  const noBoundary = (pathname: string) => raw(pathname, "--x\r\nContent-Disposition: form-data; name=\"intent\"\r\n\r\nupload\r\n--x--\r\n", "multipart/form-data");

  /** A test upload may only land in the file server's test folder, under a safe name. */
  const onlyInTestFolder = () => {
    const files = storedFiles().ftp.filter((name) => fs.statSync(path.join(app.dataDir, "ftp", name)).isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(name.split(path.sep).slice(0, -1).join("/")).toBe("AlignersFactory/test");
    expect(fs.existsSync(path.join(app.dataDir, "etc"))).toBe(false);
  };

  /** The partner cabinet user's name as stored: exactly what was typed, never a cut copy. */
  const storedPartnerName = (expected: string) => async () => {
    const row = await t.db.selectFrom("partner_codes").select("user_name").where("user_email", "=", "partner@clinic.ru").executeTakeFirstOrThrow();
    expect(row.user_name).toBe(expected);
  };
  const noNulStored = async () => {
    const order = await t.db.selectFrom("orders").select(["full_name", "address"]).where("id", "=", wizardOrder.id).executeTakeFirstOrThrow();
    expect(`${order.full_name}${order.address}`.includes("\u0000")).toBe(false);
  };

  const setStep = (orderId: () => string, step: number) => async () => {
    await t.db.updateTable("orders").set({ wizard_step: step }).where("id", "=", orderId()).execute();
  };

  // ── the catalogue ──────────────────────────────────────────────────────────────────────────────
  const cases: Case[] = [];
  const add = (route: string, list: Array<Omit<Case, "route">>) => cases.push(...list.map((item) => ({ ...item, route })));

  const WIZ = () => browsers.wizard;
  const WIZ_EN = () => browsers.wizardEn;
  const wizardId = () => wizardOrder.id;
  const wizardEnId = () => wizardEnOrder.id;
  // A step keeps what its form carries even when refused: its texts, and step 3's consent (ADR 087).
  // A patient carries its order's e-mail for the cabinet's search (ADR 098): it follows the draft's.
  const draftFields = { orders: ["email", "phone", "full_name", "address", "delivery_comment", "data_consent_at", "updated_at"], orders_patients: ["order_email"] };

  add("POST /order step 2 (contacts)", [
    { name: "missing e-mail and phone", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next" }), status: 400, message: "Пожалуйста, укажите номер телефона", mayChange: draftFields },
    { name: "missing fields, English", as: WIZ_EN, setup: setStep(wizardEnId, 2), send: post("/order", { intent: "next" }), status: 400, message: "Please enter your phone number", mayChange: draftFields },
    { name: "SQL in e-mail", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: SQLI, phone: "+7 900 000-00-00" }), status: 400, message: "Пожалуйста, укажите корректный email", mayChange: draftFields },
    { name: "script in e-mail is shown back escaped", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: XSS, phone: "+7 900" }), status: 400, message: "Пожалуйста, укажите корректный email", inert: XSS, mayChange: draftFields },
    { name: "10 000-character e-mail", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: `${"a".repeat(10_000)}@x`, phone: "1" }), status: 400, message: "Пожалуйста, укажите корректный email", mayChange: draftFields },
    { name: "NUL in phone", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: "nul@clinic.ru", phone: `+7\u0000900` }), status: 400, message: "Поле содержит недопустимые символы", mayChange: draftFields },
    { name: "bell character in phone", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: "bell@clinic.ru", phone: "+7 900\u0007" }), status: 400, message: "Поле содержит недопустимые символы", mayChange: draftFields },
    { name: "10 000-character phone", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "next", email: "long@clinic.ru", phone: "9".repeat(10_000) }), status: 400, message: "Слишком длинный текст — сократите его", mayChange: draftFields },
    { name: "JSON instead of a form", as: WIZ, setup: setStep(wizardId, 2), send: json("/order", { intent: "next", email: "a@b.ru", phone: "1" }), status: 400, message: "Некорректный запрос" },
    { name: "text/plain instead of a form", as: WIZ, setup: setStep(wizardId, 2), send: textPlain("/order", "intent=next&email=a@b.ru&phone=1"), status: 400, message: "Некорректный запрос" },
    { name: "JSON instead of a form, English", as: WIZ_EN, setup: setStep(wizardEnId, 2), send: json("/order", { intent: "next" }), status: 400, message: "Invalid request" },
    { name: "unknown intent", as: WIZ, setup: setStep(wizardId, 2), send: post("/order", { intent: "drop_everything" }), status: 302 },
  ]);

  add("POST /order step 3 (delivery)", [
    { name: "missing name and address", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", consent: "on" }), status: 400, message: "Пожалуйста, укажите ФИО получателя", mayChange: draftFields },
    { name: "missing consent", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", full_name: "Иванова", address: "Москва" }), status: 400, message: "Необходимо согласие на обработку данных", mayChange: draftFields },
    { name: "10 000-character name", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", full_name: LONG, address: "Москва", consent: "on" }), status: 400, message: "Слишком длинный текст — сократите его", mayChange: draftFields },
    { name: "NUL in address", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", full_name: "Иванова", address: "Москва\u0000", consent: "on" }), status: 400, message: "Поле содержит недопустимые символы", mayChange: draftFields },
    { name: "RTL override in name", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", full_name: CONTROL.rtl, address: "Москва", consent: "on" }), status: 400, message: "Поле содержит недопустимые символы", mayChange: draftFields },
    { name: "script in name, address missing: shown back escaped", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "next", full_name: XSS, address: "", consent: "on" }), status: 400, message: "Пожалуйста, укажите адрес доставки", inert: XSS, mayChange: draftFields },
    { name: "NUL on back: stays on the step with the message, the NUL is not stored", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "back", full_name: CONTROL.nul, address: "Москва", consent: "on" }), status: 400, message: "Поле содержит недопустимые символы", invalid: "full_name", mayChange: draftFields, check: noNulStored },
    { name: "10 000-character comment on back: stays on the step with the message", as: WIZ, setup: setStep(wizardId, 3), send: post("/order", { intent: "back", full_name: "Иванова", address: "Москва", delivery_comment: LONG }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "delivery_comment", mayChange: draftFields },
  ]);

  add("POST /order step 4 (patient)", [
    { name: "missing patient name", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "add_patient" }), status: 400, message: "Пожалуйста, введите имя пациента" },
    { name: "blank patient name", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "add_patient", patient_name: "   \t " }), status: 400, message: "Пожалуйста, введите имя пациента" },
    { name: "10 000-character patient name", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "add_patient", patient_name: LONG }), status: 400, message: "Слишком длинный текст — сократите его" },
    { name: "NUL in patient name", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "add_patient", patient_name: CONTROL.nul }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "bell in patient name, English", as: WIZ_EN, setup: setStep(wizardEnId, 4), send: post("/order", { intent: "add_patient", patient_name: CONTROL.bell }), status: 400, message: "The field contains characters that are not allowed" },
    {
      name: "script as patient name is stored as text and shown escaped",
      as: WIZ,
      setup: setStep(wizardId, 4),
      send: post("/order", { intent: "add_patient", patient_name: XSS_IMG }),
      status: 302,
      inert: XSS_IMG,
      mayChange: { orders_patients: ["*"], orders: ["current_patient_id", "updated_at"] },
      check: async () => {
        await t.db.deleteFrom("orders_patients").where("order_id", "=", wizardOrder.id).where("patient_name", "=", XSS_IMG).execute();
        await t.db.updateTable("orders").set({ current_patient_id: wizardPatientId }).where("id", "=", wizardOrder.id).execute();
      },
    },
    { name: "select a forged patient id", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "select_patient", patientId: FORGED_UUID }), status: 302 },
    { name: "select a non-UUID patient id", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: `select_patient:${SQLI}` }), status: 302 },
  ]);

  const upload = (parts: Parameters<typeof multipart>[1]) => multipart("/order", [...parts, { name: "intent", value: "upload" }]);
  add("POST /order step 5 (matrix upload)", [
    { name: "a text field over 64 KB in an upload", as: WIZ, setup: setStep(wizardId, 5), send: multipart("/order", [{ name: "intent", value: "x".repeat(70_000) }, { name: "files", filename: "a.stl", content: binaryStl(3) }]), status: 400, message: "Некорректный запрос", files: true },
    { name: "a 1 MB form field", as: WIZ, setup: setStep(wizardId, 4), send: post("/order", { intent: "add_patient", patient_name: "x".repeat(1_000_000) }), status: 400, message: "Слишком длинный текст — сократите его" },
    { name: "no file chosen", as: WIZ, setup: setStep(wizardId, 5), send: post("/order", { intent: "next" }), status: 400, message: "Загрузите файлы матрицы или нажмите «Пропустить»", files: true },
    { name: "a .txt renamed .stl", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "notes.stl", content: "just some text, not a model\n" }]), status: 302, message: "содержимое файла не является STL-моделью", files: true },
    { name: "header lies about the triangle count", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "liar.stl", content: binaryStl(10, 1_000_000) }]), status: 302, message: "файл обрезан", files: true },
    { name: "a real model cut short (an interrupted copy)", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "gearwheel.stl", content: corpusFile("derived_gearwheel.cut-short.bin.stl") }]), status: 302, message: "файл обрезан — похоже, копирование прервалось; загрузите полный файл", files: true },
    { name: "a real model cut short, English", as: WIZ_EN, setup: setStep(wizardEnId, 5), send: upload([{ name: "files", filename: "gearwheel.stl", content: corpusFile("derived_gearwheel.cut-short.bin.stl") }]), status: 302, message: "the file is cut short", files: true },
    { name: "a PNG image renamed .stl", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "photo.stl", content: pngImage() }]), status: 302, message: "содержимое файла не является STL-моделью", files: true },
    { name: "empty .stl", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "empty.stl", content: "" }]), status: 302, message: /файл пустой|Ни один из выбранных файлов/, files: true },
    { name: "a PLY point cloud (vertices, no faces)", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "cloud.ply", content: "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 1 1\n" }]), status: 302, message: "в файле только точки — нет поверхности", files: true },
    { name: "an OBJ point cloud, English", as: WIZ_EN, setup: setStep(wizardEnId, 5), send: upload([{ name: "files", filename: "cloud.obj", content: "v 0 0 0\nv 1 1 1\n" }]), status: 302, message: "the file holds only points", files: true },
    { name: "an empty PLY (no vertices, no faces)", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "empty.ply", content: "ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n" }]), status: 302, message: "файл пустой", files: true },
    { name: "an OBJ whose face points past its vertices", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "plan.obj", content: "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n" }]), status: 302, message: "поверхность ссылается на точки, которых в файле нет", files: true },
    { name: "a PNG image renamed .ply", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "photo.ply", content: pngImage() }]), status: 302, message: "не читается как модель PLY или OBJ", files: true },
    { name: "a real binary PLY cut short", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "gearwheel.ply", content: meshCorpusFile("assimp_gearwheel.bin.ply").subarray(0, 100_000) }]), status: 302, message: "файл обрезан", files: true },
    { name: "a PLY header with a line PLY does not have", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "odd.ply", content: "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n<script>alert(1)</script>\nend_header\n0\n" }]), status: 302, message: "не читается как модель PLY или OBJ", files: true },
    { name: "wrong extension", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "photo.png", content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]), status: 302, message: "Разрешены только файлы .stl", files: true },
    { name: "a .txt renamed .stl, English", as: WIZ_EN, setup: setStep(wizardEnId, 5), send: upload([{ name: "files", filename: "notes.stl", content: "plain text\n" }]), status: 302, message: "not an STL model", files: true },
    { name: "path traversal ../../etc/passwd.stl (not STL)", as: WIZ, setup: setStep(wizardId, 5), send: upload([{ name: "files", filename: "../../etc/passwd.stl", content: "root:x:0:0\n" }]), status: 302, message: "содержимое файла не является STL-моделью", files: true },
    { name: "truncated multipart body", as: WIZ, setup: setStep(wizardId, 5), send: truncated("/order", "files", "cut.stl"), status: [400, 302], message: /Некорректный запрос|Ошибка загрузки|Нет подходящих файлов/, files: true },
    { name: "multipart without a boundary", as: WIZ, setup: setStep(wizardId, 5), send: noBoundary("/order"), status: [400, 302], message: /Некорректный запрос|Ошибка загрузки/, files: true },
    { name: "remove a forged storage path", as: WIZ, setup: setStep(wizardId, 5), send: post("/order", { intent: "remove:matrix:../../other-order/secret.stl" }), status: 302, message: "Невозможно удалить файл", files: true },
    { name: "remove with an unknown file type", as: WIZ, setup: setStep(wizardId, 5), send: post("/order", { intent: "remove:passwd:x.stl" }), status: 302, files: true },
  ]);

  add("POST /order steps 6, 8, 9 (choices)", [
    { name: "unknown matrix type", as: WIZ, setup: setStep(wizardId, 6), send: post("/order", { intent: "next", matrix_type: "titanium" }), status: 400, message: "Пожалуйста, выберите тип матрицы" },
    { name: "unknown material", as: WIZ, setup: setStep(wizardId, 8), send: post("/order", { intent: "next", material_type: "'; drop table orders; --" }), status: 400, message: "Пожалуйста, выберите тип материала" },
    { name: "unknown cut type", as: WIZ, setup: setStep(wizardId, 9), send: post("/order", { intent: "next", cut_type: "-1" }), status: 400, message: "Пожалуйста, выберите тип обрезки", mayChange: { orders_patients: ["updated_at"] } },
    { name: "NUL in the comment", as: WIZ, setup: setStep(wizardId, 9), send: post("/order", { intent: "next", cut_type: "wavy", additional_comments: "обрезать\u0000" }), status: 400, message: "Поле содержит недопустимые символы", invalid: "additional_comments", mayChange: { orders_patients: ["cut_type", "updated_at"] } },
    { name: "NUL in the comment on back: stays on the step with the message", as: WIZ, setup: setStep(wizardId, 9), send: post("/order", { intent: "back", cut_type: "wavy", additional_comments: "обрезать\u0000" }), status: 400, message: "Поле содержит недопустимые символы", invalid: "additional_comments", mayChange: { orders_patients: ["cut_type", "updated_at"] } },
  ]);

  add("GET /order?id=", [
    { name: "not a UUID", send: get(`/order?id=${encodeURIComponent(SQLI)}`), status: 404, message: "Страница не найдена" },
    { name: "a forged UUID", send: get(`/order?id=${FORGED_UUID}`), status: 404, message: "Страница не найдена" },
    { name: "someone else's order", send: (b) => get(`/order?id=${wizardOrder.id}`)(b), status: 404, message: "Страница не найдена" },
  ]);

  add("POST /order/new", [{ name: "unknown reason", send: post("/order/new", { reason: XSS }), status: 302 }]);

  add("POST /auth (sign-in)", [
    { name: "missing e-mail", send: post("/auth", {}), status: 400, message: "Пожалуйста, укажите email" },
    { name: "missing e-mail, English", as: () => browsers.anonymousEn, send: post("/auth", {}), status: 400, message: "Please enter your email" },
    { name: "SQL as e-mail", send: post("/auth", { email: SQLI }), status: 400, message: "Пожалуйста, укажите корректный email" },
    { name: "script as e-mail is shown back escaped", send: post("/auth", { email: XSS }), status: 400, message: "Пожалуйста, укажите корректный email", inert: XSS },
    { name: "NUL in e-mail", send: post("/auth", { email: "doc\u0000tor@clinic.ru" }), status: 400, message: "Пожалуйста, укажите корректный email" },
    { name: "10 000-character e-mail", send: post("/auth", { email: `${"a".repeat(10_000)}@clinic.ru` }), status: 400, message: "Пожалуйста, укажите корректный email" },
    { name: "wrong code", send: post("/auth?sent=doctor%40clinic.ru", { intent: "code", email: "doctor@clinic.ru", code: "000000" }), status: 400, message: "Неверный или устаревший код" },
    { name: "SQL as code", send: post("/auth?sent=doctor%40clinic.ru", { intent: "code", email: "doctor@clinic.ru", code: SQLI }), status: 400, message: "Неверный или устаревший код" },
    { name: "NUL in code and e-mail", send: post("/auth?sent=a%40b.ru", { intent: "code", email: "a\u0000@b.ru", code: "12\u00003456" }), status: 400, message: "Неверный или устаревший код" },
    { name: "JSON instead of a form", send: json("/auth", { email: "doctor@clinic.ru" }), status: 400, message: "Некорректный запрос" },
    { name: "open redirect in redirectTo", send: post("/auth", { email: "not-an-email", redirectTo: "//evil.example" }), status: 400 },
  ]);

  add("POST /auth/verify", [
    { name: "missing token", send: post("/auth/verify", {}), status: [400, 302], message: /ссылка|Ссылка/ },
    { name: "forged token", send: post("/auth/verify", { token: FORGED_UUID }), status: [400, 302], message: /ссылка|Ссылка/ },
    { name: "NUL token", send: post("/auth/verify", { token: "\u0000".repeat(64) }), status: [400, 302], message: /ссылка|Ссылка/ },
  ]);

  add("POST /language", [
    { name: "unknown language", send: post("/language", { lng: "pl" }), status: 400, message: "Некорректный запрос" },
    { name: "unknown language, English", as: () => browsers.anonymousEn, send: post("/language", { lng: "xx" }), status: 400, message: "Invalid request" },
    { name: "SQL as language", send: post("/language", { lng: SQLI }), status: 400 },
    { name: "a return address beyond Latin-1", send: post("/language", { lng: "en", redirectTo: "/\u0100" }), status: 400, message: "Некорректный запрос" },
  ]);

  add("POST /cabinet", [
    { name: "unknown channel", as: () => browsers.user, send: post("/cabinet", { channel: "pigeon" }), status: 400, message: "Некорректный запрос" },
    { name: "unknown channel, English", as: () => browsers.userEn, send: post("/cabinet", { channel: SQLI }), status: 400, message: "Invalid request" },
    { name: "missing channel", as: () => browsers.user, send: post("/cabinet", {}), status: 400, message: "Некорректный запрос" },
    { name: "JSON instead of a form", as: () => browsers.user, send: json("/cabinet", { channel: "email" }), status: 400, message: "Некорректный запрос" },
  ]);

  add("POST /partner", [
    { name: "empty name", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: "  " }), status: 400, message: "Имя не может быть пустым" },
    // Nothing lost silently (issue 19): refused with the field's message, the typed name shown back, nothing stored.
    { name: "201-character name: refused, kept in the field, not cut", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: "Я".repeat(201) }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "user_name", kept: "Я".repeat(201) },
    { name: "10 000-character name: refused, kept in the field", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: LONG }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "user_name", kept: LONG },
    { name: "200-character name is saved exactly as typed", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: "Ж".repeat(200) }), status: 302, message: "Имя сохранено", mayChange: { partner_codes: ["user_name", "updated_at"] }, check: storedPartnerName("Ж".repeat(200)) },
    { name: "51-character contact phone: refused, kept", as: () => browsers.user, send: post("/partner", { intent: "contacts", contact_email: "p@clinic.ru", contact_phone: "9".repeat(51), offer: "on" }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "contact_phone", kept: "9".repeat(51) },
    { name: "over-long contact e-mail: refused, kept", as: () => browsers.user, send: post("/partner", { intent: "contacts", contact_email: `${"a".repeat(250)}@clinic.ru`, contact_phone: "+7 900", offer: "on" }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "contact_email", kept: `${"a".repeat(250)}@clinic.ru` },
    { name: "201-character name, English", as: () => browsers.userEn, send: post("/partner", { intent: "name", user_name: "x".repeat(201) }), status: 400, message: "The text is too long", invalid: "user_name", kept: "x".repeat(201) },
    { name: "NUL in name", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: CONTROL.nul }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "RTL override in name", as: () => browsers.user, send: post("/partner", { intent: "name", user_name: CONTROL.rtl }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "missing contacts", as: () => browsers.user, send: post("/partner", { intent: "contacts" }), status: 400, message: "Телефон и e-mail обязательны" },
    { name: "script as contact e-mail, shown back escaped", as: () => browsers.user, send: post("/partner", { intent: "contacts", contact_email: XSS, contact_phone: "+7 900" }), status: 400, message: "Укажите корректный e-mail", inert: XSS },
    { name: "NUL in contact phone", as: () => browsers.user, send: post("/partner", { intent: "contacts", contact_email: "p@clinic.ru", contact_phone: "+7\u0000900", offer: "on" }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "text/plain instead of a form, English", as: () => browsers.userEn, send: textPlain("/partner", "intent=name&user_name=x"), status: 400, message: "Invalid request" },
    { name: "unknown intent", as: () => browsers.user, send: post("/partner", { intent: "payout_me" }), status: 400, message: "Некорректный запрос" },
    { name: "empty name, English", as: () => browsers.userEn, send: post("/partner", { intent: "name", user_name: "" }), status: 400, message: "The name cannot be empty" },
  ]);

  add("POST /backoffice/login (gate)", [
    { name: "missing password", send: post("/backoffice/login", {}), status: 401, message: "Неверный пароль. Пожалуйста, попробуйте еще раз." },
    { name: "SQL as password", send: post("/backoffice/login", { password: SQLI }), status: 401, message: "Неверный пароль" },
    { name: "NUL in password", send: post("/backoffice/login", { password: `${SECRETS.BACKOFFICE_PASSWORD}\u0000` }), status: 401, message: "Неверный пароль" },
    { name: "10 000-character password, English", as: () => browsers.anonymousEn, send: post("/backoffice/login", { password: LONG }), status: 401, message: "Incorrect password. Please try again." },
    { name: "JSON instead of a form", send: json("/backoffice/login", { password: SECRETS.BACKOFFICE_PASSWORD }), status: 400, message: "Некорректный запрос" },
  ]);

  const STAFF = () => browsers.staff;
  add("POST /backoffice/clients (conditions)", [
    { name: "missing e-mail and currency", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", {}), status: 400, message: "Некорректный e-mail клиента" },
    { name: "negative price", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", alignerPrice: "-5" }), status: 400, message: "Значение не может быть меньше 0" },
    { name: "huge price", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", matrixPrice: "1e300" }), status: 400, message: "Слишком большое значение" },
    { name: "discount over 100", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", discountPercentage: "1000" }), status: 400, message: "Скидка не может быть больше 100" },
    { name: "not a number", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", alignerPrice: SQLI }), status: 400, message: "Введите число" },
    { name: "unknown currency", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "btc" }), status: 400, message: "Выберите валюту" },
    { name: "10 000-character comment", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", personalComment: LONG }), status: 400, message: "Комментарий не длиннее 2000 символов" },
    { name: "NUL in comment", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", personalComment: "VIP\u0000" }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "script as e-mail, shown back escaped", as: STAFF, send: post("/backoffice/clients?client=c%40clinic.ru", { email: XSS, currency: "rub" }), status: 400, message: "Некорректный e-mail клиента" },
    { name: "NaN as discount, English", as: () => browsers.staffEn, send: post("/backoffice/clients?client=c%40clinic.ru", { email: "c@clinic.ru", currency: "rub", discountPercentage: "NaN" }), status: 400, message: "Enter a number" },
  ]);

  const ADMIN = () => browsers.admin;
  add("POST /backoffice/roles", [
    { name: "missing e-mail and role", as: ADMIN, send: post("/backoffice/roles", { intent: "assign_email" }), status: 400, message: "Введите email и выберите роль" },
    { name: "unknown role", as: ADMIN, send: post("/backoffice/roles", { intent: "assign_email", email: "someone@clinic.ru", role: "superuser" }), status: 400, message: "Введите email и выберите роль" },
    { name: "unknown e-mail shown back escaped", as: ADMIN, send: post("/backoffice/roles", { intent: "assign_email", email: XSS_IMG, role: "manager" }), status: 400, message: "Пользователь с таким email не найден", inert: XSS_IMG },
    { name: "NUL in e-mail", as: ADMIN, send: post("/backoffice/roles", { intent: "assign_email", email: "a\u0000@b.ru", role: "manager" }), status: 400, message: "Пользователь с таким email не найден" },
    { name: "the retired pick-a-user form", as: ADMIN, send: post("/backoffice/roles", { intent: "assign_user", userId: FORGED_UUID, role: "manager" }), status: 400, message: "Некорректный запрос" },
    { name: "remove with a non-UUID user", as: ADMIN, send: post("/backoffice/roles", { intent: "remove", userId: SQLI, role: "manager" }), status: 302, message: "Не удалось удалить роль" },
    { name: "remove from a non-UUID user", as: ADMIN, send: post("/backoffice/roles", { intent: "remove", userId: NOT_UUID, role: "manager" }), status: 302, message: "Не удалось удалить роль" },
    { name: "remove an unknown role", as: ADMIN, send: post("/backoffice/roles", { intent: "remove", userId: "x", role: "root" }), status: 400, message: "Некорректный запрос" },
    { name: "unknown intent", as: ADMIN, send: post("/backoffice/roles", { intent: "grant_everything" }), status: 400, message: "Некорректный запрос" },
    { name: "remove the last admin's role", as: ADMIN, send: (b) => post("/backoffice/roles", { intent: "remove", userId: adminId, role: "admin", confirm: "yes" })(b), status: 302, message: "Нельзя удалить роль у последнего администратора" },
  ]);

  add("POST /backoffice/orders/:id/status", [
    { name: "unknown status", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "refunded" })(b), status: 302, message: "Такой переход статуса не разрешён" },
    { name: "forbidden transition paid → draft", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "draft" })(b), status: 302, message: "Такой переход статуса не разрешён" },
    { name: "cancel without a note", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "cancelled", note: "" })(b), status: 302, message: "Укажите причину отмены" },
    { name: "ship without a tracking number", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "shipped" })(b), status: 302, message: /Такой переход статуса не разрешён|Укажите трек-номер/ },
    { name: "non-UUID order id", as: STAFF, send: post(`/backoffice/orders/${encodeURIComponent(SQLI)}/status`, { to: "processing" }), status: 302, message: "Заказ не найден" },
    { name: "forged order id", as: STAFF, send: post(`/backoffice/orders/${FORGED_UUID}/status`, { to: "processing" }), status: 302, message: "Заказ не найден" },
    { name: "NUL in the cancel note", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "cancelled", note: "дубль\u0000" })(b), status: 302, message: "Поле содержит недопустимые символы" },
    { name: "1001-character cancel note: refused, not cut", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "cancelled", note: "н".repeat(1001) })(b), status: 302, message: "Слишком длинный текст — сократите его" },
    { name: "101-character tracking number: refused, not cut", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "processing", trackingNumber: "R".repeat(101) })(b), status: 302, message: "Слишком длинный текст — сократите его" },
    { name: "RTL override in the tracking number", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "processing", trackingNumber: "RA\u202E123" })(b), status: 302, message: "Поле содержит недопустимые символы" },
    { name: "unknown status, English", as: () => browsers.staffEn, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "refunded" })(b), status: 302, message: "This status change is not allowed" },
    { name: "text/plain instead of a form", as: STAFF, send: (b) => textPlain(`/backoffice/orders/${paidOrder.id}/status`, "to=cancelled&note=x")(b), status: 400, message: "Некорректный запрос" },
    { name: "open redirect in back", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "refunded", back: "https://evil.example/" })(b), status: 302, message: "Такой переход статуса не разрешён" },
    { name: "a return address beyond Latin-1", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/status`, { to: "processing", back: "/backoffice?q=\u0100" })(b), status: 400, message: "Некорректный запрос" },
  ]);

  // A card's status change posted to the dashboard itself: a refusal is the page again (400) with the card's form holding what was typed (ADR 105).
  const onDashboard = (form: Record<string, string>) => post(`/backoffice?index&tab=all&q=${encodeURIComponent(form.orderId!.slice(0, 8))}`, { intent: "status", ...form });
  add("POST /backoffice (a card's status change)", [
    { name: "ship a paid order: not allowed, the tracking number kept", as: STAFF, send: (b) => onDashboard({ orderId: paidOrder.id, to: "shipped", carrier: "russian_post", trackingNumber: "RA123456789RU" })(b), status: 400, message: "Такой переход статуса не разрешён", invalid: "trackingNumber", kept: "RA123456789RU" },
    { name: "cancel without a note", as: STAFF, send: (b) => onDashboard({ orderId: paidOrder.id, to: "cancelled", confirm: "yes", note: "" })(b), status: 400, message: "Укажите причину отмены" },
    { name: "1001-character cancel note: refused, not cut, kept", as: STAFF, send: (b) => onDashboard({ orderId: paidOrder.id, to: "cancelled", confirm: "yes", note: "н".repeat(1001) })(b), status: 400, message: "Слишком длинный текст — сократите его", invalid: "note", kept: "н".repeat(1001) },
    { name: "script in the tracking number is shown back escaped", as: STAFF, send: (b) => onDashboard({ orderId: paidOrder.id, to: "shipped", trackingNumber: XSS })(b), status: 400, message: "Такой переход статуса не разрешён", inert: XSS },
    { name: "forged order id", as: STAFF, send: onDashboard({ orderId: FORGED_UUID, to: "processing" }), status: 400, message: "Заказ не найден" },
    { name: "non-UUID order id", as: STAFF, send: onDashboard({ orderId: SQLI, to: "processing" }), status: 400, message: "Заказ не найден" },
    { name: "unknown status, English", as: () => browsers.staffEn, send: (b) => onDashboard({ orderId: paidOrder.id, to: "refunded" })(b), status: 400, message: "This status change is not allowed" },
  ]);

  add("POST /backoffice/erasures", [
    { name: "an id of 36 dashes", as: ADMIN, send: post("/backoffice/erasures", { intent: "approve", id: "-".repeat(36) }), status: 400, message: "Некорректный запрос" },
    { name: "a forged id", as: ADMIN, send: post("/backoffice/erasures", { intent: "approve", id: FORGED_UUID }), status: 302, message: "Запрос уже обработан или не найден" },
  ]);

  add("POST /backoffice/orders/:id/delete", [
    { name: "a paid order", as: STAFF, send: (b) => post(`/backoffice/orders/${paidOrder.id}/delete`, {})(b), status: 302, message: "Заказ был оплачен: его можно только отменить." },
    { name: "non-UUID order id", as: STAFF, send: post(`/backoffice/orders/${NOT_UUID}/delete`, {}), status: 302, message: "Заказ не найден" },
    { name: "forged order id", as: STAFF, send: post(`/backoffice/orders/${FORGED_UUID}/delete`, {}), status: 302, message: "Заказ не найден" },
    { name: "JSON instead of a form", as: STAFF, send: (b) => json(`/backoffice/orders/${draftOrder.id}/delete`, { confirm: true })(b), status: 400, message: "Некорректный запрос" },
  ]);

  // Staff's correction of a file's jaw and step (ADR 058): the file must be this order's, the values the form's.
  const FILES = () => `/backoffice/orders/${filedOrder.id}/files`;
  const correction = (values: Record<string, string>) => (b: Browser) => post(FILES(), { patientId: filedOrder.patientId, type: "aligners", path: filedOrder.path, jaw: "lower", step: "2", ...values })(b);
  add("POST /backoffice/orders/:id/files (jaw and step)", [
    { name: "forged file path", as: STAFF, send: (b) => correction({ path: `order_${filedOrder.id}/../../etc/passwd` })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "a path no file has", as: STAFF, send: (b) => correction({ path: `${filedOrder.path}.bak` })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "another order's file", as: STAFF, send: (b) => correction({ patientId: otherOrder.patientId, path: otherOrder.path })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "another order's file under this order's patient", as: STAFF, send: (b) => correction({ path: otherOrder.path })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "the file under another kind", as: STAFF, send: (b) => correction({ type: "matrix" })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "unknown kind", as: STAFF, send: (b) => correction({ type: "crowns" })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "non-UUID patient", as: STAFF, send: (b) => correction({ patientId: SQLI })(b), status: 302, message: "Файл не найден в этом заказе" },
    { name: "bad jaw value", as: STAFF, send: (b) => correction({ jaw: "middle" })(b), status: 302, message: "Выберите челюсть: верхняя или нижняя" },
    { name: "missing jaw", as: STAFF, send: (b) => correction({ jaw: "" })(b), status: 302, message: "Выберите челюсть: верхняя или нижняя" },
    { name: "step 0", as: STAFF, send: (b) => correction({ step: "0" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "step 9999", as: STAFF, send: (b) => correction({ step: "9999" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "step not a number", as: STAFF, send: (b) => correction({ step: "три" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "negative step", as: STAFF, send: (b) => correction({ step: "-3" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "fractional step", as: STAFF, send: (b) => correction({ step: "2.5" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "step in exponent form", as: STAFF, send: (b) => correction({ step: "1e2" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "NUL in the step", as: STAFF, send: (b) => correction({ step: "2\u0000" })(b), status: 302, message: "Номер шага — целое число от 1 до 999" },
    { name: "an aligner without its step", as: STAFF, send: (b) => correction({ step: "" })(b), status: 302, message: "Для элайнера укажите номер шага" },
    { name: "step 9999, English", as: () => browsers.staffEn, send: (b) => correction({ step: "9999" })(b), status: 302, message: "The step number is a whole number from 1 to 999" },
    { name: "forged order id", as: STAFF, send: (b) => post(`/backoffice/orders/${FORGED_UUID}/files`, { patientId: filedOrder.patientId, type: "aligners", path: filedOrder.path, jaw: "lower", step: "2" })(b), status: 302, message: "Заказ не найден" },
    { name: "non-UUID order id", as: STAFF, send: post(`/backoffice/orders/${NOT_UUID}/files`, { type: "aligners", jaw: "lower", step: "2" }), status: 302, message: "Заказ не найден" },
    { name: "JSON instead of a form", as: STAFF, send: (b) => json(FILES(), { patientId: filedOrder.patientId, type: "aligners", path: filedOrder.path, jaw: "lower", step: "2" })(b), status: 400, message: "Некорректный запрос" },
  ]);

  // Ordering again from a patient (ADR 071): the clinic's own past order, patient and files only.
  const AGAIN = () => `/cabinet/again/${filedOrder.id}/${filedOrder.patientId}`;
  const CLINIC = () => browsers.clinic;
  const againForm = (entries: Array<[string, string]>) => (b: Browser) => raw(AGAIN(), new URLSearchParams(entries).toString(), "application/x-www-form-urlencoded")(b);
  add("POST /cabinet/again/:orderId/:patientId (order again)", [
    { name: "no kind", as: CLINIC, send: againForm([]), status: 400, message: "Выберите, что нужно изготовить", files: true },
    { name: "SQL as the kind", as: CLINIC, send: againForm([["kind", SQLI]]), status: 400, message: "Выберите, что нужно изготовить", files: true },
    { name: "unknown kind, English", as: () => browsers.clinicEn, send: againForm([["kind", "crown"]]), status: 400, message: "Choose what should be made", files: true },
    { name: "a replacement with no file ticked", as: CLINIC, send: againForm([["kind", "replacement"]]), status: 400, message: "Отметьте файлы элайнеров, которые нужно изготовить заново", files: true },
    { name: "a path out of the patient's folder", as: CLINIC, send: againForm([["kind", "replacement"], ["files", "../../etc/passwd"]]), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "another clinic's file", as: CLINIC, send: (b) => againForm([["kind", "replacement"], ["files", otherOrder.path]])(b), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "another clinic's file as a retainer", as: CLINIC, send: (b) => againForm([["kind", "retainer"], ["files", otherOrder.path]])(b), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "a 10 000-character path", as: CLINIC, send: againForm([["kind", "replacement"], ["files", LONG]]), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "NUL in the path", as: CLINIC, send: (b) => againForm([["kind", "replacement"], ["files", `${filedOrder.path}\u0000`]])(b), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "script as the path", as: CLINIC, send: againForm([["kind", "replacement"], ["files", XSS]]), status: 400, message: "Такого файла нет среди файлов пациента", files: true },
    { name: "the patient's file no longer stored", as: CLINIC, send: (b) => againForm([["kind", "replacement"], ["files", filedOrder.path]])(b), status: 400, message: "Файл из этого заказа больше не хранится", files: true },
    { name: "another clinic's order", as: CLINIC, send: (b) => raw(`/cabinet/again/${otherOrder.id}/${otherOrder.patientId}`, "kind=new_stage", "application/x-www-form-urlencoded")(b), status: 404, message: "Страница не найдена", files: true },
    { name: "another clinic's patient under the own order", as: CLINIC, send: (b) => raw(`/cabinet/again/${filedOrder.id}/${otherOrder.patientId}`, "kind=new_stage", "application/x-www-form-urlencoded")(b), status: 404, message: "Страница не найдена", files: true },
    { name: "a forged order id", as: CLINIC, send: (b) => raw(`/cabinet/again/${FORGED_UUID}/${filedOrder.patientId}`, "kind=new_stage", "application/x-www-form-urlencoded")(b), status: 404, message: "Страница не найдена", files: true },
    { name: "non-UUID ids", as: CLINIC, send: raw(`/cabinet/again/${NOT_UUID}/${encodeURIComponent(SQLI)}`, "kind=new_stage", "application/x-www-form-urlencoded"), status: 404, message: "Страница не найдена", files: true },
    { name: "JSON instead of a form", as: CLINIC, send: (b) => json(AGAIN(), { kind: "new_stage" })(b), status: 400, message: "Некорректный запрос", files: true },
  ]);

  add("POST /backoffice/translate", [
    { name: "missing texts", as: STAFF, send: post("/backoffice/translate", { intent: "add", targetLanguage: "en" }), status: 400, message: "Заполните оригинальный текст и перевод" },
    { name: "unknown language", as: STAFF, send: post("/backoffice/translate", { intent: "add", originalText: "Привет", translatedText: "Hi", targetLanguage: "klingon" }), status: 400, message: "Выберите язык перевода" },
    { name: "10 000-character text", as: STAFF, send: post("/backoffice/translate", { intent: "add", originalText: LONG, translatedText: "x", targetLanguage: "en" }), status: 400, message: "Текст слишком длинный: не больше 5000 символов" },
    { name: "NUL in the translation", as: STAFF, send: post("/backoffice/translate", { intent: "add", originalText: "Привет", translatedText: "Hi\u0000", targetLanguage: "de" }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "update a non-UUID id", as: STAFF, send: post("/backoffice/translate", { intent: "update", id: SQLI, originalText: "a", translatedText: "b", targetLanguage: "en" }), status: [302, 400], message: "Перевод не найден" },
    { name: "update a forged id", as: STAFF, send: post("/backoffice/translate", { intent: "update", id: FORGED_UUID, originalText: "a", translatedText: "b", targetLanguage: "en" }), status: 302, message: "Перевод не найден" },
    { name: "delete a forged id", as: STAFF, send: post("/backoffice/translate", { intent: "delete", id: FORGED_UUID }), status: 302, message: "Перевод не найден" },
    { name: "placeholders dropped", as: STAFF, send: (b) => post("/backoffice/translate", { intent: "update", id: translationId, originalText: "Заказ {{number}}", translatedText: "Order", targetLanguage: "en" })(b), status: 400, message: "Перевод должен содержать те же подстановки" },
    {
      name: "script in a translation is stored as text and shown escaped",
      as: STAFF,
      send: post("/backoffice/translate", { intent: "add", originalText: "Привет", translatedText: XSS, targetLanguage: "fr" }),
      status: 302,
      message: "Перевод добавлен",
      inert: XSS,
      mayChange: { translations: ["*"] },
      check: async () => {
        await t.db.deleteFrom("translations").where("translated_text", "=", XSS).execute();
      },
    },
    { name: "unknown intent", as: STAFF, send: post("/backoffice/translate", { intent: "truncate" }), status: 400, message: "Некорректный запрос" },
  ]);

  add("POST /backoffice/files (storage)", [
    { name: "path traversal folder", as: STAFF, send: post("/backoffice/files", { intent: "delete_folder", folder: "../../etc" }), status: 302, message: /Не папка заказа|Папка не найдена/, files: true },
    { name: "order folder that does not exist", as: STAFF, send: post("/backoffice/files", { intent: "delete_folder", folder: `order_${FORGED_UUID}` }), status: 302, message: /Папка не найдена|Не папка заказа/, files: true },
    { name: "NUL in folder name", as: STAFF, send: post("/backoffice/files", { intent: "delete_folder", folder: "order_\u0000" }), status: 302, message: /Не папка заказа|Папка не найдена/, files: true },
    { name: "a live order's folder", as: STAFF, send: (b) => post("/backoffice/files", { intent: "delete_folder", folder: `order_${paidOrder.id}` })(b), status: 302, message: /Папка не найдена|не удаляется|Нельзя удалить/, files: true },
  ]);

  add("POST /backoffice/affiliates", [
    { name: "non-UUID partner", as: STAFF, send: post("/backoffice/affiliates", { intent: "add_payout", partner_code_id: SQLI }), status: 400, message: "Некорректный запрос" },
    { name: "forged partner", as: STAFF, send: post("/backoffice/affiliates", { intent: "add_payout", partner_code_id: FORGED_UUID, amount: "100", year: "2026", quarter: "1" }), status: 302 },
  ]);

  const AFFILIATES = () => `/backoffice/affiliates?open=${partner.code}`;
  const payout = (fields: Record<string, string>) => (b: Browser) => post(AFFILIATES(), { intent: "add_payout", partner_code_id: partner.id, ...fields })(b);
  add("POST /backoffice/affiliates", [
    { name: "negative payout", as: STAFF, send: payout({ amount: "-100", year: "2026", quarter: "1" }), status: 400, message: "Введите сумму больше 0" },
    { name: "huge payout", as: STAFF, send: payout({ amount: "99999999999999999999", year: "2026", quarter: "1" }), status: 400, message: "Введите сумму больше 0" },
    { name: "quarter 0 and year 1999", as: STAFF, send: payout({ amount: "100", year: "1999", quarter: "0" }), status: 400, message: "Квартал должен быть от 1 до 4" },
    { name: "SQL as amount", as: STAFF, send: payout({ amount: SQLI, year: "2026", quarter: "1" }), status: 400, message: "Введите сумму больше 0" },
    { name: "NUL in the note", as: STAFF, send: payout({ amount: "100", year: "2026", quarter: "1", note: "бонус\u0000" }), status: 400, message: "Поле содержит недопустимые символы" },
    { name: "501-character note: refused, kept in the field, not cut", as: STAFF, send: payout({ amount: "100", year: "2026", quarter: "1", note: "б".repeat(501) }), status: 400, message: "Слишком длинный текст — сократите его", invalid: "note", kept: "б".repeat(501) },
    { name: "delete a forged payout", as: STAFF, send: (b) => post(AFFILIATES(), { intent: "delete_payout", partner_code_id: partner.id, payout_id: FORGED_UUID })(b), status: 302, message: "Не удалось удалить выплату" },
    { name: "percentage over 100", as: STAFF, send: (b) => post(AFFILIATES(), { intent: "set_percentage", partner_code_id: partner.id, percentage: "1000" })(b), status: 400, message: "Процент должен быть в диапазоне 0-100" },
    { name: "negative percentage", as: STAFF, send: (b) => post(AFFILIATES(), { intent: "set_percentage", partner_code_id: partner.id, percentage: "-5" })(b), status: 400, message: "Процент должен быть в диапазоне 0-100" },
  ]);

  add("POST /backoffice (payment links)", [
    { name: "link for a forged order", as: STAFF, send: post("/backoffice?index", { intent: "payment_link", orderId: FORGED_UUID }), status: 302, message: "Не удалось создать ссылку на оплату" },
    { name: "link for a non-UUID order", as: STAFF, send: post("/backoffice?index", { intent: "payment_link", orderId: SQLI }), status: 302, message: "Не удалось создать ссылку на оплату" },
    { name: "unknown intent", as: STAFF, send: post("/backoffice?index", { intent: "wipe" }), status: 302, message: "Не удалось создать ссылку на оплату" },
  ]);

  add("POST /backoffice/orders/:id/tracker", [
    { name: "forged order", as: STAFF, send: post(`/backoffice/orders/${FORGED_UUID}/tracker`, {}), status: 404 },
    { name: "non-UUID order", as: STAFF, send: post(`/backoffice/orders/${NOT_UUID}/tracker`, {}), status: 404 },
  ]);

  // An order's thread (ADR 104): the clinic writes on its own order's page, staff on the order's thread tab.
  const CABINET_ORDER = () => `/cabinet/orders/${filedOrder.id}`;
  const THREAD = () => `/backoffice/orders/${filedOrder.id}/thread`;
  add("POST /cabinet/orders/:orderId (thread message)", [
    { name: "empty message", as: CLINIC, send: (b) => post(CABINET_ORDER(), { intent: "message", body: "   " })(b), status: 400, message: "Напишите сообщение", invalid: "body" },
    { name: "empty message, English", as: () => browsers.clinicEn, send: (b) => post(CABINET_ORDER(), { intent: "message", body: "" })(b), status: 400, message: "Write a message", invalid: "body" },
    { name: "10 000-character message: refused, kept in the field, not cut", as: CLINIC, send: (b) => post(CABINET_ORDER(), { intent: "message", body: LONG })(b), status: 400, message: "Сообщение длиннее 4000 знаков — сократите его", invalid: "body", kept: LONG },
    { name: "NUL in the message", as: CLINIC, send: (b) => post(CABINET_ORDER(), { intent: "message", body: "Вопрос\u0000" })(b), status: 400, message: "Поле содержит недопустимые символы", invalid: "body" },
    { name: "right-to-left override in the message", as: CLINIC, send: (b) => post(CABINET_ORDER(), { intent: "message", body: CONTROL.rtl })(b), status: 400, message: "Поле содержит недопустимые символы", invalid: "body" },
    {
      name: "script in a message is stored as text and shown escaped",
      as: CLINIC,
      send: (b) => post(CABINET_ORDER(), { intent: "message", body: XSS_IMG })(b),
      status: 302,
      message: "Сообщение отправлено",
      inert: XSS_IMG,
      mayChange: { order_messages: ["*"], order_threads: ["*"] },
      check: async () => {
        await t.db.deleteFrom("order_messages").where("order_id", "=", filedOrder.id).execute();
        await t.db.deleteFrom("order_threads").where("order_id", "=", filedOrder.id).execute();
      },
    },
    { name: "another clinic's order", as: CLINIC, send: (b) => post(`/cabinet/orders/${otherOrder.id}`, { intent: "message", body: "Чужой заказ" })(b), status: 404, message: "Страница не найдена" },
    { name: "a forged order id", as: CLINIC, send: post(`/cabinet/orders/${FORGED_UUID}`, { intent: "message", body: "Подделка" }), status: 404, message: "Страница не найдена" },
    { name: "a non-UUID order id", as: CLINIC, send: post(`/cabinet/orders/${encodeURIComponent(SQLI)}`, { intent: "message", body: "Подделка" }), status: 404, message: "Страница не найдена" },
    { name: "a lab note sent by the clinic", as: CLINIC, send: (b) => post(CABINET_ORDER(), { intent: "note", body: "Заметка" })(b), status: 400 },
  ]);
  add("POST /backoffice/orders/:id/thread", [
    { name: "empty message", as: STAFF, send: (b) => post(THREAD(), { intent: "message", body: "" })(b), status: 400, message: "Напишите сообщение", invalid: "body" },
    { name: "10 000-character message: refused, kept in the field, not cut", as: STAFF, send: (b) => post(THREAD(), { intent: "message", body: LONG })(b), status: 400, message: "Сообщение длиннее 4000 знаков — сократите его", invalid: "body", kept: LONG },
    { name: "10 000-character note", as: STAFF, send: (b) => post(THREAD(), { intent: "note", body: LONG })(b), status: 400, message: "Сообщение длиннее 4000 знаков — сократите его" },
    { name: "resolve a forged message", as: STAFF, send: (b) => post(THREAD(), { intent: "resolve", message: "999999999" })(b), status: 302, message: "Такого сообщения у заказа нет" },
    { name: "resolve with SQL as the id", as: STAFF, send: (b) => post(THREAD(), { intent: "resolve", message: SQLI })(b), status: 400 },
    { name: "assign to someone not on the staff", as: STAFF, send: (b) => post(THREAD(), { intent: "assign", message: "1", assignee: "filed@clinic.ru" })(b), status: 302, message: "Назначить можно только сотрудника" },
    { name: "forged order", as: STAFF, send: post(`/backoffice/orders/${FORGED_UUID}/thread`, { intent: "message", body: "Подделка" }), status: 404 },
    { name: "non-UUID order", as: STAFF, send: post(`/backoffice/orders/${NOT_UUID}/thread`, { intent: "message", body: "Подделка" }), status: 404 },
    { name: "unknown intent", as: STAFF, send: (b) => post(THREAD(), { intent: "purge" })(b), status: 400 },
  ]);

  add("payment pages", [
    { name: "pay a forged order", send: post(`/pay/${FORGED_UUID}`, {}), status: 404, message: "Страница не найдена" },
    { name: "pay a non-UUID order", send: post(`/pay/${encodeURIComponent(SQLI)}`, { t: SQLI }), status: 404 },
    { name: "pay someone's order with a forged token", send: (b) => post(`/pay/${paidOrder.id}`, { t: "forged-token" })(b), status: [302, 404] },
    { name: "sandbox checkout of a forged payment", send: post(`/payment/sandbox/${FORGED_UUID}`, { outcome: "pay" }), status: 404 },
    { name: "return page with a forged order", send: get(`/payment/success?orderId=${FORGED_UUID}&paymentId=${encodeURIComponent(SQLI)}`), status: [200, 302, 404] },
  ]);

  add("POST /backoffice/ftp", [
    { name: "unknown intent", as: STAFF, send: post("/backoffice/ftp", { intent: "format_disk" }), status: 400, message: "Некорректный запрос" },
    { name: "non-UUID ids", as: STAFF, send: post("/backoffice/ftp", { intent: "delete", ids: SQLI }), status: [302, 400], message: /Не выбрано ни одной записи|Некорректный запрос/ },
  ]);

  add("POST /send-test", [
    { name: "no file", as: STAFF, send: multipart("/send-test", [{ name: "note", value: "x" }]), status: 302, message: "Пожалуйста, выберите файл для загрузки", files: true },
    { name: "no file, English", as: () => browsers.staffEn, send: multipart("/send-test", [{ name: "note", value: "x" }]), status: 302, message: "Please choose a file to upload", files: true },
    { name: "path traversal file name lands in the test folder", as: STAFF, send: multipart("/send-test", [{ name: "file", filename: "../../etc/passwd.stl", content: "x" }]), status: 302, message: "Файл успешно отправлен на FTP", check: onlyInTestFolder },
    { name: "backslash traversal file name lands in the test folder", as: STAFF, send: multipart("/send-test", [{ name: "file", filename: "..\\x.stl", content: "x" }]), status: 302, message: "Файл успешно отправлен на FTP", check: onlyInTestFolder },
    { name: "truncated multipart body", as: STAFF, send: truncated("/send-test", "file", "cut.stl"), status: [302, 400], message: /Не удалось загрузить файл на FTP сервер|Некорректный запрос|Пожалуйста, выберите файл/, files: true },
    { name: "a form instead of multipart", as: STAFF, send: post("/send-test", { file: "x" }), status: [302, 400], message: /Не удалось загрузить файл на FTP сервер|Некорректный запрос/, files: true },
    { name: "JSON instead of multipart", as: STAFF, send: json("/send-test", { file: "x" }), status: [302, 400], message: /Не удалось загрузить файл на FTP сервер|Некорректный запрос/, files: true },
  ]);

  const PACKER = () => browsers.packer;
  add("POST /packer (gate)", [
    { name: "missing password", send: post("/packer", {}), status: 401, message: "Неверный пароль" },
    { name: "SQL as password", send: post("/packer", { password: SQLI }), status: 401, message: "Неверный пароль" },
    { name: "NUL in password, English", as: () => browsers.anonymousEn, send: post("/packer", { password: "\u0000" }), status: 401, message: "Incorrect password" },
    { name: "JSON instead of a form", send: json("/packer", { password: SECRETS.PACKER_PASSWORD }), status: 400, message: "Некорректный запрос" },
  ]);

  add("GET /packer (search)", [
    { name: "SQL in search", as: PACKER, send: get(`/packer?q=${encodeURIComponent(SQLI)}`), status: 200 },
    { name: "script in search is shown back escaped", as: PACKER, send: get(`/packer?q=${encodeURIComponent(XSS)}`), status: 200, inert: XSS },
    { name: "NUL in search", as: PACKER, send: get("/packer?q=%00"), status: 200 },
    { name: "negative, huge and unknown filters", as: PACKER, send: get("/packer?page=-5&status=exploded"), status: 200 },
    { name: "huge page number", as: PACKER, send: get("/packer?page=99999999999999999999"), status: 200 },
    { name: "non-UUID bag labels", as: PACKER, send: get(`/packer/bags/${NOT_UUID}`), status: 404 },
    { name: "forged box label", as: PACKER, send: get(`/packer/box/${FORGED_UUID}`), status: 404 },
  ]);

  // The packer's scan field (ADR 103): anything typed that is not a bag of this order is refused in place, nothing ticked.
  const scan = (orderId: string, code: string) => post(`/packer/order/${orderId}`, { intent: "scan", code });
  add("POST /packer/order/:orderId (scan)", [
    { name: "a code that is not ours", as: PACKER, send: (b) => scan(paidOrder.id, "12345")(b), status: 422, message: "Это не код нашего пакета" },
    { name: "a folder path, as the old QR codes carried", as: PACKER, send: (b) => scan(paidOrder.id, "ab12cd/ab12cd_1")(b), status: 422, message: "Это не код нашего пакета" },
    { name: "SQL as a code", as: PACKER, send: (b) => scan(paidOrder.id, SQLI)(b), status: 422, message: "Это не код нашего пакета" },
    { name: "script as a code (refused, never echoed)", as: PACKER, send: (b) => scan(paidOrder.id, XSS)(b), status: 422, message: "Это не код нашего пакета" },
    { name: "NUL in a code", as: PACKER, send: (b) => scan(paidOrder.id, "\u0000")(b), status: 422, message: "Это не код нашего пакета" },
    { name: "a huge paste", as: PACKER, send: (b) => scan(paidOrder.id, "7".repeat(100_000))(b), status: [413, 422] },
    { name: "nothing typed", as: PACKER, send: (b) => scan(paidOrder.id, "")(b), status: 422, message: "Код не введён" },
    { name: "a bag of another order", as: PACKER, send: (b) => scan(paidOrder.id, bagCode(FORGED_UUID, { patient: 1, kind: "aligners", jaw: "upper", step: 1 }))(b), status: 422, message: "Пакет другого заказа" },
    { name: "a bag this order does not have", as: PACKER, send: (b) => scan(paidOrder.id, bagCode(paidOrder.id, { patient: 7, kind: "aligners", jaw: "upper", step: 1 }))(b), status: 422, message: "Такого пакета нет в этом заказе" },
    { name: "an unknown intent", as: PACKER, send: (b) => post(`/packer/order/${paidOrder.id}`, { intent: "explode", code: "1" })(b), status: 400, message: "Некорректный запрос" },
    { name: "a reason longer than 500 characters", as: PACKER, send: (b) => post(`/packer/order/${paidOrder.id}`, { intent: "pack", reason: "я".repeat(501) })(b), status: 422, message: "Причина длиннее 500 символов" },
    { name: "non-UUID order", as: PACKER, send: scan(NOT_UUID, "1"), status: 404 },
    { name: "forged order", as: PACKER, send: scan(FORGED_UUID, "1"), status: 404 },
    { name: "the page of a forged order", as: PACKER, send: get(`/packer/order/${FORGED_UUID}`), status: 404 },
  ]);

  add("POST /packer/labels (the workstation's label format)", [
    { name: "a format we do not make", as: PACKER, send: post("/packer/labels", { format: "docx" }), status: 400, message: "Некорректный запрос" },
    { name: "SQL as a format", as: PACKER, send: post("/packer/labels", { format: SQLI }), status: 400, message: "Некорректный запрос" },
    { name: "no format", as: PACKER, send: post("/packer/labels", {}), status: 400, message: "Некорректный запрос" },
    { name: "a crafted way back stays on the list", as: PACKER, send: post("/packer/labels", { format: "pdf", back: "//evil.example/x" }), status: 302 },
    { name: "PDF labels of a forged order", as: PACKER, send: get(`/packer/pdf/bags/${FORGED_UUID}`), status: 404 },
    { name: "PDF box label of a non-UUID order", as: PACKER, send: get(`/packer/pdf/box/${NOT_UUID}`), status: 404 },
  ]);

  add("POST /packer/logo", [
    { name: "non-UUID order", as: PACKER, send: multipart(`/packer/logo?order=${NOT_UUID}`, [{ name: "logo", filename: "logo.png", content: "x" }]), status: 404, files: true },
    { name: "forged order", as: PACKER, send: multipart(`/packer/logo?order=${FORGED_UUID}`, [{ name: "logo", filename: "logo.png", content: "x" }]), status: 404, files: true },
    { name: "text renamed .png", as: PACKER, send: (b) => multipart(`/packer/logo?order=${paidOrder.id}`, [{ name: "logo", filename: "logo.png", content: "not an image" }])(b), status: 302, message: "Содержимое файла не соответствует его типу", files: true },
    { name: "path traversal name", as: PACKER, send: (b) => multipart(`/packer/logo?order=${paidOrder.id}`, [{ name: "logo", filename: "../../etc/passwd.stl", content: "x" }])(b), status: 302, message: "Допустимы только файлы png, jpg, jpeg, webp и svg", files: true },
    { name: "truncated multipart body", as: PACKER, send: (b) => truncated(`/packer/logo?order=${paidOrder.id}`, "logo", "logo.png")(b), status: 302, message: /Не удалось сохранить файл|Выберите файл логотипа|Содержимое файла/, files: true },
    { name: "a form instead of multipart", as: PACKER, send: (b) => post(`/packer/logo?order=${paidOrder.id}`, { logo: "x" })(b), status: 302, message: "Выберите файл логотипа", files: true },
  ]);

  const tus = (pathname: string, method: string, headers: Record<string, string>, body?: Buffer) => async (browser: Browser) =>
    fetch(`${browser.app.url}${pathname}`, { method, headers: { Cookie: browser.jar.header(), Origin: browser.app.url, "Tus-Resumable": "1.0.0", ...headers }, body: body ? new Blob([new Uint8Array(body)]) : undefined, redirect: "manual" });
  const tusMeta = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`).join(",");
  add("tus /uploads/tus", [
    { name: "create without metadata", as: WIZ, send: tus("/uploads/tus", "POST", { "Upload-Length": "100" }), status: [400, 403, 404], files: true },
    { name: "forged order id", as: WIZ, send: tus("/uploads/tus", "POST", { "Upload-Length": "184", "Upload-Metadata": tusMeta({ filename: "a.stl", orderId: FORGED_UUID, patientId: FORGED_UUID, type: "matrix" }) }), status: [400, 403, 404], files: true },
    { name: "SQL as order id", as: WIZ, send: tus("/uploads/tus", "POST", { "Upload-Length": "184", "Upload-Metadata": tusMeta({ filename: "a.stl", orderId: SQLI, patientId: SQLI, type: "matrix" }) }), status: [400, 403, 404], files: true },
    { name: "negative length", as: WIZ, send: tus("/uploads/tus", "POST", { "Upload-Length": "-1" }), status: [400, 403, 404, 413], files: true },
    { name: "huge length", as: WIZ, send: tus("/uploads/tus", "POST", { "Upload-Length": "99999999999999999999" }), status: [400, 403, 404, 413], files: true },
    { name: "PATCH an upload that does not exist", as: WIZ, send: tus(`/uploads/tus/${FORGED_UUID}`, "PATCH", { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, Buffer.alloc(10)), status: [400, 403, 404, 410], files: true },
    { name: "PATCH without an offset", as: WIZ, send: tus(`/uploads/tus/tus-${FORGED_UUID}-00`, "PATCH", { "Content-Type": "application/offset+octet-stream" }, Buffer.alloc(10)), status: [400, 403, 404, 410], files: true },
    { name: "PATCH with a traversal id", as: WIZ, send: tus("/uploads/tus/..%2F..%2Fetc%2Fpasswd", "PATCH", { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, Buffer.alloc(10)), status: [400, 403, 404, 410], files: true },
    { name: "finish an unknown upload", as: WIZ, send: post("/uploads/finish", { id: FORGED_UUID, uploadKey: "x" }), status: [400, 404], files: true },
    { name: "finish with nothing", as: WIZ, send: post("/uploads/finish", {}), status: 400, files: true },
    { name: "status of a forged order", as: WIZ, send: get(`/uploads/status?orderId=${encodeURIComponent(SQLI)}`), status: 404 },
    { name: "continue on another device for a forged order", as: WIZ, send: post("/uploads/continue", { orderId: FORGED_UUID }), status: 404 },
  ]);

  /** A whole tus upload (create, then one PATCH) of `content` to the wizard's patient. */
  const tusUpload = (filename: string, content: Buffer) => async (browser: Browser) => {
    const uploadKey = `bad-input-${Date.now()}`;
    const created = await tus("/uploads/tus", "POST", {
      "Upload-Length": String(content.length),
      "Upload-Metadata": tusMeta({ filename, orderId: wizardOrder.id, patientId: wizardPatientId, type: "matrix", uploadKey }),
    })(browser);
    const location = created.headers.get("Location");
    if (created.status !== 201 || !location) return created;
    return tus(new URL(location, browser.app.url).pathname, "PATCH", { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, content)(browser);
  };
  add("tus /uploads/tus (whole uploads)", [
    { name: "header lies about the triangle count", as: WIZ, setup: setStep(wizardId, 5), send: tusUpload("liar.stl", binaryStl(10, 1_000_000)), status: 422, message: '"error":"truncated"', files: true },
    { name: "a real model cut short (an interrupted copy)", as: WIZ, setup: setStep(wizardId, 5), send: tusUpload("gearwheel.stl", corpusFile("derived_gearwheel.cut-short.bin.stl")), status: 422, message: '"error":"truncated"', files: true },
    { name: "a PNG image renamed .stl", as: WIZ, setup: setStep(wizardId, 5), send: tusUpload("photo.stl", pngImage()), status: 422, message: '"error":"not_stl"', files: true },
    { name: "a .txt renamed .stl", as: WIZ, setup: setStep(wizardId, 5), send: tusUpload("notes.stl", Buffer.from("just text, not a model\n")), status: 422, message: '"error":"not_stl"', files: true },
    { name: "path traversal name", as: WIZ, setup: setStep(wizardId, 5), send: tusUpload("../../etc/passwd.stl", Buffer.from("root:x:0:0\n")), status: 422, message: '"error":"not_stl"', files: true },
    { name: "upload to someone else's order", as: WIZ, send: async (browser) => tus("/uploads/tus", "POST", { "Upload-Length": "184", "Upload-Metadata": tusMeta({ filename: "a.stl", orderId: paidOrder.id, patientId: FORGED_UUID, type: "matrix", uploadKey: "abcdefgh1234" }) })(browser), status: [400, 403, 404], files: true },
    { name: "unknown file type", as: WIZ, send: async (browser) => tus("/uploads/tus", "POST", { "Upload-Length": "184", "Upload-Metadata": tusMeta({ filename: "a.stl", orderId: wizardOrder.id, patientId: wizardPatientId, type: "passwd", uploadKey: "abcdefgh1234" }) })(browser), status: [400, 403, 404], files: true },
  ]);

  /**
   * A whole compressed upload (ADR 033): created with a deferred length and the announced file
   * size, then one PATCH carrying `wire` and the length, as the browser's last PATCH does.
   */
  const compressedUpload = (fileSize: number, wire: () => Promise<Buffer>, order: () => { id: string } = () => wizardOrder) => async (browser: Browser) => {
    let patient = await t.db.selectFrom("orders_patients").select("id").where("order_id", "=", order().id).executeTakeFirst();
    patient ??= await buildPatient(t.db, order().id);
    const created = await tus("/uploads/tus", "POST", {
      "Upload-Defer-Length": "1",
      "Upload-Metadata": tusMeta({ filename: "scan.stl", orderId: order().id, patientId: patient.id, type: "matrix", uploadKey: `bad-input-gz-${Date.now()}`, encoding: "gzip", fileSize: String(fileSize) }),
    })(browser);
    const location = created.headers.get("Location");
    if (created.status !== 201 || !location) return created;
    const body = await wire();
    return tus(new URL(location, browser.app.url).pathname, "PATCH", { "Upload-Offset": "0", "Upload-Length": String(body.length), "Content-Type": "application/offset+octet-stream" }, body)(browser);
  };
  const model = binaryStl(2000);
  const member = async (bytes: Buffer) => Buffer.from(await gzipMember(bytes));
  const corrupted = async () => {
    const bytes = await member(model);
    bytes[40] ^= 0xff; // inside the deflate data
    return bytes;
  };
  add("tus /uploads/tus (compressed uploads)", [
    { name: "a corrupt gzip member", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(model.length, corrupted), status: 422, message: "файл повреждён при передаче", files: true },
    { name: "a corrupt gzip member, English", as: WIZ_EN, setup: setStep(wizardEnId, 5), send: compressedUpload(model.length, corrupted, () => wizardEnOrder), status: 422, message: "the file was damaged on the way", files: true },
    { name: "a gzip stream of another writer (no member lengths)", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(model.length, async () => zlib.gzipSync(model)), status: 422, message: '"error":"damaged"', files: true },
    {
      name: "a member that decompresses to more than its chunk (6 MiB in one member)",
      as: WIZ,
      setup: setStep(wizardId, 5),
      send: compressedUpload(6 * 1024 * 1024, async () => Buffer.from(withLengthField(new Uint8Array(zlib.gzipSync(binaryStl(125_828)))))),
      status: 422,
      message: "полученный файл не совпадает с выбранным",
      files: true,
    },
    { name: "decompressed size larger than announced", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(model.length - 50, () => member(model)), status: 422, message: '"error":"mismatch"', files: true },
    { name: "decompressed size smaller than announced", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(model.length + 50, () => member(model)), status: 422, message: "полученный файл не совпадает с выбранным", files: true },
    { name: "decompressed content not an STL model", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(3000, () => member(Buffer.alloc(3000, 0x41))), status: 422, message: '"error":"not_stl"', files: true },
    { name: "announced file over 100 MB", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(104_857_601, () => member(model)), status: 413, files: true },
    { name: "announced size not a number", as: WIZ, setup: setStep(wizardId, 5), send: compressedUpload(Number.NaN, () => member(model)), status: [400, 404], files: true },
  ]);

  add("GET stored files and logos", [
    { name: "order file path traversal", as: WIZ, send: (b) => get(`/files/orders/order_${wizardOrder.id}/..%2F..%2F..%2Fsecrets.stl`)(b), status: 404 },
    { name: "someone else's order file", as: WIZ, send: (b) => get(`/files/orders/order_${paidOrder.id}/x/matrix/a.stl`)(b), status: 404 },
    { name: "logo folder traversal", as: PACKER, send: get("/packer/logos/..%2F..%2Fetc"), status: 404 },
  ]);

  add("POST /cookies", [
    { name: "JSON instead of a form", send: json("/cookies", { redirectTo: "//evil.example" }), status: 400 },
    { name: "a return address beyond Latin-1", send: post("/cookies", { redirectTo: "/\u0100" }), status: 400, message: "Некорректный запрос" },
    { name: "a return address beyond Latin-1, English", as: () => browsers.anonymousEn, send: post("/cookies", { redirectTo: "/\u0100" }), status: 400, message: "Invalid request" },
  ]);

  const hook = (provider: string, body: string, contentType: string | null, headers: Record<string, string> = {}) => async (browser: Browser) =>
    fetch(`${browser.app.url}/api/webhooks/${provider}`, { method: "POST", headers: { ...(contentType ? { "Content-Type": contentType } : {}), ...headers }, body, redirect: "manual" });
  add("POST /api/webhooks/*", [
    { name: "stripe: no signature", send: hook("stripe", JSON.stringify({ type: "checkout.session.completed" }), "application/json"), status: 400, message: '"outcome":"refused"' },
    { name: "stripe: forged signature", send: hook("stripe", "{}", "application/json", { "Stripe-Signature": "t=1,v1=deadbeef" }), status: 400, message: '"outcome":"refused"' },
    { name: "yookassa: not JSON", send: hook("yookassa", "'; drop table orders; --", "text/plain"), status: 400, message: '"outcome":"refused"' },
    { name: "yookassa: forged payment id", send: hook("yookassa", JSON.stringify({ event: "payment.succeeded", object: { id: SQLI, status: "succeeded" } }), "application/json"), status: 400, message: '"outcome":"refused"' },
    { name: "yookassa: empty body", send: hook("yookassa", "", "application/json"), status: 400, message: '"outcome":"refused"' },
    { name: "sandbox: forged payment", send: hook("sandbox", JSON.stringify({ paymentId: FORGED_UUID, status: "succeeded" }), "application/json"), status: 400, message: '"outcome":"refused"' },
    { name: "sandbox: 10 000-character junk", send: hook("sandbox", LONG, "application/x-www-form-urlencoded"), status: 400, message: '"outcome":"refused"' },
  ]);

  // Field names and parts crafted to make the parser build what the form does not have (ADR 056).
  const urlencoded = (pathname: string, body: string) => raw(pathname, body, "application/x-www-form-urlencoded");
  const manyParts = (pathname: string, count: number) => {
    const boundary = "----bad-input-parts";
    const parts = Array.from({ length: count }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`).join("");
    return raw(pathname, `${parts}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`);
  };
  const longTextPart = (pathname: string, bytes: number) => {
    const boundary = "----bad-input-text";
    return raw(pathname, `--${boundary}\r\nContent-Disposition: form-data; name="additional_comments"\r\n\r\n${"a".repeat(bytes)}\r\n--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`);
  };
  add("crafted field names and parts", [
    { name: "x[4294967294] to the wizard", as: WIZ, setup: setStep(wizardId, 2), send: urlencoded("/order", "intent=next&email=a%40b.ru&x[4294967294]=1"), status: 400, message: "Некорректный запрос" },
    { name: "x[99999999] to sign-in", send: urlencoded("/auth", "email=bad&x[99999999]=1"), status: 400, message: "Некорректный запрос" },
    { name: "an index past the limit under a field the form has", as: WIZ, setup: setStep(wizardId, 2), send: urlencoded("/order", "intent=next&in_flight[100]=x"), status: 400, message: "Некорректный запрос" },
    { name: "a deep path", send: urlencoded("/language", "lng=en&a.b.c.d.e=1"), status: 400, message: "Некорректный запрос" },
    { name: "a malformed path", send: urlencoded("/cookies", "consent=1&x]]=1"), status: 400, message: "Некорректный запрос" },
    { name: "conform's state field", send: urlencoded("/language", "lng=en&__state__=%7B%7D"), status: 400, message: "Некорректный запрос" },
    { name: "one name sent 1,100 times", send: urlencoded("/language", Array.from({ length: 1100 }, () => "lng=en").join("&")), status: 400, message: "Некорректный запрос" },
    { name: "2,000 text parts to the wizard", as: WIZ, setup: setStep(wizardId, 5), send: manyParts("/order", 2000), status: 400, message: "Некорректный запрос" },
    { name: "a 2 MiB text part to the wizard", as: WIZ, setup: setStep(wizardId, 5), send: longTextPart("/order", 2 * 1024 * 1024), status: 413, message: "Слишком большой запрос" },
  ]);

  const cron = (headers: Record<string, string>) => async (browser: Browser) => fetch(`${browser.app.url}/api/cron`, { method: "POST", headers, redirect: "manual" });
  add("POST /api/cron", [
    { name: "no secret", send: cron({}), status: 401 },
    { name: "SQL as secret", send: cron({ Authorization: `Bearer ${SQLI}` }), status: 401 },
    { name: "10 000-character secret", send: cron({ Authorization: `Bearer ${"x".repeat(10_000)}` }), status: [401, 431] },
    { name: "wrong scheme", send: cron({ Authorization: `Basic ${SECRETS.CRON_SECRET}` }), status: 401 },
  ]);

  // ── running them ───────────────────────────────────────────────────────────────────────────────
  beforeAll(async () => {
    // Real providers (local doubles), so the webhooks check signatures and ask the provider back.
    yookassa = await startYooKassaDouble();
    stripe = await startStripeDouble();
    app = await startApp({
      env: {
        ...yooKassaAppEnv(yookassa),
        ...stripeAppEnv(stripe),
      },
    });
    t = app.database;

    const english = async (browser: Browser) => {
      expect((await browser.request("/language", { form: { lng: "en", redirectTo: "/" } })).status).toBe(302);
      return browser;
    };
    const walkToPatient = async (browser: Browser, email: string) => {
      expect((await browser.request("/order", { form: { intent: "next" } })).status).toBe(302);
      expect((await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-01" } })).status).toBe(302);
      expect((await browser.request("/order", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } })).status).toBe(302);
      expect((await browser.request("/order", { form: { intent: "add_patient", patient_name: "Смирнова Е." } })).status).toBe(302);
      return t.db.selectFrom("orders").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    };
    browsers.anonymous = browserFetch(app);
    browsers.anonymousEn = await english(browserFetch(app));
    browsers.wizard = browserFetch(app);
    wizardOrder = await walkToPatient(browsers.wizard, "wizard@clinic.ru");
    browsers.wizardEn = await english(browserFetch(app));
    wizardEnOrder = await walkToPatient(browsers.wizardEn, "wizard-en@clinic.ru");

    const gate = async (browser: Browser) => {
      expect((await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD } })).status).toBe(302);
      return browser;
    };
    browsers.staff = await gate(browserFetch(app));
    browsers.staffEn = await gate(await english(browserFetch(app)));
    browsers.admin = await signedInAs(app, t.db, "admin@aligner.test", ["admin"]);
    adminId = (await t.db.selectFrom("users").select("id").where("email", "=", "admin@aligner.test").executeTakeFirstOrThrow()).id;
    browsers.user = await signedInAs(app, t.db, "partner@clinic.ru");
    browsers.userEn = await english(await signedInAs(app, t.db, "partner-en@clinic.ru"));
    await browsers.user.request("/partner", { form: { intent: "create" } });
    await browsers.userEn.request("/partner", { form: { intent: "create" } });
    browsers.packer = browserFetch(app);
    expect((await browsers.packer.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD } })).status).toBe(302);

    wizardPatientId = (await t.db.selectFrom("orders_patients").select("id").where("order_id", "=", wizardOrder.id).executeTakeFirstOrThrow()).id;
    partner = await t.db.selectFrom("partner_codes").select(["id", "code"]).where("user_email", "=", "partner@clinic.ru").executeTakeFirstOrThrow();
    paidOrder = await buildOrderIn(t.db, "paid", { email: "paid@clinic.ru" });
    await buildPatient(t.db, paidOrder.id);
    draftOrder = await buildOrder(t.db, { email: "draft@clinic.ru" });
    const withFile = async (email: string) => {
      const order = await buildOrderIn(t.db, "paid", { email });
      const patient = await buildPatient(t.db, order.id);
      const path = `order_${order.id}/${patient.folder_name}/aligners/scan_1.stl`;
      const file = { originalName: "scan.stl", storagePath: path, url: `/files/orders/${path}`, type: "model/stl", size: 184, jaw: "upper", stepNumber: 1, confirmed: true };
      await t.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify([file]) }).where("id", "=", patient.id).execute();
      return { id: order.id, patientId: patient.id, path };
    };
    filedOrder = await withFile("filed@clinic.ru");
    browsers.clinic = await signedInAs(app, t.db, "filed@clinic.ru");
    browsers.clinicEn = await english(await signedInAs(app, t.db, "filed@clinic.ru"));
    otherOrder = await withFile("other-filed@clinic.ru");
    translationId = (
      await t.db.insertInto("translations").values({ original_text: "Заказ {{number}}", translated_text: "Order {{number}}", target_language: "en" }).returning("id").executeTakeFirstOrThrow()
    ).id;
    await t.db.deleteFrom("rate_limits").execute();
  });

  afterAll(async () => {
    const rows = [...results].map(([route, counts]) => ({ route, cases: counts.passed + counts.failed, ...counts }));
    const total = rows.reduce((sum, row) => ({ cases: sum.cases + row.cases, passed: sum.passed + row.passed, failed: sum.failed + row.failed }), { cases: 0, passed: 0, failed: 0 });
    console.log(`\nBad-input catalogue: ${total.cases} cases over ${rows.length} routes, ${total.passed} passed, ${total.failed} failed`);
    console.table(rows);
    await app?.close();
    await yookassa?.close();
    await stripe?.close();
  });

  for (const item of cases) {
    it(`${item.route}: ${item.name}`, async () => {
      const counts = results.get(item.route) ?? { passed: 0, failed: 0 };
      results.set(item.route, counts);
      try {
        await run(item);
        counts.passed++;
      } catch (error) {
        counts.failed++;
        throw error;
      }
    });
  }

  async function run(item: Case) {
    const browser = item.as?.() ?? browsers.anonymous;
    await item.setup?.();
    await t.db.deleteFrom("rate_limits").execute();
    const before = await snapshot(item.mayChange);
    const filesBefore = item.files ? storedFiles() : null;
    const response = await item.send(browser);
    const body = await response.text();
    if (process.env.BAD_INPUT_DEBUG) console.log(`=== ${response.status} ${item.route}: ${item.name} ${body.startsWith("<!DOCTYPE") ? "" : body.slice(0, 120)}`);
    const after = await snapshot(item.mayChange);
    const filesAfter = item.files ? storedFiles() : null;

    expect(response.status, `${item.route} ${item.name} answered ${response.status}: ${body.slice(0, 300)}`).toBeLessThan(500);
    if (Array.isArray(item.status)) expect(item.status).toContain(response.status);
    else if (item.status !== undefined) expect(response.status).toBe(item.status);
    else expect(response.status >= 400 || [302, 303].includes(response.status)).toBe(true);
    expect(after, "no data change").toEqual(before);
    expect(filesAfter, "no stored file change").toEqual(filesBefore);

    let page = body;
    const location = response.headers.get("Location");
    if (location && response.status >= 300 && response.status < 400 && location.startsWith("/")) {
      page = await (await browser.request(location.replace(/#.*/, ""))).text();
    }
    if (item.message !== undefined) {
      const shown = rendered(page);
      if (process.env.BAD_INPUT_DEBUG && !(typeof item.message === "string" ? shown.includes(item.message) : item.message.test(shown))) {
        console.log(`--- ${item.route}: ${item.name} (${response.status} ${location ?? ""})\n`, shown.slice(shown.indexOf("<main"), shown.indexOf("</main>")).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 1500));
      }
      if (typeof item.message === "string") expect(shown).toContain(item.message);
      else expect(shown).toMatch(item.message);
    }
    if (item.invalid !== undefined) {
      const field = new RegExp(`<(?:input|textarea|select)\\b[^>]*\\bname="${item.invalid}"[^>]*>`).exec(page)?.[0];
      expect(field, `field ${item.invalid} on the page`).toBeDefined();
      expect(field).toContain('aria-invalid="true"');
      if (item.kept !== undefined) {
        const escaped = item.kept.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
        const textarea = new RegExp(`<textarea\\b[^>]*\\bname="${item.invalid}"[^>]*>([\\s\\S]*?)</textarea>`).exec(page)?.[1];
        expect(textarea ?? /\bvalue="([^"]*)"/.exec(field!)?.[1], `${item.invalid} keeps what was typed`).toBe(escaped);
      }
    }
    if (item.inert !== undefined) {
      // React escapes text and attributes; the only raw copy could be a live element.
      const markup = page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, (script) => (script.includes(item.inert!) ? "LIVE-SCRIPT" : ""));
      expect(markup).not.toContain("LIVE-SCRIPT");
      expect(markup).not.toContain(item.inert);
      expect(markup).toContain(item.inert.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
    }
    await item.check?.();
  }
});
