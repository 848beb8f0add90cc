import type { Request, Response } from "express";

/**
 * Collects what the rest of the chain writes (before compression: the compression middleware sits
 * earlier in the chain), and hands it over once sent; an answer larger than `maxBytes` is not handed over.
 */
export function captureAnswer(res: Response, maxBytes: number, done: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > maxBytes) return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    size += buffer.length;
    chunks.push(buffer);
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as Response["end"];
  res.once("finish", () => {
    if (size <= maxBytes) done(Buffer.concat(chunks));
  });
}

/**
 * Sends an answer kept in memory, compressed when the request accepts gzip: `gzip` gives the
 * compressed body (made once by the caller's store). The headers are set first, so the compression
 * middleware sees a Content-Encoding and leaves the body alone.
 */
export function sendStoredAnswer(req: Request, res: Response, answer: { headers: Record<string, string>; body: Buffer; gzip: () => Buffer }) {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  const gzip = req.acceptsEncodings("gzip") === "gzip";
  const body = gzip ? answer.gzip() : answer.body;
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", String(body.length));
  res.status(200).end(req.method === "HEAD" ? undefined : body);
}
