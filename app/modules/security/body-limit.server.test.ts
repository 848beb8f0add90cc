import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BodyLimits } from "~/modules/config/config.server";
import { bodyRuleFor, BodyTooLargeError, watchBody } from "./body-limit.server";

const KiB = 1024;
const MiB = 1024 * KiB;

const LIMITS: BodyLimits = {
  form: 2 * MiB,
  signIn: 64 * KiB,
  webhook: 256 * KiB,
  cron: 16 * KiB,
  uploadForm: 5121 * MiB,
  logo: 2112 * KiB,
  tusChunk: 16 * MiB,
  fileServerTest: 101 * MiB,
};

describe("the body rule of a route", () => {
  const kindOf = (path: string, contentType?: string) => bodyRuleFor(path, contentType, LIMITS).kind;

  it("gives machines' routes their own small limits and JSON refusals", () => {
    expect(bodyRuleFor("/api/webhooks/stripe", "application/json", LIMITS)).toMatchObject({ kind: "webhook", limit: 256 * KiB, reader: "machine" });
    expect(bodyRuleFor("/api/cron", undefined, LIMITS)).toMatchObject({ kind: "cron", reader: "machine" });
    expect(bodyRuleFor("/uploads/tus/tus-abc", "application/offset+octet-stream", LIMITS)).toMatchObject({ kind: "tusChunk", reader: "machine" });
    expect(bodyRuleFor("/uploads/finish", "application/json", LIMITS)).toMatchObject({ kind: "form", reader: "machine" });
  });

  it("allows a whole order's files only to a multipart post to the wizard, however the path is spelled", () => {
    const multipart = "multipart/form-data; boundary=x";
    for (const path of ["/order", "/order/", "/ORDER", "/order.data"]) expect(kindOf(path, multipart)).toBe("uploadForm");
    expect(kindOf("/order", "application/x-www-form-urlencoded")).toBe("form");
    expect(kindOf("/cookies", multipart)).toBe("form");
    expect(kindOf("/order/new", multipart)).toBe("form");
    expect(kindOf("/packer/logo", multipart)).toBe("logo");
    expect(kindOf("/send-test", multipart)).toBe("fileServerTest");
  });

  it("keeps sign-in posts small and sends their readers back to the sign-in page", () => {
    expect(bodyRuleFor("/auth", "application/x-www-form-urlencoded", LIMITS)).toMatchObject({ kind: "signIn", limit: 64 * KiB, reader: "person", back: "/auth" });
    expect(kindOf("/auth/verify")).toBe("signIn");
    expect(kindOf("/backoffice/login")).toBe("signIn");
    expect(kindOf("/authors")).toBe("form");
  });

  it("gives a path dressed up as a machine route no more than a webhook's limit", () => {
    expect(kindOf("/api/webhooks/../../order", "multipart/form-data; boundary=x")).toBe("webhook");
  });
});

interface Seen {
  bytes: number;
  outcome: "end" | "error" | "pending";
  error?: Error;
  exceeded: number;
}

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server whose handler runs behind `watchBody`; `seen` is what the application read. */
async function serve(limit: number, handle: (req: IncomingMessage, res: ServerResponse, seen: Seen, refuse: () => void) => void): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = http.createServer((req, res) => {
    const record: Seen = { bytes: 0, outcome: "pending", exceeded: 0 };
    seen.push(record);
    const refuse = () => {
      record.exceeded++;
      if (!res.headersSent) res.writeHead(413, { "Content-Type": "text/plain" }).end("too large\n");
    };
    watchBody(req, res, limit, refuse);
    handle(req, res, record, refuse);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server!.address() as AddressInfo).port, seen };
}

/** Reads the whole body as an application would, answering 200 with the count when it ends. */
function readAll(req: IncomingMessage, res: ServerResponse, seen: Seen) {
  req.on("data", (chunk: Buffer) => (seen.bytes += chunk.length));
  req.on("end", () => {
    seen.outcome = "end";
    if (!res.headersSent) res.end(`read ${seen.bytes}\n`);
  });
  req.on("error", (error) => {
    seen.outcome = "error";
    seen.error = error;
  });
}

/** `total` bytes made on demand, never held at once. */
function generated(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const chunk = Buffer.alloc(Math.min(64 * KiB, total - sent), 0x61);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** Sends `body` (chunked unless `headers` give a length) and resolves with the answer, whatever happens to the upload after it. */
function send(port: number, body: Readable, headers: Record<string, string> = {}): Promise<{ status: number; text: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method: "POST", path: "/", headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, text, connection: response.headers.connection }));
      response.on("error", () => resolve({ status: response.statusCode!, text, connection: response.headers.connection }));
    });
    request.on("error", (error) => reject(error));
    body.pipe(request);
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("counting a body as it arrives", () => {
  it("lets a body within the limit through whole, chunked or not", async () => {
    const { port, seen } = await serve(1 * MiB, (req, res, record) => readAll(req, res, record));
    expect(await send(port, generated(1 * MiB))).toMatchObject({ status: 200, text: `read ${MiB}\n` });
    expect(await send(port, generated(1000), { "Content-Length": "1000" })).toMatchObject({ status: 200, text: "read 1000\n" });
    expect(seen.map((s) => s.exceeded)).toEqual([0, 0]);
  });

  it("stops a chunked body at the limit: the sender gets the refusal, the application never more than the limit and never the body's end", async () => {
    const { port, seen } = await serve(1 * MiB, (req, res, record) => readAll(req, res, record));
    const answer = await send(port, generated(64 * MiB));
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    // The application learns of the refusal when its body fails, a moment after the answer: waited for, not raced.
    await vi.waitFor(() => expect(seen[0]!.outcome).toBe("error"), { timeout: 10_000 });
    expect(seen[0]!.exceeded).toBe(1);
    expect(seen[0]!.bytes).toBeLessThanOrEqual(1 * MiB);
    expect(seen[0]!.error).toBeInstanceOf(BodyTooLargeError);
  });

  it("counts the bytes, not the declared length: a body longer than a length within the limit is cut at that length by the parser", async () => {
    const { port, seen } = await serve(1 * MiB, (req, res, record) => readAll(req, res, record));
    // A raw connection: Node's own client refuses to send more than it declared.
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n${"a".repeat(3 * MiB)}`);
      });
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("error", () => resolve(text));
      socket.on("close", () => resolve(text));
    });
    // What follows the declared length is read as a next request, which it is not: Node refuses it and closes.
    expect(reply).toMatch(/^HTTP\/1\.1 (200|400) /);
    await settle();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bytes).toBe(1000);
  });

  it("refuses a declared length above the limit before reading, even when the body is short", async () => {
    const { port, seen } = await serve(0, (_req, res, record) => {
      record.exceeded += 0;
      if (!res.headersSent) res.writeHead(413).end("too large\n");
    });
    const answer = await send(port, generated(10), { "Content-Length": "5000000000" }).catch(() => null);
    expect(answer?.status).toBe(413);
    expect(answer?.connection).toBe("close");
    expect(seen[0]!.bytes).toBe(0);
  });

  it("when the application stops reading, its own answer reaches the sender before the connection closes", async () => {
    const { port, seen } = await serve(64 * MiB, (req, res, record) => {
      req.once("data", (chunk: Buffer) => {
        record.bytes += chunk.length;
        req.destroy(new Error("the parser gave up"));
        setTimeout(() => res.writeHead(400, { "Content-Type": "text/plain" }).end("bad form\n"), 20);
      });
      req.on("error", (error) => {
        record.outcome = "error";
        record.error = error;
      });
    });
    const answer = await send(port, generated(32 * MiB));
    expect(answer).toMatchObject({ status: 400, text: "bad form\n", connection: "close" });
    // The body fails when the lingering connection closes (once the sender stops sending, or at LINGER_MAX_MS): waited for, not raced.
    await vi.waitFor(() => expect(seen[0]!.outcome).toBe("error"), { timeout: 10_000 });
    expect(seen[0]!.error?.message).toBe("the parser gave up");
  });

  it("a sender that reads only once its body is sent gets the refusal, however slowly the rest of its body comes", async () => {
    const { port, seen } = await serve(1 * MiB, (req, res, record) => readAll(req, res, record));
    // A browser without JavaScript posting a form: it reads the answer after the upload. Past the
    // limit, 40 pieces of 64 KiB every 80 ms: over 3 s of a slow link after the refusal.
    const socket = net.connect(port, "127.0.0.1");
    socket.pause();
    socket.on("error", () => {}); // a failed write is seen by `write` below
    const write = (data: string | Buffer) => new Promise<boolean>((resolve) => socket.write(data, (error) => resolve(!error)));
    const piece = (size: number) => Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x61), Buffer.from("\r\n")]);
    await new Promise((resolve) => socket.once("connect", resolve));
    let sent = await write("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
    sent &&= await write(piece(1 * MiB + 64 * KiB));
    for (let i = 0; i < 40 && sent; i++) {
      await new Promise((resolve) => setTimeout(resolve, 80));
      sent = await write(piece(64 * KiB));
    }
    if (sent) await write("0\r\n\r\n");
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      socket.on("error", () => resolve(text));
      socket.on("close", () => resolve(text));
      socket.resume();
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBe(true);
    expect(seen[0]!.exceeded).toBe(1);
  });

  it("an answer sent before the body arrived closes the connection instead of reading the rest", async () => {
    let pushes = 0;
    const { port } = await serve(64 * MiB, (req, res) => {
      req.on("data", () => pushes++);
      res.writeHead(303, { Location: "/" }).end();
    });
    const answer = await send(port, generated(32 * MiB));
    expect(answer).toMatchObject({ status: 303, connection: "close" });
    await settle();
    expect(pushes * 64 * KiB).toBeLessThan(8 * MiB);
  });
});
