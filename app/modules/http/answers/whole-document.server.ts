import { Writable } from "node:stream";

/**
 * The rendered document as one buffer: React's chunks are collected as they come and joined once.
 *
 * React 18.3's streaming renderer can leave NUL bytes at the end of a chunk when a multi-byte
 * character (all of Cyrillic) meets its 2 KB buffer boundary (facebook/react#24985, fixed only in
 * React 19): "сист\0емы". In UTF-8 the byte 0 never belongs to another character, and no page
 * text contains U+0000, so dropping every 0 byte restores the text exactly. They are dropped once,
 * from the whole document, with native searches and copies (a byte-by-byte filter of each chunk
 * was 3 % of a page's CPU time).
 */
export function wholeDocument(pipe: (destination: Writable) => Writable): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        resolve(withoutNulBytes(Buffer.concat(chunks)));
        callback();
      },
    });
    sink.on("error", reject);
    pipe(sink);
  });
}

export function withoutNulBytes(bytes: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  let zero = bytes.indexOf(0);
  if (zero === -1) return bytes;
  const kept = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  let from = 0;
  while (zero !== -1) {
    length += bytes.copy(kept, length, from, zero);
    from = zero + 1;
    zero = bytes.indexOf(0, from);
  }
  length += bytes.copy(kept, length, from);
  return kept.subarray(0, length);
}
