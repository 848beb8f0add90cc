import { Transform, type TransformCallback } from "node:stream";

export class BodyLengthError extends Error {
  constructor(expected: number, actual: string) {
    super(`Body length mismatch: expected ${expected} bytes, got ${actual}`);
    this.name = "BodyLengthError";
  }
}

/**
 * A pass-through that counts the bytes of a body and, when `expected` is given, fails the stream
 * as soon as the body is longer, or at its end when shorter — so a truncated upload is never
 * stored as if it were complete.
 */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly expected?: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.expected !== undefined && this.bytes > this.expected) {
      callback(new BodyLengthError(this.expected, `more than ${this.expected}`));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.expected !== undefined && this.bytes !== this.expected) {
      callback(new BodyLengthError(this.expected, String(this.bytes)));
      return;
    }
    callback();
  }
}
