import { createCipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";

/**
 * Sign-in links made the way remix-auth-email-link makes them (crypto-js AES with a passphrase over
 * `{ e, f, c }`: OpenSSL's "Salted__" format, AES-256-CBC, key and IV by EVP_BytesToKey over MD5),
 * written here from that format with Node's crypto rather than through the app, so tests can build a
 * mail's link, or forge one, without a mail server.
 */
export const linkSecret = (sessionSecret: string) => createHmac("sha256", sessionSecret).update("sign-in-link").digest("base64url");

export function linkToken(input: { passphrase: string; email: string; linkId: string; createdAt?: number }): string {
  const payload = { e: input.email, f: { link: input.linkId }, c: input.createdAt ?? Date.now() };
  const salt = randomBytes(8);
  let derived = Buffer.alloc(0);
  let block = Buffer.alloc(0);
  while (derived.length < 48) {
    block = createHash("md5").update(Buffer.concat([block, Buffer.from(input.passphrase, "utf8"), salt])).digest();
    derived = Buffer.concat([derived, block]);
  }
  const cipher = createCipheriv("aes-256-cbc", derived.subarray(0, 32), derived.subarray(32, 48));
  return Buffer.concat([Buffer.from("Salted__", "latin1"), salt, cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]).toString("base64");
}

/** A link's row as sending one records it; returns the link's id. */
export async function recordLink(db: DB, email: string, redirectTo = "/cabinet"): Promise<string> {
  const linkId = randomBytes(32).toString("base64url");
  const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
  await db
    .insertInto("sign_in_tokens")
    .values({ email, token_hash: sha256(linkId), code_hash: sha256(`${email}:${randomBytes(3).toString("hex")}`), redirect_to: redirectTo, expires_at: sql<Date>`now() + interval '15 minutes'` })
    .execute();
  return linkId;
}

/** A usable sign-in token for `email`, as the mail would carry it. */
export async function signInToken(db: DB, sessionSecret: string, email: string, redirectTo = "/cabinet"): Promise<string> {
  const linkId = await recordLink(db, email, redirectTo);
  return linkToken({ passphrase: linkSecret(sessionSecret), email, linkId });
}
