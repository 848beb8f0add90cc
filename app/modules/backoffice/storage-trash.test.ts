import { describe, expect, it } from "vitest";
import type { OrderStatus, QueueStatus } from "~db/schema";
import { batches, classifyFolder, type FolderOrder, groupByFolder, needsWarning, orderIdOfFolder } from "./storage-trash";

const ID = "3f2a0c1e-0000-4000-8000-000000000001";
const NAME = `order_${ID}`;
const NOW = new Date("2026-11-22T12:00:00Z");
const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
const files = [
  { key: `${NAME}/${ID.slice(0, 4)}_1/aligners/a.stl`, size: 100 },
  { key: `${NAME}/${ID.slice(0, 4)}_1/matrix/m.stl`, size: 50 },
];
const order = (status: OrderStatus, updatedAt = days(1)): FolderOrder => ({ id: ID, status, updatedAt, fullName: "Иванова", email: "a@b.ru" });
const queue = (...statuses: Array<QueueStatus | undefined>) =>
  new Map(files.flatMap((file, index) => (statuses[index] ? [[file.key, statuses[index]!] as const] : [])));

describe("storage garbage (DESIGN §4.18)", () => {
  it("frees a file no list of a live order names once it is an hour old, and never a listed one (ADR 063)", () => {
    const listed = new Set([files[0]!.key]);
    const old = [files[0]!, { ...files[1]!, lastModified: new Date(NOW.getTime() - 2 * 3_600_000) }];
    expect(classifyFolder(NAME, old, order("paid"), new Map(), NOW, listed)).toMatchObject({ verdict: "in_progress", deletable: false, garbage: [files[1]!.key] });
    // Just written: perhaps an upload being recorded right now.
    const fresh = [files[0]!, { ...files[1]!, lastModified: new Date(NOW.getTime() - 60_000) }];
    expect(classifyFolder(NAME, fresh, order("paid"), new Map(), NOW, listed)).toMatchObject({ garbage: [] });
    // A queue entry still waiting keeps even an unlisted file.
    expect(classifyFolder(NAME, old, order("paid"), queue(undefined, "pending"), NOW, listed)).toMatchObject({ garbage: [] });
    // Delivered means every listed file delivered; the unlisted old one goes with them.
    expect(classifyFolder(NAME, old, order("shipped"), queue("completed", undefined), NOW, listed)).toMatchObject({ verdict: "delivered", deletable: true });
  });

  it("treats a folder whose order no longer exists as garbage", () => {
    const folder = classifyFolder(NAME, files, null, new Map(), NOW);
    expect(folder).toMatchObject({ verdict: "order_missing", deletable: true, size: 150, orderId: ID });
    expect(folder.garbage).toHaveLength(2);
  });

  it.each<OrderStatus>(["pending", "paid", "processing"])("never treats files of a %s order as garbage", (status) => {
    const folder = classifyFolder(NAME, files, order(status), queue("completed", "completed"), NOW);
    expect(folder).toMatchObject({ verdict: "in_progress", deletable: false, garbage: [] });
  });

  it("keeps a draft touched within 30 days and frees one untouched for longer", () => {
    expect(classifyFolder(NAME, files, order("draft", days(29)), new Map(), NOW)).toMatchObject({ verdict: "recent_draft", garbage: [] });
    expect(classifyFolder(NAME, files, order("draft", days(31)), new Map(), NOW)).toMatchObject({ verdict: "abandoned_draft", deletable: true });
  });

  it("frees a cancelled order's files, except those still waiting for the file server", () => {
    expect(classifyFolder(NAME, files, order("cancelled"), queue("completed", undefined), NOW)).toMatchObject({ verdict: "cancelled", deletable: true });
    const partly = classifyFolder(NAME, files, order("cancelled"), queue("completed", "failed"), NOW);
    expect(partly).toMatchObject({ verdict: "queued_files", deletable: false, garbage: [files[0]!.key] });
  });

  it.each<OrderStatus>(["completed", "shipped"])("frees a %s order only when every file was delivered", (status) => {
    expect(classifyFolder(NAME, files, order(status), queue("completed", "completed"), NOW)).toMatchObject({ verdict: "delivered", deletable: true });
    expect(classifyFolder(NAME, files, order(status), queue("completed", "pending"), NOW)).toMatchObject({ verdict: "not_delivered", garbage: [] });
    // A file with no queue entry was never confirmed delivered.
    expect(classifyFolder(NAME, files, order(status), queue("completed", undefined), NOW)).toMatchObject({ verdict: "not_delivered", garbage: [] });
  });

  it("leaves anything that is not an order folder alone", () => {
    expect(classifyFolder("tus-uploads", [{ key: "tus-uploads/x", size: 1 }], null, new Map(), NOW)).toMatchObject({ verdict: "not_an_order_folder", garbage: [], deletable: false });
    expect(orderIdOfFolder(`order_${ID.toUpperCase()}`)).toBe(ID);
    expect(orderIdOfFolder(`order_${ID}x`)).toBeNull();
  });

  it("groups keys by their first segment, warns on pending and completed orders, batches by 100", () => {
    const grouped = groupByFolder([...files, { key: "loose.txt", size: 1 }]);
    expect([...grouped.keys()]).toEqual([NAME, "loose.txt"]);
    expect(grouped.get(NAME)).toHaveLength(2);
    expect(["pending", "completed", "paid", undefined].map((status) => needsWarning(status as OrderStatus | undefined))).toEqual([true, true, false, false]);
    expect(batches(Array.from({ length: 250 }, (_, i) => i), 100).map((batch) => batch.length)).toEqual([100, 100, 50]);
  });
});
