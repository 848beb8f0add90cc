import fs from "node:fs";
import http from "node:http";
import { Readable } from "node:stream";

/**
 * Bodies as a hostile sender makes them: gigabytes, chunked (no length to refuse up front), made
 * on demand from one small buffer so the sender never holds them; and the reading of a server's
 * memory beside them. Shared by the abuse suite (tests/integration/reliability/abuse-bodies.test.ts)
 * and its benchmark (bench/body-limits.mts).
 */

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

/** `total` bytes: `head`, then `fill` repeated, then `tail`; each chunk made when the socket asks for it. */
export function generatedBody(total: number, { head = "", tail = "", fill = 0x61 }: { head?: string | Buffer; tail?: string | Buffer; fill?: number } = {}): Readable {
  const block = Buffer.alloc(256 * KiB, fill);
  const first = Buffer.from(head);
  const last = Buffer.from(tail);
  const middle = Math.max(0, total - first.length - last.length);
  let sent = 0;
  let stage = 0;
  return new Readable({
    highWaterMark: 256 * KiB,
    read() {
      if (stage === 0) {
        stage = 1;
        if (first.length > 0) return void this.push(first);
      }
      if (stage === 1) {
        if (sent < middle) {
          const size = Math.min(block.length, middle - sent);
          sent += size;
          return void this.push(size === block.length ? block : block.subarray(0, size));
        }
        stage = 2;
        if (last.length > 0) return void this.push(last);
      }
      this.push(null);
    },
  });
}

/** A multipart body of one file part of `fileBytes` under `name`, with the wizard's upload intent after it. */
export function multipartBody(fileBytes: number, boundary = "----abuse-boundary", filename = "big.stl"): { contentType: string; body: Readable; length: number } {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + fileBytes + Buffer.byteLength(tail);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: generatedBody(length, { head, tail }), length };
}

export interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Bytes of the body the sender had written when the answer was complete. */
  sent: number;
  ms: number;
}

/**
 * Sends `body` (chunked unless a Content-Length is given) and resolves with the answer as soon as
 * it is complete; then stops sending. A connection closed before any answer rejects.
 */
export function streamPost(url: string, path: string, body: Readable, headers: Record<string, string> = {}, method = "POST"): Promise<StreamedAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    body.on("data", (chunk: Buffer) => (sent += chunk.length));
    const request = http.request(`${url}${path}`, { method, headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      const done = () => {
        if (answered) return;
        answered = true;
        resolve({ status: response.statusCode!, headers: response.headers, text, sent, ms: performance.now() - started });
        body.destroy();
        request.destroy();
      };
      response.on("end", done);
      response.on("error", done);
      response.on("close", done);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    body.on("error", () => undefined);
    body.pipe(request);
  });
}

/** Resident memory of a process in bytes, as the kernel counts it (/proc/<pid>/status, VmRSS). */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

/** Samples a process's resident memory every `everyMs` until stopped; returns the highest seen. */
export function sampleResident(pid: number, everyMs = 50): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, residentBytes(pid));
    } catch {
      // the process ended: the last peak stands
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
