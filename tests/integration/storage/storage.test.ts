import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage, InvalidKeyError, type FileStorage } from "~/modules/storage/storage.server";
import { startS3Server, type TestS3Server } from "../../support/s3-server";
import { failingStream, generatedStream, sha256Of, textOf } from "../../support/streams";
import { createHash } from "node:crypto";

const buckets = { orders: "test-orders", logos: "test-logos" };

interface Subject {
  storage: FileStorage;
  stop(): Promise<void>;
}

const BAD_KEYS = ["", "../escape.stl", "a/../../escape", "/etc/passwd", "a\\b.stl", "a//b", "a/./b", "a/", "C:/x"];

async function putText(storage: FileStorage, key: string, text: string, contentType?: string) {
  return storage.put("orders", key, Readable.from([Buffer.from(text)]), { contentType });
}

/** The behaviour every FileStorage must have; the folder and S3 implementations both run it. */
function storageContract(name: string, start: () => Promise<Subject>) {
  describe(name, () => {
    let subject: Subject;
    let storage: FileStorage;

    beforeAll(async () => {
      subject = await start();
      storage = subject.storage;
      await storage.ensureBuckets();
      await storage.ensureBuckets(); // idempotent
    });
    afterAll(async () => {
      await subject?.stop();
    });

    it("stores a stream and reads it back with size and content type", async () => {
      const result = await putText(storage, "orders/17/notes.txt", "upper jaw only", "text/plain");
      expect(result).toEqual({ size: 14 });

      const stored = await storage.get("orders", "orders/17/notes.txt");
      expect(stored).not.toBeNull();
      expect(stored!.size).toBe(14);
      expect(stored!.contentType).toBe("text/plain");
      expect(await textOf(stored!.body)).toBe("upper jaw only");

      const info = await storage.head("orders", "orders/17/notes.txt");
      expect(info).toMatchObject({ size: 14, contentType: "text/plain" });
      expect(Math.abs(info!.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    });

    it("streams a multi-megabyte body through unchanged", async () => {
      const hash = createHash("sha256");
      const { size } = await storage.put("orders", "big/scan.stl", generatedStream(12 * 1024 * 1024 + 17, hash, 256 * 1024));
      expect(size).toBe(12 * 1024 * 1024 + 17);
      const stored = await storage.get("orders", "big/scan.stl");
      expect(await sha256Of(stored!.body)).toEqual({ hex: hash.digest("hex"), bytes: size });
      await storage.delete("orders", ["big/scan.stl"]);
    });

    it("stores an empty body", async () => {
      expect(await storage.put("orders", "empty.txt", Readable.from([]))).toEqual({ size: 0 });
      const stored = await storage.get("orders", "empty.txt");
      expect(stored!.size).toBe(0);
      expect(await textOf(stored!.body)).toBe("");
    });

    it("overwrites an existing key", async () => {
      await putText(storage, "logo-draft.txt", "first version");
      await putText(storage, "logo-draft.txt", "second");
      const stored = await storage.get("orders", "logo-draft.txt");
      expect(await textOf(stored!.body)).toBe("second");
      expect(stored!.size).toBe(6);
    });

    it("returns null for a missing key", async () => {
      expect(await storage.get("orders", "no/such/key.stl")).toBeNull();
      expect(await storage.head("orders", "no/such/key.stl")).toBeNull();
      // A "folder" of other keys is not an object either.
      await putText(storage, "folder-like/inner.txt", "x");
      expect(await storage.get("orders", "folder-like")).toBeNull();
      expect(await storage.head("orders", "folder-like")).toBeNull();
      // Nor is a path through a file.
      expect(await storage.get("orders", "folder-like/inner.txt/deeper")).toBeNull();
    });

    it("keeps the logical buckets apart", async () => {
      await storage.put("logos", "clinic-1.svg", Readable.from([Buffer.from("<svg/>")]), { contentType: "image/svg+xml" });
      expect(await storage.head("orders", "clinic-1.svg")).toBeNull();
      const logo = await storage.get("logos", "clinic-1.svg");
      expect(logo!.contentType).toBe("image/svg+xml");
      expect(await textOf(logo!.body)).toBe("<svg/>");
    });

    it("lists by prefix, sorted, with sizes", async () => {
      await putText(storage, "list/a/1.stl", "1");
      await putText(storage, "list/a/2.stl", "22");
      await putText(storage, "list/ab.stl", "333");
      await putText(storage, "list/b/3.stl", "4444");
      await putText(storage, "listing-other.txt", "x");

      const all = await storage.list("orders", "list/");
      expect(all.map((object) => [object.key, object.size])).toEqual([
        ["list/a/1.stl", 1],
        ["list/a/2.stl", 2],
        ["list/ab.stl", 3],
        ["list/b/3.stl", 4],
      ]);
      for (const object of all) expect(object.lastModified).toBeInstanceOf(Date);

      // A prefix is a string prefix, not a folder: "list/a" matches "list/ab.stl" too.
      expect((await storage.list("orders", "list/a")).map((object) => object.key)).toEqual(["list/a/1.stl", "list/a/2.stl", "list/ab.stl"]);
      expect((await storage.list("orders", "list/a/")).map((object) => object.key)).toEqual(["list/a/1.stl", "list/a/2.stl"]);
      expect(await storage.list("orders", "nothing-here/")).toEqual([]);
      expect((await storage.list("orders")).length).toBeGreaterThanOrEqual(6);
    });

    it("reads its own writes: objects are listed and read whole the moment their put has answered", async () => {
      const keys = Array.from({ length: 20 }, (_, index) => `fresh/${String(index).padStart(2, "0")}.stl`);
      const bodies = keys.map((key, index) => Buffer.alloc(64 * 1024 + index, index));
      await Promise.all(keys.map((key, index) => storage.put("orders", key, Readable.from([bodies[index]]))));
      const listed = await storage.list("orders", "fresh/");
      expect(listed.map((object) => [object.key, object.size])).toEqual(keys.map((key, index) => [key, bodies[index].length]));
      const last = await storage.get("orders", keys.at(-1)!);
      expect(last!.size).toBe(bodies.at(-1)!.length);
      await storage.delete("orders", keys);
    });

    // 1,010 objects put, listed and deleted: the limit is the backstop of a machine too busy for s3rver to keep up.
    it("lists past the first page and deletes in batches", { timeout: 180_000 }, async () => {
      const keys = Array.from({ length: 1_010 }, (_, index) => `many/${String(index).padStart(4, "0")}.txt`);
      for (let start = 0; start < keys.length; start += 50) {
        await Promise.all(keys.slice(start, start + 50).map((key) => putText(storage, key, "x")));
      }
      const listed = await storage.list("orders", "many/");
      expect(listed.map((object) => object.key)).toEqual(keys);

      await storage.delete("orders", keys);
      expect(await storage.list("orders", "many/")).toEqual([]);
    });

    it("deletes objects and ignores missing keys", async () => {
      await putText(storage, "del/one.txt", "1");
      await putText(storage, "del/two.txt", "2");
      await storage.delete("orders", ["del/one.txt", "del/never-existed.txt"]);
      expect(await storage.head("orders", "del/one.txt")).toBeNull();
      expect(await storage.head("orders", "del/two.txt")).not.toBeNull();
      await storage.delete("orders", []);
      await storage.delete("orders", ["del/two.txt"]);
      expect(await storage.list("orders", "del/")).toEqual([]);
      // The key can be reused as a plain object once its "folder" is gone.
      await putText(storage, "del", "now a file");
      expect(await textOf((await storage.get("orders", "del"))!.body)).toBe("now a file");
    });

    it("pages the bucket in S3's byte order, a page at a time, whatever the folders", async () => {
      // "-" (0x2D) and "." (0x2E) sort before "/" (0x2F): a folder's keys come after its neighbours'.
      // S3 itself sorts by bytes; the local S3 double (s3rver) pages in its own folder order, so these
      // neighbours are only put where the implementation is ours.
      const tricky = name.startsWith("folder") ? ["pg/a-c", "pg/a.z"] : [];
      const keys = ["pg/a/b", ...tricky, "pg/a/a/x", "pg/ab", "pg/a/c", "pg/b", "pg/a0"];
      for (const key of keys) await putText(storage, key, key);
      const expected = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      const all = (await storage.list("orders")).map((object) => object.key);
      const paged: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { objects: { key: string }[]; last: string | null } = await storage.listAfter("orders", cursor, 2);
        expect(page.objects.length).toBeLessThanOrEqual(2);
        paged.push(...page.objects.map((object) => object.key));
        cursor = page.last;
        pages++;
      } while (cursor !== null);
      expect(paged).toEqual(all);
      expect(paged.filter((key) => key.startsWith("pg/"))).toEqual(expected);
      // The folder fills every page; S3's pages leave out the graveyard's keys after reading them.
      if (name.startsWith("folder")) expect(pages).toBe(Math.ceil(all.length / 2));
      // A cursor inside a folder goes on after it, and one between keys that no object has works too.
      expect((await storage.listAfter("orders", "pg/a/a/x", 2)).objects.map((object) => object.key)).toEqual(["pg/a/b", "pg/a/c"]);
      expect((await storage.listAfter("orders", "pg/a/bb", 1)).objects.map((object) => object.key)).toEqual(["pg/a/c"]);
      await storage.delete("orders", keys);
    });

    it("keeps a deleted object in the graveyard, out of every listing, until it is purged", async () => {
      await putText(storage, "grave/scan.stl", "first");
      await storage.delete("orders", ["grave/scan.stl"]);
      await putText(storage, "grave/scan.stl", "second");
      await storage.delete("orders", ["grave/scan.stl"]);
      expect(await storage.head("orders", "grave/scan.stl")).toBeNull();
      // Neither a listing nor a page of the bucket shows the graveyard.
      expect((await storage.list("orders")).filter((object) => object.key.includes("grave/"))).toEqual([]);
      let cursor: string | null = null;
      const paged: string[] = [];
      do {
        const page: { objects: { key: string }[]; last: string | null } = await storage.listAfter("orders", cursor, 100);
        paged.push(...page.objects.map((object) => object.key));
        cursor = page.last;
      } while (cursor !== null);
      expect(paged.filter((key) => key.includes("grave/"))).toEqual([]);
      expect(paged).toEqual((await storage.list("orders")).map((object) => object.key));
      // The latest deletion of the key is the one found.
      const deleted = await storage.getDeleted("orders", "grave/scan.stl");
      expect(deleted).not.toBeNull();
      expect(await textOf(deleted!.body)).toBe("second");
      expect(await storage.getDeleted("orders", "grave/never.stl")).toBeNull();
      expect(await storage.getDeleted("logos", "grave/scan.stl")).toBeNull();
      // Purging what was deleted before an hour ago keeps it; purging up to the next hour removes it.
      expect(await storage.purgeDeleted("orders", new Date(Date.now() - 3600_000), 10)).toBe(0);
      expect(await storage.getDeleted("orders", "grave/scan.stl")).not.toBeNull();
      expect(await storage.purgeDeleted("orders", new Date(Date.now() + 3600_000), 10)).toBe(1);
      expect(await storage.getDeleted("orders", "grave/scan.stl")).toBeNull();
      await expect(putText(storage, "~deleted/20260101T00/x.stl", "x")).rejects.toBeInstanceOf(InvalidKeyError);
    });

    it("copies an object by itself: the same bytes and content type under the new key, the original untouched", async () => {
      const hash = createHash("sha256");
      const { size } = await storage.put("orders", "order_a/p_1/aligners/upper 1 (ВЧ).stl", generatedStream(6 * 1024 * 1024 + 5, hash, 256 * 1024), { contentType: "model/stl" });
      const original = hash.digest("hex");

      expect(await storage.copy("orders", "order_a/p_1/aligners/upper 1 (ВЧ).stl", "order_b/p_1/aligners/upper_1.stl")).toEqual({ size });
      const copy = await storage.get("orders", "order_b/p_1/aligners/upper_1.stl");
      expect(copy!.contentType).toBe("model/stl");
      expect(await sha256Of(copy!.body)).toEqual({ hex: original, bytes: size });
      const source = await storage.get("orders", "order_a/p_1/aligners/upper 1 (ВЧ).stl");
      expect(await sha256Of(source!.body)).toEqual({ hex: original, bytes: size });

      // Deleting one leaves the other: they are two objects, not two names of one.
      await storage.delete("orders", ["order_a/p_1/aligners/upper 1 (ВЧ).stl"]);
      expect(await sha256Of((await storage.get("orders", "order_b/p_1/aligners/upper_1.stl"))!.body)).toEqual({ hex: original, bytes: size });
      await storage.delete("orders", ["order_b/p_1/aligners/upper_1.stl"]);
    });

    it("copies over an existing key, and answers null for a missing source without making the target", async () => {
      await putText(storage, "copy/from.txt", "new text");
      await putText(storage, "copy/to.txt", "old");
      expect(await storage.copy("orders", "copy/from.txt", "copy/to.txt")).toEqual({ size: 8 });
      expect(await textOf((await storage.get("orders", "copy/to.txt"))!.body)).toBe("new text");

      expect(await storage.copy("orders", "copy/never-existed.txt", "copy/nothing.txt")).toBeNull();
      expect(await storage.head("orders", "copy/nothing.txt")).toBeNull();
      for (const key of BAD_KEYS) {
        await expect(storage.copy("orders", key, "copy/x.txt"), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.copy("orders", "copy/from.txt", key), key).rejects.toBeInstanceOf(InvalidKeyError);
      }
      await storage.delete("orders", ["copy/from.txt", "copy/to.txt"]);
    });

    it("rejects bad keys everywhere", async () => {
      for (const key of BAD_KEYS) {
        await expect(putText(storage, key, "x"), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.get("orders", key), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.head("orders", key), key).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.delete("orders", ["fine.txt", key]), key).rejects.toBeInstanceOf(InvalidKeyError);
      }
      await expect(storage.list("orders", "../")).rejects.toBeInstanceOf(InvalidKeyError);
    });

    it("stores nothing when the source stream fails", async () => {
      await expect(storage.put("orders", "broken/upload.stl", failingStream(64 * 1024))).rejects.toThrow("client went away");
      expect(await storage.head("orders", "broken/upload.stl")).toBeNull();
      expect(await storage.list("orders", "broken/")).toEqual([]);
    });

    it("stores nothing when the body length differs from contentLength", async () => {
      await expect(storage.put("orders", "short.bin", Readable.from([randomBytes(10)]), { contentLength: 11 })).rejects.toThrow(/length/);
      await expect(storage.put("orders", "long.bin", Readable.from([randomBytes(12)]), { contentLength: 11 })).rejects.toThrow(/length/);
      expect(await storage.head("orders", "short.bin")).toBeNull();
      expect(await storage.head("orders", "long.bin")).toBeNull();
      expect(await storage.put("orders", "exact.bin", Readable.from([randomBytes(11)]), { contentLength: 11 })).toEqual({ size: 11 });
    });
  });
}

storageContract("folder storage", async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "storage-"));
  return {
    storage: createStorage({ storage: { kind: "folder", dir }, buckets }),
    async stop() {
      // Nothing half-written may be left behind in the temporary folder.
      expect(fs.readdirSync(path.join(dir, ".tmp"))).toEqual([]);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
});

storageContract("S3 storage (s3rver)", async () => {
  const server: TestS3Server = await startS3Server();
  return { storage: createStorage({ storage: server.storage, buckets }), stop: () => server.stop() };
});

describe("folder storage layout", () => {
  it("keeps objects at <dir>/<bucket>/<key>", async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "storage-"));
    try {
      const storage = createStorage({ storage: { kind: "folder", dir }, buckets });
      await storage.put("orders", "2024/17/upper.stl", Readable.from([Buffer.from("solid")]));
      expect(await fsp.readFile(path.join(dir, "test-orders", "2024", "17", "upper.stl"), "utf8")).toBe("solid");
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
