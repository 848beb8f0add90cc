import { createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
export const hmac = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("base64url");

/** Compares two secrets in constant time (by their hashes, so lengths leak nothing). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/**
 * Opens a sign-in link's token as the e-mail-link strategy wrote it (OpenSSL's passphrase format:
 * "Salted__", an 8-byte salt, AES-256-CBC with key and IV from EVP_BytesToKey over MD5), with
 * Node's own crypto; null for anything that is not such a token or not ours.
 */
export function openPassphraseToken(token: string, passphrase: string): string | null {
  const raw = Buffer.from(token, "base64");
  if (raw.length < 32 || raw.subarray(0, 8).toString("latin1") !== "Salted__") return null;
  const salt = raw.subarray(8, 16);
  let derived = Buffer.alloc(0);
  let block = Buffer.alloc(0);
  while (derived.length < 48) {
    block = createHash("md5").update(Buffer.concat([block, Buffer.from(passphrase, "utf8"), salt])).digest();
    derived = Buffer.concat([derived, block]);
  }
  try {
    const decipher = createDecipheriv("aes-256-cbc", derived.subarray(0, 32), derived.subarray(32, 48));
    return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString("utf8");
  } catch {
    return null; // a wrong passphrase or a forged token: the padding does not check
  }
}
