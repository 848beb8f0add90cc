import { sql } from "kysely";
import { Readable } from "node:stream";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { changeOrderStatus, createOrder } from "~/modules/orders/orders.server";
import type { Actor } from "~/modules/orders/status";
import { filesOf } from "~/modules/wizard/wizard.server";
import type {
  CutType,
  Currency,
  FileInfo,
  FileType,
  MarketColumn,
  MatrixType,
  MaterialType,
  NotificationChannel,
  OrderStatus,
  PaymentStatus,
  QueueStatus,
} from "./schema";
import { FILE_TYPES } from "./schema";

/**
 * Demo data for development and review: clinics, orders in every status with patients and files,
 * the file-server queue in every state, payments, partners with payouts, staff users and a few
 * translation overrides. Deterministic (a seeded generator; dates relative to `now`) and idempotent:
 * the demo admin user is the marker, written last, so a finished seed is never loaded twice.
 *
 * Orders go through `createOrder`/`changeOrderStatus`, which open their own transactions; PGlite
 * has one connection, so no outer transaction is held open while they run.
 */

export const DEMO_ADMIN_EMAIL = "admin@aligner.local";
export const DEMO_MANAGER_EMAIL = "manager@aligner.local";

export const SEEDED_TABLES = [
  "users",
  "user_roles",
  "client_settings",
  "orders",
  "order_codes",
  "order_status_history",
  "orders_patients",
  "payments",
  "ftp_uploads_queue",
  "partner_codes",
  "partner_affiliates",
  "partner_payouts",
  "translations",
] as const;
export type SeededTable = (typeof SEEDED_TABLES)[number];

export interface SeedSummary {
  /** false when the demo data was already there and nothing was written. */
  seeded: boolean;
  message: string;
  /** Rows per table after the call. */
  counts: Record<SeededTable, number>;
}

// ---------------------------------------------------------------------------------------------
// Deterministic helpers

/** mulberry32: small, fast, and the same sequence on every run for the same seed. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (probability: number) => next() < probability,
  };
}
type Random = ReturnType<typeof createRandom>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

const TRANSLIT: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m",
  н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "h", ц: "ts", ч: "ch", ш: "sh", щ: "sch",
  ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
};

/** Stored file name as DESIGN §4.12 describes: transliterated, unsafe characters to "_", a timestamp added. */
function storedFileName(originalName: string, uploadedAt: Date): string {
  const transliterated = [...originalName]
    .map((char) => {
      const lower = char.toLowerCase();
      const latin = TRANSLIT[lower];
      if (latin === undefined) return char;
      return char === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
    })
    .join("");
  const safe = transliterated.replace(/[^A-Za-z0-9.-]/g, "_");
  const dot = safe.lastIndexOf(".");
  const base = dot > 0 ? safe.slice(0, dot) : safe;
  const extension = dot > 0 ? safe.slice(dot) : ".stl";
  return `${base}_${uploadedAt.getTime()}${extension.toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Reference data

interface DemoClient {
  email: string;
  fullName: string;
  phone: string;
  address: string;
  market: MarketColumn;
  currency: Currency;
  settings: {
    currency: Currency;
    aligner_price?: number;
    aligner_single_layer_price?: number;
    aligner_three_layer_price?: number;
    matrix_price?: number;
    retainer_standard_price?: number;
    retainer_premium_price?: number;
    discount_percentage?: number;
    personal_comment?: string;
    notification_channel: NotificationChannel;
  };
}

const CLIENTS = [
  {
    email: "info@ulybka-dental.ru",
    fullName: "Кузнецова Ольга Викторовна",
    phone: "+7 (495) 214-37-80",
    address: "Москва, ул. Профсоюзная, д. 56, стоматология «Улыбка»",
    market: "domestic",
    currency: "rub",
    settings: {
      currency: "rub",
      aligner_single_layer_price: 85000,
      aligner_three_layer_price: 95000,
      discount_percentage: 5,
      personal_comment: "Постоянный клиент с 2023 года. Отправлять СДЭК до двери.",
      notification_channel: "email",
    },
  },
  {
    email: "orto@smile-spb.ru",
    fullName: "Лебедев Андрей Николаевич",
    phone: "+7 (812) 407-15-22",
    address: "Санкт-Петербург, Невский пр-т, д. 88, офис 12, клиника «Смайл»",
    market: "domestic",
    currency: "rub",
    settings: { currency: "rub", discount_percentage: 7.5, notification_channel: "whatsapp" },
  },
  {
    email: "sadykova@kazan-dent.ru",
    fullName: "Садыкова Алия Ринатовна",
    phone: "+7 (843) 250-61-19",
    address: "Казань, ул. Баумана, д. 44/8, клиника «Казань-Дент»",
    market: "domestic",
    currency: "rub",
    settings: { currency: "rub", aligner_price: 88000, notification_channel: "email" },
  },
  {
    email: "zakaz@ortodont-pro.ru",
    fullName: "Морозов Дмитрий Игоревич",
    phone: "+7 (495) 988-02-41",
    address: "Москва, Ленинский пр-т, д. 32А, «ОртодонтПро»",
    market: "domestic",
    currency: "rub",
    settings: {
      currency: "rub",
      aligner_single_layer_price: 80000,
      aligner_three_layer_price: 90000,
      matrix_price: 90000,
      retainer_standard_price: 90000,
      discount_percentage: 10,
      personal_comment: "Оптовые условия по договору № 14/24 от 01.02.2024.",
      notification_channel: "none",
    },
  },
  {
    email: "clinic@belaya-roza-dent.ru",
    fullName: "Васильева Наталья Петровна",
    phone: "+7 (812) 336-90-14",
    address: "Санкт-Петербург, ул. Малая Садовая, д. 3, стоматология «Белая роза»",
    market: "domestic",
    currency: "rub",
    settings: { currency: "rub", discount_percentage: 3, notification_channel: "email" },
  },
  {
    email: "g.grigoriev@dentalart-msk.ru",
    fullName: "Григорьев Сергей Павлович",
    phone: "+7 (499) 130-77-55",
    address: "Москва, Кутузовский пр-т, д. 24, подъезд 2, «Дентал Арт»",
    market: "domestic",
    currency: "rub",
    settings: {
      currency: "rub",
      retainer_standard_price: 95000,
      retainer_premium_price: 150000,
      personal_comment: "Матрицы только твёрдые. Счёт на юрлицо ООО «Дентал Арт».",
      notification_channel: "whatsapp",
    },
  },
  {
    email: "info@volgadent.ru",
    fullName: "Хабибуллин Тимур Ильдарович",
    phone: "+7 (843) 211-48-03",
    address: "Казань, пр-т Победы, д. 141, клиника «ВолгаДент»",
    market: "domestic",
    currency: "rub",
    settings: { currency: "rub", notification_channel: "none" },
  },
  {
    email: "orders@berlin-smile-clinic.com",
    fullName: "Dr. Anna Keller",
    phone: "+49 30 5557 2190",
    address: "Friedrichstraße 115, 10117 Berlin, Germany",
    market: "international",
    currency: "eur",
    settings: {
      currency: "eur",
      aligner_single_layer_price: 1290,
      aligner_three_layer_price: 1390,
      discount_percentage: 5,
      personal_comment: "Invoice in EUR, VAT ID DE312345678.",
      notification_channel: "email",
    },
  },
] as const satisfies readonly DemoClient[];

type ClientIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Base prices in minor units (the spec's price sets, DESIGN §4.11). */
const BASE_PRICES: Record<Currency, { single: number; three: number; matrix: number; retainer: number; delivery: number; minimum: number }> = {
  rub: { single: 90000, three: 100000, matrix: 100000, retainer: 100000, delivery: 150000, minimum: 1000000 },
  eur: { single: 1390, three: 1490, matrix: 1490, retainer: 1490, delivery: 1500, minimum: 15000 },
};

const PARTNERS = [
  {
    code: "ORTPRO",
    userEmail: "zakaz@ortodont-pro.ru",
    userName: "Морозов Дмитрий Игоревич",
    contactEmail: "morozov.di@ortodont-pro.ru",
    contactPhone: "+7 (916) 204-33-18",
    reward: 10,
    affiliates: ["sadykova@kazan-dent.ru", "info@ulybka-dental.ru"],
    payoutShare: 0.5,
    payoutNote: "Перевод на карту Сбербанка, акт № 3",
  },
  {
    code: "NEVSKY",
    userEmail: "partner@ortho-nw.ru",
    userName: "Учебный центр «Ортодонтия Северо-Запад»",
    contactEmail: "buh@ortho-nw.ru",
    contactPhone: "+7 (812) 600-41-97",
    reward: 7.5,
    affiliates: ["orto@smile-spb.ru", "clinic@belaya-roza-dent.ru"],
    payoutShare: 0.4,
    payoutNote: "Оплата по счёту № 118 на р/с организации",
  },
  {
    code: "KAZDOC",
    userEmail: "garipova.lilia@mail.ru",
    userName: "Гарипова Лилия Маратовна",
    contactEmail: "garipova.lilia@mail.ru",
    contactPhone: "+7 (917) 395-20-64",
    reward: 5,
    // The second clinic was referred but has not ordered yet.
    affiliates: ["info@volgadent.ru", "reception@dentaprof-kzn.ru"],
    payoutShare: 0,
    payoutNote: null,
  },
] as const;

const TRANSLATIONS = [
  { original_text: "Ожидает оплаты", translated_text: "Awaiting payment", target_language: "en" },
  { original_text: "В работе", translated_text: "In production", target_language: "en" },
  { original_text: "Оформить заказ", translated_text: "Place an order", target_language: "en" },
  { original_text: "Оформить заказ", translated_text: "Bestellung aufgeben", target_language: "de" },
  { original_text: "Упаковка и доставка", translated_text: "Packaging and delivery", target_language: "en" },
] as const;

const PATIENT_NAMES = [
  "Смирнова Е.", "Иванов А.", "Петрова М.", "Соколов Д.", "Кузьмина О.", "Попов И.", "Васильева Т.", "Новиков С.",
  "Фёдорова А.", "Морозова К.", "Волков Н.", "Алексеева Ю.", "Лебедева В.", "Семёнов Р.", "Егорова Л.", "Павлов Г.",
  "Козлова Д.", "Степанов М.", "Николаева Е.", "Орлов В.", "Андреева П.", "Макаров Е.", "Захарова И.", "Зайцев К.",
  "Гарифуллина А.", "Сафин Р.", "Миронова Ж.", "Тихонов Б.",
];
const INTERNATIONAL_PATIENTS = ["Müller L.", "Schmidt J.", "Weber S.", "Fischer M.", "Becker T."];

const DELIVERY_COMMENTS = [
  "Домофон 45, позвонить за час до приезда",
  "Передать администратору на ресепшене",
  "Курьер СДЭК, доставка до двери",
  "Не звонить до 10:00, клиника открывается в 10",
  "Вход со двора, 2 этаж",
  null,
  null,
];
const ORDER_COMMENTS = [
  "Срочно: пациент уезжает через две недели",
  "Толщина материала 0,76 мм",
  "Подпишите пакеты номерами шагов",
  null,
  null,
  null,
];
const PATIENT_COMMENTS = ["Аттачменты на 13 и 23", "Ретейнер после окончания лечения", "Без вырезов под кнопки", null, null, null, null];
const CANCEL_NOTES = {
  draft: "Дубликат заказа, клиент оформил новый",
  pending: "Клиент отказался, оплата не поступила",
  paid: "Возврат средств по просьбе клиента: пациент прервал лечение",
  processing: "Некачественные модели, клиент пришлёт новые сканы",
} as const;
const QUEUE_ERRORS = [
  "Ошибка загрузки файла из storage: ECONNRESET",
  "SFTP: Timed out while waiting for handshake",
  "Ошибка загрузки файла из storage: NoSuchKey",
];

// ---------------------------------------------------------------------------------------------
// The order plan: every status, and each path through the state machine that leads to it

type Path =
  | "draft"
  | "returned" // pending → draft (customer went back to edit; payment attempt cancelled)
  | "pending"
  | "paid"
  | "paid_retry" // a failed payment attempt before the successful one
  | "processing"
  | "shipped"
  | "completed_shipped"
  | "completed_paid"
  | "completed_processing"
  | "cancelled_draft"
  | "cancelled_pending"
  | "cancelled_paid"
  | "cancelled_processing";

type QueuePlan = "auto" | "uploading" | "stale_lease" | "failed_retry" | "failed_exhausted" | "partial";

interface PlannedOrder {
  client: ClientIndex | null;
  path: Path;
  daysAgo: number;
  patients: number;
  step?: number;
  queue?: QueuePlan;
}

const PLAN: PlannedOrder[] = [
  // Drafts: three without patients (hidden as "empty orders" by default), two in the wizard, one returned from payment.
  { client: null, path: "draft", daysAgo: 0.2, patients: 0, step: 1 },
  { client: null, path: "draft", daysAgo: 6, patients: 0, step: 2 },
  { client: 5, path: "draft", daysAgo: 12, patients: 0, step: 3 },
  { client: 0, path: "draft", daysAgo: 2, patients: 2, step: 7 },
  { client: 6, path: "draft", daysAgo: 20, patients: 1, step: 9 },
  { client: 1, path: "returned", daysAgo: 4, patients: 2, step: 10 },
  // Awaiting payment.
  { client: 4, path: "pending", daysAgo: 1, patients: 1 },
  { client: 2, path: "pending", daysAgo: 3, patients: 2 },
  { client: 7, path: "pending", daysAgo: 5, patients: 1 },
  { client: 5, path: "pending", daysAgo: 9, patients: 3 },
  // Paid, waiting for production.
  { client: 3, path: "paid", daysAgo: 0.3, patients: 2 },
  { client: 0, path: "paid", daysAgo: 1, patients: 1, queue: "uploading" },
  { client: 7, path: "paid", daysAgo: 2, patients: 2, queue: "partial" },
  { client: 1, path: "paid_retry", daysAgo: 1.5, patients: 1, queue: "stale_lease" },
  // In production.
  { client: 2, path: "processing", daysAgo: 3, patients: 2, queue: "failed_retry" },
  { client: 4, path: "processing", daysAgo: 5, patients: 1 },
  { client: 3, path: "processing", daysAgo: 6, patients: 3 },
  { client: 6, path: "processing", daysAgo: 8, patients: 1, queue: "failed_exhausted" },
  // Shipped.
  { client: 0, path: "shipped", daysAgo: 10, patients: 2 },
  { client: 1, path: "shipped", daysAgo: 14, patients: 1 },
  { client: 3, path: "shipped", daysAgo: 18, patients: 2 },
  { client: 5, path: "shipped", daysAgo: 24, patients: 1 },
  // Completed.
  { client: 2, path: "completed_shipped", daysAgo: 30, patients: 2 },
  { client: 3, path: "completed_shipped", daysAgo: 41, patients: 1 },
  { client: 7, path: "completed_shipped", daysAgo: 55, patients: 1 },
  { client: 0, path: "completed_paid", daysAgo: 63, patients: 2 },
  { client: 1, path: "completed_processing", daysAgo: 77, patients: 1 },
  { client: 4, path: "completed_shipped", daysAgo: 88, patients: 3 },
  // Cancelled, from each status staff may cancel.
  { client: 6, path: "cancelled_draft", daysAgo: 35, patients: 1 },
  { client: 5, path: "cancelled_pending", daysAgo: 45, patients: 1 },
  { client: 2, path: "cancelled_paid", daysAgo: 50, patients: 1 },
  { client: 3, path: "cancelled_processing", daysAgo: 70, patients: 2 },
];

interface Step {
  to: OrderStatus;
  actor: "customer" | "payment" | "staff";
  /** Time after the previous step. */
  after: number;
  note?: string;
  tracking?: boolean;
}

function stepsFor(path: Path, random: Random): Step[] {
  const toPending = (): Step => ({ to: "pending", actor: "customer", after: random.int(20, 120) * MINUTE });
  const toPaid = (): Step => ({ to: "paid", actor: "payment", after: random.int(2, 15) * MINUTE });
  const toProcessing = (): Step => ({ to: "processing", actor: "staff", after: random.int(2, 20) * HOUR });
  const toShipped = (): Step => ({ to: "shipped", actor: "staff", after: random.int(24, 48) * HOUR, tracking: true });
  const toCompleted = (): Step => ({ to: "completed", actor: "staff", after: random.int(2, 5) * DAY });
  switch (path) {
    case "draft":
      return [];
    case "returned":
      return [toPending(), { to: "draft", actor: "customer", after: random.int(5, 40) * MINUTE }];
    case "pending":
      return [toPending()];
    case "paid":
    case "paid_retry":
      return [toPending(), toPaid()];
    case "processing":
      return [toPending(), toPaid(), toProcessing()];
    case "shipped":
      return [toPending(), toPaid(), toProcessing(), toShipped()];
    case "completed_shipped":
      return [toPending(), toPaid(), toProcessing(), toShipped(), toCompleted()];
    case "completed_paid":
      return [toPending(), toPaid(), { to: "completed", actor: "staff", after: random.int(3, 6) * DAY }];
    case "completed_processing":
      return [toPending(), toPaid(), toProcessing(), { to: "completed", actor: "staff", after: random.int(2, 4) * DAY }];
    case "cancelled_draft":
      return [{ to: "cancelled", actor: "staff", after: random.int(3, 10) * DAY, note: CANCEL_NOTES.draft }];
    case "cancelled_pending":
      return [toPending(), { to: "cancelled", actor: "staff", after: random.int(2, 6) * DAY, note: CANCEL_NOTES.pending }];
    case "cancelled_paid":
      return [toPending(), toPaid(), { to: "cancelled", actor: "staff", after: random.int(3, 12) * HOUR, note: CANCEL_NOTES.paid }];
    case "cancelled_processing":
      return [toPending(), toPaid(), toProcessing(), { to: "cancelled", actor: "staff", after: random.int(4, 20) * HOUR, note: CANCEL_NOTES.processing }];
  }
}

// ---------------------------------------------------------------------------------------------
// Patients and files

interface PatientDraft {
  name: string;
  folder: string;
  material: MaterialType;
  cut: CutType;
  matrix: MatrixType;
  comment: string | null;
  files: Record<FileType, FileInfo[]>;
  skipMatrix: boolean;
  skipRetainers: boolean;
  createdAt: Date;
}

/**
 * The model every demo file holds: a closed, egg-shaped mesh of 512 triangles, 60 × 40 × 25 mm (a
 * dental arch's size, so the scan checks find nothing to warn about). 25.7 KB, so hundreds of demo
 * files cost a few megabytes and the previews, downloads and file-server queue of the demo all work.
 */
export const DEMO_MODEL = demoModelStl(3);
const DEMO_MODEL_TRIANGLES = (DEMO_MODEL.length - 84) / 50;

function demoModelStl(subdivisions: number): Uint8Array {
  const vertices: Array<[number, number, number]> = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  let faces: Array<[number, number, number]> = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
  for (let round = 0; round < subdivisions; round++) {
    // A shared edge gets one midpoint, so neighbouring triangles keep identical corners (closed mesh).
    const midpoints = new Map<string, number>();
    const midpoint = (a: number, b: number) => {
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      let index = midpoints.get(key);
      if (index === undefined) {
        const [u, v] = [vertices[a]!, vertices[b]!];
        const m: [number, number, number] = [(u[0] + v[0]) / 2, (u[1] + v[1]) / 2, (u[2] + v[2]) / 2];
        const length = Math.hypot(...m);
        index = vertices.push([m[0] / length, m[1] / length, m[2] / length]) - 1;
        midpoints.set(key, index);
      }
      return index;
    };
    faces = faces.flatMap(([a, b, c]) => {
      const [ab, bc, ca] = [midpoint(a, b), midpoint(b, c), midpoint(c, a)];
      return [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]] as Array<[number, number, number]>;
    });
  }
  const bytes = new Uint8Array(84 + 50 * faces.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode("Aligner Lab demo model"));
  view.setUint32(80, faces.length, true);
  const scale = [30, 20, 12.5];
  faces.forEach((face, index) => {
    const at = 84 + 50 * index;
    face.forEach((vertex, corner) => {
      for (let axis = 0; axis < 3; axis++) view.setFloat32(at + 12 + corner * 12 + axis * 4, vertices[vertex]![axis]! * scale[axis]!, true);
    });
  });
  return bytes;
}

function makeFile(random: Random, orderId: string, folder: string, type: FileType, originalName: string, uploadedAt: Date): FileInfo {
  random.int(120_000, 780_000); // once a made-up triangle count; still drawn so the rest of the demo data stays the same
  const storagePath = `order_${orderId}/${folder}/${type}/${storedFileName(originalName, uploadedAt)}`;
  return {
    originalName,
    storagePath,
    url: `/files/orders/${storagePath}`,
    type: "model/stl",
    size: DEMO_MODEL.length,
    triangles: DEMO_MODEL_TRIANGLES,
    uploadedAt: uploadedAt.toISOString(),
  };
}

/**
 * Puts the demo model in storage under every file the demo orders record, where it is not there
 * yet (so it may run again, and after the database was seeded elsewhere). Returns how many it stored.
 */
export async function storeDemoFiles(db: DB, storage: FileStorage): Promise<number> {
  const rows = await db.selectFrom("orders_patients").select(["matrix_files_info", "aligner_files_info", "retainer_files_info"]).execute();
  const keys = new Set(rows.flatMap((row) => FILE_TYPES.flatMap((type) => filesOf(row, type).map((file) => file.storagePath))));
  let stored = 0;
  for (const key of keys) {
    if (await storage.head("orders", key)) continue;
    await storage.put("orders", key, Readable.from([DEMO_MODEL]), { contentType: "model/stl", contentLength: DEMO_MODEL.length });
    stored++;
  }
  return stored;
}

function makePatients(random: Random, order: { id: string; code: string }, count: number, international: boolean, start: Date, usedNames: Set<string>): PatientDraft[] {
  const patients: PatientDraft[] = [];
  let clock = start;
  for (let index = 0; index < count; index++) {
    const pool = international ? INTERNATIONAL_PATIENTS : PATIENT_NAMES;
    let name = random.pick(pool);
    for (let tries = 0; usedNames.has(name) && tries < pool.length; tries++) name = random.pick(pool);
    usedNames.add(name);
    const folder = `${order.code}_${index + 1}`;
    clock = plus(clock, random.int(2, 8) * MINUTE);
    const createdAt = clock;
    const files: Record<FileType, FileInfo[]> = { matrix: [], aligners: [], retainer: [] };

    const skipMatrix = random.chance(0.3);
    if (!skipMatrix) {
      for (const jaw of ["Верхняя челюсть", "Нижняя челюсть"]) {
        clock = plus(clock, random.int(20, 90) * 1000);
        files.matrix.push(makeFile(random, order.id, folder, "matrix", international ? `${jaw === "Верхняя челюсть" ? "Maxilla" : "Mandible"}.stl` : `${jaw}.stl`, clock));
      }
    }
    const alignerSteps = random.int(3, 9);
    for (let stage = 1; stage <= alignerSteps; stage++) {
      for (const jaw of international ? ["Upper", "Lower"] : ["верх", "низ"]) {
        clock = plus(clock, random.int(15, 60) * 1000);
        const number = String(stage).padStart(2, "0");
        const name = international ? `Subsetup${number}_${jaw}.stl` : `Шаг ${number} ${jaw}.stl`;
        files.aligners.push(makeFile(random, order.id, folder, "aligners", name, clock));
      }
    }
    const skipRetainers = random.chance(0.5);
    if (!skipRetainers) {
      clock = plus(clock, random.int(20, 90) * 1000);
      files.retainer.push(makeFile(random, order.id, folder, "retainer", international ? "Retainer_upper.stl" : "Ретейнер верх.stl", clock));
      if (random.chance(0.6)) {
        clock = plus(clock, random.int(20, 90) * 1000);
        files.retainer.push(makeFile(random, order.id, folder, "retainer", international ? "Retainer_lower.stl" : "Ретейнер низ.stl", clock));
      }
    }
    patients.push({
      name,
      folder,
      material: random.pick(["single_layer", "three_layer"] as const),
      cut: random.pick(["wavy", "straight"] as const),
      matrix: international ? "hard" : random.pick(["soft", "hard"] as const),
      comment: random.pick(PATIENT_COMMENTS),
      files,
      skipMatrix,
      skipRetainers,
      createdAt,
    });
  }
  return patients;
}

/** Total as the wizard computes it: goods at the client's prices, discount half up on goods, delivery once, minimum order. */
function orderTotal(patients: PatientDraft[], currency: Currency, client: DemoClient | null): { total: number; discount: number | null } {
  const base = BASE_PRICES[currency];
  const personal = client && client.settings.currency === currency ? client.settings : undefined;
  const single = personal?.aligner_single_layer_price ?? personal?.aligner_price ?? base.single;
  const three = personal?.aligner_three_layer_price ?? personal?.aligner_price ?? base.three;
  const matrix = personal?.matrix_price ?? base.matrix;
  const retainer = personal?.retainer_standard_price ?? base.retainer;
  let goods = 0;
  for (const patient of patients) {
    goods += patient.files.aligners.length * (patient.material === "single_layer" ? single : three);
    goods += patient.files.matrix.length * matrix;
    goods += patient.files.retainer.length * retainer;
  }
  const percent = personal?.discount_percentage ?? null;
  const hundredths = percent === null ? 0 : Math.round(percent * 100);
  const discount = Math.floor((goods * hundredths + 5000) / 10000);
  const total = Math.max(goods - discount + base.delivery, base.minimum);
  return { total, discount: percent };
}

function trackingNumber(random: Random, market: MarketColumn): string {
  if (market === "international") return `JJD0000${random.int(100_000_000, 999_999_999)}`; // DHL
  if (random.chance(0.5)) return `RA${random.int(100_000_000, 999_999_999)}RU`; // Russian Post
  return `${random.int(1_000_000_000, 9_999_999_999)}`; // CDEK waybill
}

// ---------------------------------------------------------------------------------------------

async function countRows(db: DB): Promise<Record<SeededTable, number>> {
  const counts = {} as Record<SeededTable, number>;
  for (const table of SEEDED_TABLES) {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

export async function seedDemoData(db: DB, options: { now?: Date } = {}): Promise<SeedSummary> {
  const marker = await db.selectFrom("users").select("id").where("email", "=", DEMO_ADMIN_EMAIL).executeTakeFirst();
  if (marker) {
    return { seeded: false, message: `Demo data already present (${DEMO_ADMIN_EMAIL} exists); nothing changed.`, counts: await countRows(db) };
  }

  const now = options.now ?? new Date();
  const random = createRandom(20261122);
  const clients: readonly DemoClient[] = CLIENTS;
  const staffActors: Actor[] = [
    { kind: "staff", label: DEMO_MANAGER_EMAIL },
    { kind: "staff", label: "back-office password (91.210.45.17)" },
  ];
  const paymentActor: Actor = { kind: "payment", label: "sandbox" };

  // 1. Client conditions, partner codes and translation overrides: plain rows, one transaction.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("client_settings")
      .values(
        clients.map((client, index) => ({
          email: client.email,
          currency: client.settings.currency,
          aligner_price: client.settings.aligner_price ?? null,
          aligner_single_layer_price: client.settings.aligner_single_layer_price ?? null,
          aligner_three_layer_price: client.settings.aligner_three_layer_price ?? null,
          matrix_price: client.settings.matrix_price ?? null,
          retainer_standard_price: client.settings.retainer_standard_price ?? null,
          retainer_premium_price: client.settings.retainer_premium_price ?? null,
          discount_percentage: client.settings.discount_percentage ?? null,
          personal_comment: client.settings.personal_comment ?? null,
          notification_channel: client.settings.notification_channel,
          created_at: plus(now, -(120 + index * 7) * DAY),
          updated_at: plus(now, -(20 + index * 3) * DAY),
        })),
      )
      .onConflict((oc) => oc.column("email").doNothing())
      .execute();
    await trx
      .insertInto("translations")
      .values(
        TRANSLATIONS.map((row, index) => ({
          ...row,
          source_language: "ru",
          created_at: plus(now, -(40 - index) * DAY),
          updated_at: plus(now, -(40 - index) * DAY),
        })),
      )
      .onConflict((oc) => oc.columns(["original_text", "source_language", "target_language"]).doNothing())
      .execute();
    await trx
      .insertInto("partner_codes")
      .values(
        PARTNERS.map((partner, index) => ({
          code: partner.code,
          user_email: partner.userEmail,
          user_name: partner.userName,
          contact_email: partner.contactEmail,
          contact_phone: partner.contactPhone,
          offer_accepted_at: plus(now, -(100 + index * 5) * DAY),
          reward_percentage: partner.reward,
          created_at: plus(now, -(101 + index * 5) * DAY),
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  });

  // 2. Orders, one by one through the state machine.
  const usedNames = new Set<string>();
  const firstHandOff = new Map<string, { orderId: string; at: Date }>();
  for (const plan of PLAN) {
    const client = plan.client === null ? null : clients[plan.client];
    const currency: Currency = client?.currency ?? "rub";
    const market: MarketColumn = client?.market ?? "domestic";
    const steps = stepsFor(plan.path, random);

    // Times: created at the planned day, each step after the previous; nothing ends in the future.
    let createdAt = plus(now, -Math.round(plan.daysAgo * DAY) + random.int(-90, 90) * MINUTE);
    // Upper bound of the time makePatients spends per patient (at most 32 minutes of uploads), plus the wizard.
    const composeTime = plan.patients * 35 * MINUTE + 10 * MINUTE;
    const chainLength = composeTime + steps.reduce((sum, step) => sum + step.after, 0);
    const overflow = createdAt.getTime() + chainLength - (now.getTime() - 10 * MINUTE);
    if (overflow > 0) createdAt = plus(createdAt, -overflow);

    const withContacts = client !== null && (plan.patients > 0 || (plan.step ?? 11) >= 3);
    const customerActor: Actor = { kind: "customer", label: client?.email ?? `guest (85.140.${random.int(1, 254)}.${random.int(1, 254)})` };
    const order = await createOrder(
      db,
      {
        market,
        currency,
        email: withContacts ? client.email : null,
        fullName: withContacts ? client.fullName : null,
        phone: withContacts ? client.phone : null,
        address: withContacts ? client.address : null,
        createdAt,
      },
      customerActor,
    );

    const patients = makePatients(random, order, plan.patients, market === "international", plus(createdAt, 3 * MINUTE), usedNames);
    const { total, discount } = orderTotal(patients, currency, client);
    const lastUpload = Math.max(
      createdAt.getTime(),
      ...patients.flatMap((patient) => [...patient.files.matrix, ...patient.files.aligners, ...patient.files.retainer]).map((file) => Date.parse(file.uploadedAt!)),
    );
    const composedAt = new Date(Math.min(lastUpload + 5 * MINUTE, createdAt.getTime() + composeTime));
    const isDraftPlan = plan.path === "draft" || plan.path === "returned";
    const first = patients[0];

    // Composition, wizard state and queue entries in one transaction, before the hand-off freezes it.
    const queued = await db.transaction().execute(async (trx) => {
      const inserted: Array<{ id: string; patient: PatientDraft }> = [];
      for (const patient of patients) {
        const row = await trx
          .insertInto("orders_patients")
          .values({
            order_id: order.id,
            patient_name: patient.name,
            folder_name: patient.folder,
            material_type: patient.material,
            cut_type: patient.cut,
            matrix_type: patient.skipMatrix ? null : patient.matrix,
            additional_comments: patient.comment,
            matrix_files_info: JSON.stringify(patient.files.matrix),
            aligner_files_info: JSON.stringify(patient.files.aligners),
            retainer_files_info: JSON.stringify(patient.files.retainer),
            skip_matrix: patient.skipMatrix,
            skip_aligners: false,
            skip_retainers: patient.skipRetainers,
            created_at: patient.createdAt,
            updated_at: composedAt,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        inserted.push({ id: row.id, patient });
      }
      await trx
        .updateTable("orders")
        .set({
          wizard_step: isDraftPlan ? plan.step ?? 1 : 11,
          delivery_comment: withContacts ? random.pick(DELIVERY_COMMENTS) : null,
          additional_comments: patients.length > 0 ? random.pick(ORDER_COMMENTS) : null,
          material_type: first?.material ?? null,
          cut_type: first?.cut ?? null,
          matrix_type: first && !first.skipMatrix ? first.matrix : null,
          retainer_type: patients.some((patient) => patient.files.retainer.length > 0) ? "standard" : null,
          current_patient_id: inserted.at(-1)?.id ?? null,
          total_cost: patients.length > 0 ? total : null,
          discount_percentage: patients.length > 0 ? discount : null,
          updated_at: composedAt,
        })
        .where("id", "=", order.id)
        .execute();

      // Entries are created at upload (DESIGN §4.15), in upload order; their state is set after the status walk.
      const entries = inserted.flatMap(({ id: patientId, patient }) =>
        (["matrix", "aligners", "retainer"] as const).flatMap((type) =>
          patient.files[type].map((file) => ({
            order_id: order.id,
            patient_id: patientId,
            file_path: file.storagePath,
            original_name: file.originalName,
            destination_path: `/AlignersFactory/${order.code}/${patient.folder}/${type}`,
            order_prefix: order.code,
            patient_name: patient.name,
            file_type: type,
            file_size: file.size,
            status: "pending" as const,
            created_at: new Date(file.uploadedAt!),
            next_attempt_at: new Date(file.uploadedAt!),
          })),
        ),
      );
      if (entries.length === 0) return [];
      const rows = await trx.insertInto("ftp_uploads_queue").values(entries).returning(["id", "file_path"]).execute();
      return entries.map((entry) => ({ id: rows.find((row) => row.file_path === entry.file_path)!.id }));
    });

    // Walk the state machine; paid_at and history come from changeOrderStatus.
    let clock = composedAt;
    const times: Partial<Record<OrderStatus, Date>> = {};
    for (const step of steps) {
      clock = plus(clock, step.after);
      const actor = step.actor === "customer" ? customerActor : step.actor === "payment" ? paymentActor : random.pick(staffActors);
      await changeOrderStatus(db, order.id, step.to, actor, {
        at: clock,
        note: step.note ?? null,
        trackingNumber: step.tracking ? trackingNumber(random, market) : null,
      });
      times[step.to] ??= clock;
    }
    // The partner link is made when an e-mail first goes to payment (DESIGN §4.29); the plan is not in date order.
    const handOff = times.pending;
    const earliest = client ? firstHandOff.get(client.email) : undefined;
    if (client && handOff && (!earliest || earliest.at.getTime() > handOff.getTime())) {
      firstHandOff.set(client.email, { orderId: order.id, at: handOff });
    }

    // Payment attempts: one per hand-off, succeeded once verified.
    if (handOff && total > 0 && patients.length > 0) {
      const attempts: Array<{ status: PaymentStatus; createdAt: Date; updatedAt: Date }> = [];
      if (plan.path === "paid_retry") {
        attempts.push({ status: "canceled", createdAt: handOff, updatedAt: plus(handOff, 4 * MINUTE) });
      }
      const finalStatus: PaymentStatus = times.paid
        ? "succeeded"
        : plan.path === "returned" || plan.path === "cancelled_pending"
          ? "canceled"
          : "pending";
      const attemptStart = plan.path === "paid_retry" ? plus(handOff, 5 * MINUTE) : handOff;
      const finishedAt = times.paid ?? times.draft ?? times.cancelled ?? attemptStart;
      attempts.push({ status: finalStatus, createdAt: attemptStart, updatedAt: finishedAt });
      let providerPaymentId: string | null = null;
      for (const [index, attempt] of attempts.entries()) {
        providerPaymentId = `sbx_${order.id.replaceAll("-", "").slice(0, 20)}_${index + 1}`;
        await db
          .insertInto("payments")
          .values({
            order_id: order.id,
            order_code: order.code,
            provider: "sandbox",
            provider_payment_id: providerPaymentId,
            amount: total,
            currency,
            status: attempt.status,
            idempotence_key: `seed-${order.id}-${index + 1}`,
            confirmation_url: attempt.status === "pending" ? `/payment/sandbox/${providerPaymentId}` : null,
            created_at: attempt.createdAt,
            updated_at: attempt.updatedAt,
          })
          .execute();
      }
      await db.updateTable("orders").set({ payment_id: providerPaymentId }).where("id", "=", order.id).execute();
    }

    // Queue state: sent shortly after payment; a few entries in flight or failing.
    if (queued.length > 0 && times.paid) {
      await db.transaction().execute(async (trx) => {
        for (const [index, entry] of queued.entries()) {
          let status: QueueStatus = "completed";
          if (plan.path === "paid" && plan.queue === undefined) status = "pending";
          if (plan.queue === "uploading") status = index === 0 ? "uploading" : "pending";
          if (plan.queue === "stale_lease") status = index === 0 ? "uploading" : "pending";
          if (plan.queue === "partial") status = index < Math.ceil(queued.length / 2) ? "completed" : "pending";
          if ((plan.queue === "failed_retry" || plan.queue === "failed_exhausted") && index === queued.length - 1) status = "failed";
          if (status === "pending") continue;

          const sentAt = plus(times.paid!, (index + 1) * 40 * 1000);
          if (status === "completed") {
            await trx
              .updateTable("ftp_uploads_queue")
              .set({ status, attempts: 1, last_attempt_at: sentAt, completed_at: sentAt, next_attempt_at: sentAt })
              .where("id", "=", entry.id)
              .execute();
          } else if (status === "uploading") {
            // A live lease, or (stale_lease) one whose worker died: claimed again once it expires.
            const claimedAt = plan.queue === "stale_lease" ? plus(now, -25 * MINUTE) : plus(now, -1 * MINUTE);
            await trx
              .updateTable("ftp_uploads_queue")
              .set({
                status,
                attempts: 1,
                last_attempt_at: claimedAt,
                next_attempt_at: claimedAt,
                locked_until: plus(claimedAt, 5 * MINUTE),
                locked_by: plan.queue === "stale_lease" ? "worker-2f9c (pid 4412)" : "worker-7a1e (pid 4380)",
              })
              .where("id", "=", entry.id)
              .execute();
          } else {
            const attempts = plan.queue === "failed_exhausted" ? 8 : 3;
            const lastAttempt = plus(now, -random.int(10, 50) * MINUTE);
            await trx
              .updateTable("ftp_uploads_queue")
              .set({
                status,
                attempts,
                error_message: plan.queue === "failed_exhausted" ? QUEUE_ERRORS[2] : random.pick(QUEUE_ERRORS.slice(0, 2)),
                last_attempt_at: lastAttempt,
                // Exponential backoff; an exhausted entry waits for staff.
                next_attempt_at: plus(lastAttempt, 2 ** attempts * MINUTE),
              })
              .where("id", "=", entry.id)
              .execute();
          }
        }
      });
    }
  }

  // 3. Partners' referrals, payouts, users and roles; the admin user (the marker) last.
  await db.transaction().execute(async (trx) => {
    const partners = await trx.selectFrom("partner_codes").select(["id", "code"]).where("code", "in", PARTNERS.map((p) => p.code)).execute();
    const partnerId = new Map(partners.map((row) => [row.code, row.id]));
    for (const partner of PARTNERS) {
      const id = partnerId.get(partner.code)!;
      for (const [index, email] of partner.affiliates.entries()) {
        const first = firstHandOff.get(email);
        await trx
          .insertInto("partner_affiliates")
          .values({
            partner_code_id: id,
            affiliate_email: email,
            first_order_id: first?.orderId ?? null,
            created_at: first?.at ?? plus(now, -(7 + index) * DAY),
          })
          .onConflict((oc) => oc.column("affiliate_email").doNothing())
          .execute();
        if (first) await trx.updateTable("orders").set({ partner_code_id: id }).where("id", "=", first.orderId).execute();
      }
    }

    // Payouts cover part of what was accrued, so the balance due stays positive.
    for (const partner of PARTNERS) {
      if (partner.payoutShare <= 0) continue;
      const id = partnerId.get(partner.code)!;
      const balance = await trx.selectFrom("partner_balance_summary").select("accrued_total").where("partner_code_id", "=", id).executeTakeFirst();
      const stats = await trx.selectFrom("partner_affiliate_order_stats").select("first_paid_at").where("partner_code_id", "=", id).execute();
      const accrued = Number(balance?.accrued_total ?? 0);
      const firstPaid = stats.map((row) => row.first_paid_at).filter((date): date is Date => date !== null).sort((a, b) => a.getTime() - b.getTime())[0];
      if (!firstPaid || accrued <= 0) continue;
      // Two payouts: one for the quarter of the first paid referral, one in the current quarter.
      const shares = [partner.payoutShare * 0.6, partner.payoutShare * 0.4];
      const periods = [firstPaid, plus(now, -2 * DAY)];
      for (const [index, share] of shares.entries()) {
        const amount = Math.floor((accrued * share) / 10000) * 10000; // whole hundreds of roubles
        if (amount <= 0) continue;
        const period = periods[index];
        const paidAt = new Date(Math.min(now.getTime() - DAY, Math.max(period.getTime(), firstPaid.getTime()) + 3 * DAY));
        await trx
          .insertInto("partner_payouts")
          .values({
            partner_code_id: id,
            amount,
            currency: "rub",
            period_year: period.getUTCFullYear(),
            period_quarter: Math.floor(period.getUTCMonth() / 3) + 1,
            note: index === 0 ? partner.payoutNote : "Частичная выплата за текущий квартал",
            created_by: DEMO_ADMIN_EMAIL,
            paid_at: paidAt,
          })
          .execute();
      }
    }

    const people = [
      { email: DEMO_MANAGER_EMAIL, role: "manager" as const, createdDaysAgo: 150, signedInDaysAgo: 0.1 },
      { email: "info@ulybka-dental.ru", role: null, createdDaysAgo: 110, signedInDaysAgo: 1 },
      { email: "sadykova@kazan-dent.ru", role: null, createdDaysAgo: 95, signedInDaysAgo: 3 },
      { email: "zakaz@ortodont-pro.ru", role: null, createdDaysAgo: 130, signedInDaysAgo: 0.3 },
      { email: "partner@ortho-nw.ru", role: null, createdDaysAgo: 105, signedInDaysAgo: 12 },
      { email: "garipova.lilia@mail.ru", role: null, createdDaysAgo: 100, signedInDaysAgo: null },
      { email: DEMO_ADMIN_EMAIL, role: "admin" as const, createdDaysAgo: 160, signedInDaysAgo: 0.05 },
    ];
    for (const person of people) {
      const user = await trx
        .insertInto("users")
        .values({
          email: person.email,
          created_at: plus(now, -person.createdDaysAgo * DAY),
          last_sign_in_at: person.signedInDaysAgo === null ? null : plus(now, -Math.round(person.signedInDaysAgo * DAY)),
        })
        .onConflict((oc) => oc.column("email").doUpdateSet({ email: person.email }))
        .returning("id")
        .executeTakeFirstOrThrow();
      if (person.role) {
        await trx
          .insertInto("user_roles")
          .values({ user_id: user.id, role: person.role, created_at: plus(now, -person.createdDaysAgo * DAY) })
          .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
          .execute();
      }
    }
  });

  return { seeded: true, message: `Demo data loaded (${PLAN.length} orders).`, counts: await countRows(db) };
}
