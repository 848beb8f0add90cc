import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { normalizeEmail } from "~/modules/validation/email";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { limitKey } from "~/modules/http/request/client-address";
import { hmac, safeEqual, sha256 } from "./tokens.server";

/**
 * What the sign-in packages do not do, kept in PostgreSQL (DESIGN §4.23, docs/decisions/027):
 * every link carries a random id whose hash is a row here, and only an unused, unexpired row
 * issued for the same e-mail signs in, used up in the same statement. The link's own encryption
 * (remix-auth-email-link) is a second lock, not the authority. The same row holds the hash of the
 * 6-digit code that the mail carries for typing on another device.
 */
export const LINK_MINUTES = 15;
export const CODE_ATTEMPTS = 5;
export const EMAIL_LIMIT = { count: 5, windowSeconds: 15 * 60 };
/** Per client address: `SIGN_IN_LINKS_PER_IP_HOUR` links an hour (20 unless configured). */
export const IP_WINDOW_SECONDS = 60 * 60;

export interface SignedIn {
  id: string;
  email: string;
  /** Where the person was going when they asked for the link. */
  redirectTo: string | null;
}

/** Counts a request for a link against the e-mail's and the address group's limits; when over one, the seconds until it may be asked again. */
export async function signInLimitWait(db: DB, email: string, clientIp: string): Promise<number | null> {
  const byEmail = await hitRateLimit(db, `sign-in:email:${email}`, EMAIL_LIMIT.count, EMAIL_LIMIT.windowSeconds);
  const byIp = await hitRateLimit(db, limitKey("sign-in", { clientAddress: clientIp }), getConfig().signInLinksPerIpHour, IP_WINDOW_SECONDS);
  const waits = [byEmail, byIp].filter((limit) => !limit.allowed).map((limit) => limit.retryAfterSeconds);
  return waits.length > 0 ? Math.max(1, ...waits) : null;
}

/**
 * The 6-digit code of a link: derived from the link's random id with the server's secret, so the
 * mail can carry it without the code travelling anywhere else; only its hash is stored.
 */
export function signInCode(linkId: string): string {
  const digest = hmac(getConfig().secrets.SESSION_SECRET, `sign-in-code:${linkId}`);
  const number = Buffer.from(digest, "base64url").readUIntBE(0, 6) % 1_000_000;
  return String(number).padStart(6, "0");
}

const codeHash = (email: string, code: string) => sha256(`${email}:${code}`);

export async function recordSignInLink(db: DB, input: { email: string; linkId: string; redirectTo: string | null }): Promise<void> {
  await db
    .insertInto("sign_in_tokens")
    .values({
      email: input.email,
      token_hash: sha256(input.linkId),
      code_hash: codeHash(input.email, signInCode(input.linkId)),
      redirect_to: input.redirectTo,
      expires_at: sql<Date>`now() + make_interval(mins => ${LINK_MINUTES})`,
    })
    .execute();
}

/** Whether a link could still sign in (the confirmation page); changes nothing. */
export async function isLinkUsable(db: DB, email: string, linkId: string): Promise<boolean> {
  const row = await db
    .selectFrom("sign_in_tokens")
    .select("id")
    .where("token_hash", "=", sha256(linkId))
    .where("email", "=", email)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return Boolean(row);
}

/** Uses a link once: the row is claimed by one UPDATE, so two clicks cannot both sign in. */
export async function consumeLink(db: DB, email: string, linkId: string): Promise<SignedIn | null> {
  const row = await db
    .updateTable("sign_in_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", sha256(linkId))
    .where("email", "=", email)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["email", "redirect_to"])
    .executeTakeFirst();
  if (!row) return null;
  return { id: await findOrCreateUser(db, row.email), email: row.email, redirectTo: row.redirect_to };
}

/** Typed codes per e-mail: `SIGN_IN_CODE_ATTEMPTS_PER_EMAIL_DAY` a day (30 unless configured). */
export const CODE_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * The 6-digit code of the newest unused link of that e-mail; the fifth try burns the link (ADR 040).
 * One statement claims a try — it counts the try and, at the fifth, marks the link used — and hands
 * back the number of the try it claimed, so parallel requests each get a different number and no more
 * than five are ever compared; a burned link is never made usable again. A right code on an earlier
 * try then claims the link itself, only while it is still unused. Every typed code also counts
 * against the e-mail's daily cap, so the guesses per victim are bounded however many links are asked.
 */
export async function consumeCode(db: DB, emailInput: string, code: string): Promise<SignedIn | null> {
  const email = normalizeEmail(emailInput);
  if (!email || !/^\d{6}$/.test(code)) return null;
  const daily = await hitRateLimit(db, `sign-in:code:${email}`, getConfig().signInCodeAttemptsPerEmailDay, CODE_WINDOW_SECONDS);
  if (!daily.allowed) return null;
  const newestUsable = db
    .selectFrom("sign_in_tokens")
    .select("id")
    .where("email", "=", email)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .orderBy("created_at", "desc")
    .limit(1);
  const attempt = await db
    .updateTable("sign_in_tokens")
    .set({
      attempts: sql<number>`attempts + 1`,
      used_at: sql<Date | null>`case when attempts + 1 >= ${CODE_ATTEMPTS} then now() end`,
    })
    .where("id", "=", newestUsable)
    .where("used_at", "is", null)
    .returning(["id", "code_hash", "attempts", "redirect_to"])
    .executeTakeFirst();
  if (!attempt || attempt.attempts > CODE_ATTEMPTS) return null;
  if (!safeEqual(attempt.code_hash, codeHash(email, code))) return null;
  // The last try marked the link used as it claimed it: that try alone may sign in with it.
  if (attempt.attempts < CODE_ATTEMPTS) {
    const claimed = await db
      .updateTable("sign_in_tokens")
      .set({ used_at: sql<Date>`now()` })
      .where("id", "=", attempt.id)
      .where("used_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!claimed) return null;
  }
  return { id: await findOrCreateUser(db, email), email, redirectTo: attempt.redirect_to };
}

/** ADMIN_EMAILS become admins at their first sign-in. */
export async function findOrCreateUser(db: DB, email: string): Promise<string> {
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) return existing.id;
  const created = await db
    .insertInto("users")
    .values({ email })
    .onConflict((oc) => oc.column("email").doUpdateSet({ email }))
    .returning("id")
    .executeTakeFirstOrThrow();
  if (getConfig().adminEmails.includes(email)) {
    await db
      .insertInto("user_roles")
      .values({ user_id: created.id, role: "admin" })
      .onConflict((oc) => oc.columns(["user_id", "role"]).doNothing())
      .execute();
  }
  return created.id;
}
