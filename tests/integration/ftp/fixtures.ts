import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { DB } from "~/modules/db/db.server";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import type { Actor } from "~/modules/orders/status";
import type { FileStorage } from "~/modules/storage/storage.server";
import { storageKey, storedFileName } from "~/modules/uploads/file-names";
import { appendFiles } from "~/modules/orders/files.server";
import type { FileType, Order, OrderStatus, QueueEntry } from "~db/schema";
import { buildOrder, buildPatient } from "../../support/builders";

/**
 * Orders with files in storage and their queue entries, made the way the wizard makes them
 * (appendFiles on a draft, then the order walks the state machine), for the queue tests.
 */

const customer: Actor = { kind: "customer", label: "doctor@clinic.test" };
const payment: Actor = { kind: "payment", label: "sandbox" };
const staff: Actor = { kind: "staff", label: "manager@aligner.test" };

const WALK: Record<OrderStatus, Array<[OrderStatus, Actor, { note?: string; trackingNumber?: string }?]>> = {
  draft: [],
  pending: [["pending", customer]],
  paid: [["pending", customer], ["paid", payment]],
  processing: [["pending", customer], ["paid", payment], ["processing", staff]],
  shipped: [["pending", customer], ["paid", payment], ["processing", staff], ["shipped", staff, { trackingNumber: "RA000000001RU" }]],
  completed: [["pending", customer], ["paid", payment], ["completed", staff]],
  cancelled: [["cancelled", staff]],
};

/** Moves a draft order along the state machine to `status`. */
export async function walkOrderTo(db: DB, orderId: string, status: OrderStatus): Promise<void> {
  await db.updateTable("orders").set({ total_cost: 1_250_000 }).where("id", "=", orderId).execute();
  for (const [to, actor, details] of WALK[status]) await changeOrderStatus(db, orderId, to, actor, details);
}

export interface StoredFixtureFile {
  entry: QueueEntry;
  content: Buffer;
  sha256: string;
}

export interface OrderFixture {
  order: Order;
  files: StoredFixtureFile[];
}

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

let clock = Date.now();

/**
 * An order in `status` with `patients` patients, each with `filesPerPatient` files spread over the
 * three types; `sizes` picks each file's size (bytes) by its index.
 */
export async function orderWithFiles(
  db: DB,
  storage: FileStorage,
  options: { status: OrderStatus; patients?: number; filesPerPatient?: number; sizes?: (index: number) => number },
): Promise<OrderFixture> {
  const order = await buildOrder(db);
  const types: FileType[] = ["matrix", "aligners", "retainer"];
  const contents = new Map<string, Buffer>();
  let index = 0;
  for (let p = 0; p < (options.patients ?? 1); p++) {
    const patient = await buildPatient(db, order.id, `Пациент ${p + 1}`);
    for (let f = 0; f < (options.filesPerPatient ?? 1); f++) {
      const type = types[f % types.length]!;
      const size = options.sizes?.(index) ?? 1024 + index * 37;
      index++;
      const content = randomBytes(size);
      const at = new Date((clock += 7));
      const key = storageKey(order.id, patient.folder_name, type, storedFileName(`Шаг ${f + 1} верх.stl`, at));
      await storage.put("orders", key, Readable.from([content]), { contentLength: size });
      await appendFiles(db, order, patient, type, [{ originalName: `Шаг ${f + 1} верх.stl`, key, size, triangles: 0 }]);
      contents.set(key, content);
    }
  }
  await walkOrderTo(db, order.id, options.status);
  const entries = await db.selectFrom("ftp_uploads_queue").selectAll().where("order_id", "=", order.id).orderBy("created_at").execute();
  const current = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  return {
    order: current,
    files: entries.map((entry) => {
      const content = contents.get(entry.file_path)!;
      return { entry, content, sha256: sha256(content) };
    }),
  };
}

/** Where an entry's file must arrive: `<root>/<order code>/<patient folder>/<type>/<stored name>`. */
export function expectedRemotePath(root: string, order: Pick<Order, "code">, entry: QueueEntry, folder: string): string {
  return path.join(root, order.code, folder, entry.file_type, path.basename(entry.file_path));
}

/** Every file below `dir` (relative paths), hidden ones included. */
export function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile()).sort();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
