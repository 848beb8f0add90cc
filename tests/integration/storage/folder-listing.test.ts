import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { keptFolderReadCount } from "~/modules/storage/sorted-folders.server";

/**
 * The folder storage's pages read from their cursor (ADR 092): a large folder's sorted entries are kept
 * while it is unchanged, and every page is still exactly the bucket in S3's byte order — also after a
 * key was added or deleted in a kept folder.
 */
describe("the folder storage's pages after a cursor", () => {
  let dir: string;
  let storage: FileStorage;
  const put = (key: string) => storage.put("orders", key, Readable.from([Buffer.from(key)]));
  const all = async (pageSize: number) => {
    const keys: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<FileStorage["listAfter"]>> = await storage.listAfter("orders", cursor, pageSize);
      keys.push(...page.objects.map((object) => object.key));
      if (page.last === null) return keys;
      cursor = page.last;
    }
  };
  const byteOrder = (keys: string[]) => [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), "folder-listing-"));
    storage = createStorage({ storage: { kind: "folder", dir }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it("pages 150 order folders in byte order, and sees a key added or deleted in a folder it has read before", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 150; i++) keys.push(`order_${String(i * 7919 % 1000).padStart(4, "0")}/Пациент/matrix/upper.stl`, `order_${String(i * 7919 % 1000).padStart(4, "0")}-x.stl`);
    for (const key of keys) await put(key);
    expect(await all(7)).toEqual(byteOrder(keys));
    // Read again once the folder has settled: its listing is kept from here on.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await all(13)).toEqual(byteOrder(keys));
    expect(await all(1000)).toEqual(byteOrder(keys));

    await put("order_0500/Пациент/matrix/lower.stl");
    await put("order_0001.stl");
    await storage.delete("orders", [keys[3]!]);
    const now = byteOrder([...keys.filter((key) => key !== keys[3]), "order_0500/Пациент/matrix/lower.stl", "order_0001.stl"]);
    expect(await all(11)).toEqual(now);
    const after = now[40]!;
    expect((await storage.listAfter("orders", after, 5)).objects.map((object) => object.key)).toEqual(now.slice(41, 46));
  });

  it("keeps the order folders' listing across its own removals: a deleted order's folder gone from the pages without reading the bucket again", async () => {
    const keys = Array.from({ length: 120 }, (_, i) => `removal_${String(i).padStart(3, "0")}/Пациент/matrix/upper.stl`);
    for (const key of keys) await put(key);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = await all(50);
    expect(before.filter((key) => key.startsWith("removal_"))).toEqual(keys);
    const reads = keptFolderReadCount();
    // Housekeeping deletes two orders' files: their emptied folders are pruned, up to the bucket.
    await storage.delete("orders", [keys[10]!, keys[77]!]);
    const after = await all(50);
    expect(after.filter((key) => key.startsWith("removal_"))).toEqual(keys.filter((_, i) => i !== 10 && i !== 77));
    expect(await fsp.readdir(path.join(dir, "orders")).then((names) => names.includes("removal_010"))).toBe(false);
    expect(keptFolderReadCount() - reads, "the bucket's folder read again").toBe(0);
    // A folder another writer adds is seen as before (the folder's time moved past the kept one).
    await put("removal_500/Пациент/matrix/lower.stl");
    expect(await all(50)).toContain("removal_500/Пациент/matrix/lower.stl");
  });
});
