import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyLengthError } from "./body-length";
import { putStreamed } from "./s3-multipart.server";

/** An S3 client double that keeps what it was sent; `failPart` makes that part's upload fail. */
function fakeS3({ failPart, partDelayMs = 0 }: { failPart?: number; partDelayMs?: number } = {}) {
  const sent: string[] = [];
  const parts = new Map<number, Buffer>();
  const objects = new Map<string, Buffer>();
  let sending = 0;
  let mostAtOnce = 0;
  const client = {
    async send(command: unknown) {
      if (command instanceof CreateMultipartUploadCommand) {
        sent.push("create");
        return { UploadId: "upload-1" };
      }
      if (command instanceof UploadPartCommand) {
        const { PartNumber, Body, UploadId } = command.input;
        sent.push(`part ${PartNumber}`);
        expect(UploadId).toBe("upload-1");
        sending++;
        mostAtOnce = Math.max(mostAtOnce, sending);
        try {
          await new Promise((resolve) => setTimeout(resolve, partDelayMs));
          if (PartNumber === failPart) throw new Error("S3 is unreachable");
          parts.set(PartNumber!, Buffer.from(Body as Uint8Array)); // a copy: the uploader reuses its buffers
          return { ETag: `"etag-${PartNumber}"` };
        } finally {
          sending--;
        }
      }
      if (command instanceof CompleteMultipartUploadCommand) {
        const list = command.input.MultipartUpload!.Parts!;
        sent.push(`complete ${list.map((part) => `${part.PartNumber}:${part.ETag}`).join(",")}`);
        objects.set(command.input.Key!, Buffer.concat(list.map((part) => parts.get(part.PartNumber!)!)));
        return {};
      }
      if (command instanceof AbortMultipartUploadCommand) {
        sent.push("abort");
        return {};
      }
      if (command instanceof PutObjectCommand) {
        sent.push(`put ${command.input.ContentType ?? ""}`.trim());
        objects.set(command.input.Key!, Buffer.from(command.input.Body as Uint8Array));
        return {};
      }
      throw new Error(`unexpected command ${String(command)}`);
    },
  };
  return { client: client as unknown as S3Client, sent, objects, mostAtOnce: () => mostAtOnce };
}

/** `bytes` cut into chunks of the given sizes (repeated), as a request body arrives. */
function chunked(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0, index = 0; at < bytes.length; index++) {
    const size = sizes[index % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

const target = { Bucket: "orders", Key: "order_1/file.stl", ContentType: "model/stl" };

describe("putStreamed", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sends a body shorter than one part with a single PutObject", async () => {
    const s3 = fakeS3();
    const bytes = randomBytes(10);
    expect(await putStreamed(s3.client, target, chunked(bytes, [3]), { partSize: 16, partsInFlight: 2 })).toBe(10);
    expect(s3.sent).toEqual(["put model/stl"]);
    expect(s3.objects.get(target.Key)?.equals(bytes)).toBe(true);
  });

  it("allocates no part buffer for a body shorter than one part", async () => {
    const partSize = 64 * 1024;
    const allocations = vi.spyOn(Buffer, "allocUnsafe");
    const s3 = fakeS3();
    const bytes = randomBytes(partSize - 1);
    await putStreamed(s3.client, target, chunked(bytes, [4096]), { partSize, partsInFlight: 2 });
    expect(s3.sent).toEqual(["put model/stl"]);
    expect(s3.objects.get(target.Key)?.equals(bytes)).toBe(true);
    expect(allocations.mock.calls.filter(([size]) => size === partSize)).toHaveLength(0);
  });

  it("stores an empty body as an empty object", async () => {
    const s3 = fakeS3();
    expect(await putStreamed(s3.client, target, Readable.from([]), { partSize: 16, partsInFlight: 2 })).toBe(0);
    expect(s3.sent).toEqual(["put model/stl"]);
    expect(s3.objects.get(target.Key)).toEqual(Buffer.alloc(0));
  });

  it("sends a longer body in parts whatever the chunking, byte for byte, and completes in part order", async () => {
    for (const sizes of [[1], [7], [16], [5, 11, 40], [100]]) {
      const s3 = fakeS3({ partDelayMs: 1 });
      const bytes = randomBytes(2 * 16 + 3);
      expect(await putStreamed(s3.client, target, chunked(bytes, sizes), { partSize: 16, partsInFlight: 2 })).toBe(35);
      expect(s3.objects.get(target.Key)?.equals(bytes)).toBe(true);
      expect(s3.sent.filter((entry) => entry.startsWith("part")).sort()).toEqual(["part 1", "part 2", "part 3"]);
      expect(s3.sent.at(-1)).toBe('complete 1:"etag-1",2:"etag-2",3:"etag-3"');
    }
  });

  it("sends no empty last part when the body ends on a part boundary", async () => {
    const s3 = fakeS3();
    const bytes = randomBytes(32);
    await putStreamed(s3.client, target, chunked(bytes, [10]), { partSize: 16, partsInFlight: 2 });
    expect(s3.sent).toEqual(["create", "part 1", "part 2", 'complete 1:"etag-1",2:"etag-2"']);
    expect(s3.objects.get(target.Key)?.equals(bytes)).toBe(true);
  });

  it("keeps at most partsInFlight parts sending and reuses partsInFlight + 1 buffers", async () => {
    const partSize = 64 * 1024;
    const allocations = vi.spyOn(Buffer, "allocUnsafe");
    const s3 = fakeS3({ partDelayMs: 5 });
    const bytes = randomBytes(10 * partSize + 1);
    await putStreamed(s3.client, target, chunked(bytes, [4096]), { partSize, partsInFlight: 2 });
    expect(s3.objects.get(target.Key)?.equals(bytes)).toBe(true);
    expect(s3.mostAtOnce()).toBe(2);
    expect(allocations.mock.calls.filter(([size]) => size === partSize)).toHaveLength(3);
  });

  it("aborts the upload, stops reading the body and throws when a part fails", async () => {
    const s3 = fakeS3({ failPart: 2 });
    let served = 0;
    const body = Readable.from(
      (function* () {
        for (let index = 0; index < 100; index++, served++) yield randomBytes(16);
      })(),
    );
    await expect(putStreamed(s3.client, target, body, { partSize: 16, partsInFlight: 1 })).rejects.toThrow("S3 is unreachable");
    expect(s3.sent).toContain("abort");
    expect(s3.sent.some((entry) => entry.startsWith("complete"))).toBe(false);
    expect(s3.objects.size).toBe(0);
    expect(served).toBeLessThan(10);
  });

  it("aborts the upload when the body fails midway", async () => {
    const s3 = fakeS3();
    const body = Readable.from(
      (async function* () {
        yield randomBytes(40);
        throw new Error("client went away");
      })(),
    );
    await expect(putStreamed(s3.client, target, body, { partSize: 16, partsInFlight: 2 })).rejects.toThrow("client went away");
    expect(s3.sent).toContain("abort");
    expect(s3.objects.size).toBe(0);
  });

  it("stores nothing when the body is longer or shorter than contentLength", async () => {
    for (const length of [20, 40]) {
      const s3 = fakeS3();
      const error = await putStreamed(s3.client, target, chunked(randomBytes(length), [8]), { partSize: 16, partsInFlight: 2, contentLength: 30 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BodyLengthError);
      expect(s3.objects.size).toBe(0);
      expect(s3.sent.filter((entry) => entry.startsWith("put") || entry.startsWith("complete"))).toEqual([]);
      expect(s3.sent.includes("create")).toBe(s3.sent.includes("abort"));
    }
  });
});
