import { createHash } from "node:crypto";
import type { UploadHandler } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { MultipartFieldTooLargeError, MultipartLimitError, MultipartTextTooLargeError, parseMultipartFormData } from "./multipart.server";

const BOUNDARY = "----formboundary7MA4YWxkTrZu0gW";

type Part = { name: string; value: string } | { name: string; filename: string; content: Uint8Array; type?: string };

function encode(parts: Part[], { end = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("value" in part) {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        Buffer.from(part.content),
        Buffer.from("\r\n"),
      );
    }
  }
  if (end) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** A request whose body arrives in chunks of the given sizes (cycled), optionally failing at the end. */
function request(body: Buffer, { sizes = [65_536], fail = false }: { sizes?: number[]; fail?: boolean } = {}): Request {
  let offset = 0;
  let turn = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) {
        if (fail) controller.error(new Error("connection reset"));
        else controller.close();
        return;
      }
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + size)));
      offset += size;
    },
  });
  return new Request("http://localhost/upload", {
    method: "POST",
    body: stream,
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    duplex: "half",
  } as RequestInit);
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Collects every part as the handler saw it. */
function recorder() {
  const seen: { name: string; filename?: string; bytes: Buffer }[] = [];
  const handler: UploadHandler = async (part) => {
    const chunks: Buffer[] = [];
    for await (const chunk of part.data) chunks.push(Buffer.from(chunk));
    const bytes = Buffer.concat(chunks);
    seen.push(part.filename === undefined ? { name: part.name, bytes } : { name: part.name, filename: part.filename, bytes });
    return part.filename === undefined ? bytes.toString("utf8") : undefined;
  };
  return { seen, handler };
}

describe("parseMultipartFormData", () => {
  it("hands fields and files to the handler in request order and returns the fields", async () => {
    const file = Buffer.from("solid cube\nendsolid cube\n");
    const { seen, handler } = recorder();
    const form = await parseMultipartFormData(
      request(encode([
        { name: "intent", value: "upload" },
        { name: "files", filename: "C:\\scans\\верх.stl", content: file },
        { name: "note", value: "Пациент №2 ✓" },
      ])),
      handler,
    );
    expect(seen.map((part) => [part.name, part.filename])).toEqual([["intent", undefined], ["files", "верх.stl"], ["note", undefined]]);
    expect(seen[1]!.bytes.equals(file)).toBe(true);
    expect([...form.entries()]).toEqual([["intent", "upload"], ["note", "Пациент №2 ✓"]]);
  });

  it("keeps a file byte for byte whatever the chunking, even when the boundary is split", async () => {
    const content = Buffer.alloc(300_001);
    for (let i = 0; i < content.length; i++) content[i] = (i * 7919) % 251;
    // Put boundary look-alikes inside the file: CR LF and dashes must not end it.
    content.write(`\r\n--${BOUNDARY.slice(0, 10)}`, 1000);
    const body = encode([{ name: "files", filename: "a.stl", content }, { name: "files", filename: "b.stl", content: content.subarray(5) }]);
    for (const sizes of [[1, 2, 3, 5, 8, 13], [4093], [65_536], [7, 65_521]]) {
      const { seen, handler } = recorder();
      await parseMultipartFormData(request(body, { sizes }), handler);
      expect(seen.map((part) => sha(part.bytes))).toEqual([sha(content), sha(content.subarray(5))]);
    }
  });

  it("passes an empty file input as a file part with an empty name and no data", async () => {
    const { seen, handler } = recorder();
    const form = await parseMultipartFormData(request(encode([{ name: "files", filename: "", content: new Uint8Array(0) }])), handler);
    expect(seen).toEqual([{ name: "files", filename: "", bytes: Buffer.alloc(0) }]);
    expect([...form.keys()]).toEqual([]);
  });

  it("refuses a request that is not multipart", async () => {
    const plain = new Request("http://localhost/upload", { method: "POST", body: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    await expect(parseMultipartFormData(plain, recorder().handler)).rejects.toThrow(TypeError);
    const noBoundary = new Request("http://localhost/upload", { method: "POST", body: "x", headers: { "Content-Type": "multipart/form-data; charset=utf-8" } });
    await expect(parseMultipartFormData(noBoundary, recorder().handler)).rejects.toThrow(TypeError);
  });

  it("refuses a text field over the limit and accepts one exactly at it", async () => {
    await expect(parseMultipartFormData(request(encode([{ name: "id", value: "x".repeat(101) }])), recorder().handler, { maxFieldBytes: 100 })).rejects.toThrow(
      MultipartFieldTooLargeError,
    );
    const form = await parseMultipartFormData(request(encode([{ name: "id", value: "я".repeat(50) }])), recorder().handler, { maxFieldBytes: 100 });
    expect(form.get("id")).toBe("я".repeat(50));
  });

  it("refuses a text field that never ends while it arrives, not after the whole body was read (a body too large)", async () => {
    // A text part of (at least) 1 GiB: the body is generated as it is read, and counted.
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="comment"\r\n\r\n`);
    let sent = 0;
    const filler = Buffer.alloc(65_536, 0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = sent === 0 ? head : filler;
        sent += chunk.length;
        if (sent > 1024 ** 3) controller.close();
        else controller.enqueue(new Uint8Array(chunk));
      },
    });
    const endless = new Request("http://localhost/upload", { method: "POST", body: stream, headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` }, duplex: "half" } as RequestInit);
    await expect(parseMultipartFormData(endless, recorder().handler)).rejects.toThrow(MultipartTextTooLargeError);
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  });

  it("refuses more text fields or files than any form has", async () => {
    const fields = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: "1" }));
    await expect(parseMultipartFormData(request(encode(fields)), recorder().handler, { maxFields: 10 })).rejects.toThrow(MultipartLimitError);
    expect((await parseMultipartFormData(request(encode(fields.slice(0, 10))), recorder().handler, { maxFields: 10 })).get("f9")).toBe("1");
    const files = Array.from({ length: 3 }, (_, i) => ({ name: "files", filename: `${i}.stl`, content: Buffer.from("solid x\nendsolid x\n") }));
    await expect(parseMultipartFormData(request(encode(files)), recorder().handler, { maxFiles: 2 })).rejects.toThrow(MultipartLimitError);
  });

  it("rejects a body cut off mid-file, and the handler reading it sees the failure", async () => {
    const body = encode([{ name: "files", filename: "a.stl", content: Buffer.alloc(200_000, 1) }], { end: false }).subarray(0, 150_000);
    let handlerError: unknown;
    const handler: UploadHandler = async (part) => {
      try {
        for await (const chunk of part.data) void chunk;
      } catch (error) {
        handlerError = error;
        throw error;
      }
      return undefined;
    };
    await expect(parseMultipartFormData(request(body, { fail: true }), handler)).rejects.toThrow();
    expect(handlerError).toBeInstanceOf(Error);
    await expect(parseMultipartFormData(request(body), recorder().handler)).rejects.toThrow(/Unexpected end/);
  });

  it("stops at a handler's error without waiting for the rest of the body", async () => {
    const body = encode([
      { name: "files", filename: "a.stl", content: Buffer.alloc(10) },
      { name: "files", filename: "b.stl", content: Buffer.alloc(1_000_000) },
    ]);
    let calls = 0;
    const handler: UploadHandler = async () => {
      calls++;
      throw new Error("no such order");
    };
    await expect(parseMultipartFormData(request(body, { sizes: [1024] }), handler)).rejects.toThrow("no such order");
    expect(calls).toBe(1);
  });

  it("drains a file the handler did not read so the parts after it still arrive", async () => {
    const seen: string[] = [];
    const handler: UploadHandler = async (part) => {
      seen.push(part.name);
      if (part.filename !== undefined) return undefined; // ignores the data
      let text = "";
      for await (const chunk of part.data) text += Buffer.from(chunk).toString();
      return text;
    };
    const form = await parseMultipartFormData(
      request(encode([{ name: "other", filename: "big.bin", content: Buffer.alloc(500_000) }, { name: "after", value: "ok" }])),
      handler,
    );
    expect(seen).toEqual(["other", "after"]);
    expect(form.get("after")).toBe("ok");
  });
});
