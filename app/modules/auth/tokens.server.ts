import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

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
  const { key, iv } = passphraseKey(passphrase, raw.subarray(8, 16));
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, iv);
    return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString("utf8");
  } catch {
    return null; // a wrong passphrase or a forged token: the padding does not check
  }
}

/**
 * Seals `plaintext` in the same format (a fresh 8-byte salt each time), as the e-mail-link strategy's
 * tokens are written: `openssl enc -d -aes-256-cbc -md md5 -a` opens it, and so did crypto-js, which
 * wrote them before (ADR 027): a link mailed before a deploy still opens after it.
 */
export function sealPassphraseToken(plaintext: string, passphrase: string): string {
  const salt = randomBytes(8);
  const { key, iv } = passphraseKey(passphrase, salt);
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([Buffer.from("Salted__", "latin1"), salt, cipher.update(plaintext, "utf8"), cipher.final()]).toString("base64");
}

/** OpenSSL's EVP_BytesToKey over MD5, one round: a 32-byte key and a 16-byte IV from passphrase and salt. */
function passphraseKey(passphrase: string, salt: Buffer): { key: Buffer; iv: Buffer } {
  let derived = Buffer.alloc(0);
  let block = Buffer.alloc(0);
  while (derived.length < 48) {
    block = createHash("md5").update(Buffer.concat([block, Buffer.from(passphrase, "utf8"), salt])).digest();
    derived = Buffer.concat([derived, block]);
  }
  return { key: derived.subarray(0, 32), iv: derived.subarray(32, 48) };
}
