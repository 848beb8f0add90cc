/**
 * Object keys are shared by the folder and S3 storage, so the same rules apply to both: a key
 * that works in development must work in production, and no key may escape its bucket folder.
 */

import { GRAVEYARD_PREFIX } from "./graveyard";

export class InvalidKeyError extends Error {
  constructor(
    public readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.name = "InvalidKeyError";
  }
}

// S3 allows 1024 bytes of UTF-8.
const MAX_KEY_BYTES = 1024;

/** Throws InvalidKeyError unless `key` is a relative, slash-separated path without `.`/`..` parts. */
export function assertValidKey(key: string): void {
  if (key.length === 0) throw new InvalidKeyError(key, "empty");
  if (Buffer.byteLength(key, "utf8") > MAX_KEY_BYTES) throw new InvalidKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (key.includes("\\")) throw new InvalidKeyError(key, "backslash");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new InvalidKeyError(key, "control character");
  if (key.startsWith("/") || /^[a-zA-Z]:/.test(key)) throw new InvalidKeyError(key, "absolute path");
  if (key.startsWith(GRAVEYARD_PREFIX)) throw new InvalidKeyError(key, "the storage's graveyard");
  for (const part of key.split("/")) {
    if (part === "") throw new InvalidKeyError(key, "empty path segment");
    if (part === "." || part === "..") throw new InvalidKeyError(key, `"${part}" segment`);
  }
}

/** A list prefix may end with "/" (a "folder") but otherwise follows the key rules. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === "") return;
  assertValidKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
}
