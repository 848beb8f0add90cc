import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { normalizeEmail } from "~/modules/orders/orders.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { randomToken, safeEqual, sha256 } from "./tokens.server";

/**
 * Sign-in by e-mail link (DESIGN §4.23): a link valid 15 minutes, usable once, whose page asks for
 * a click (POST) so mail scanners that open links do not use it up; the same mail carries a
 * 6-digit code for typing on another device. Only hashes are stored.
 */
export const LINK_MINUTES = 15;
export const CODE_ATTEMPTS = 5;
export const EMAIL_LIMIT = { count: 5, windowSeconds: 15 * 60 };
export const IP_LIMIT = { count: 20, windowSeconds: 60 * 60 };

let mailer: Mailer | undefined;
const getMailer = () => (mailer ??= createMailer(getConfig()));

export type SendResult = { ok: true } | { ok: false; reason: "rate_limited" | "send_failed" };

export interface SignInMail {
  subject: string;
  text: (link: string, code: string) => string;
}

export async function sendSignInLink(
  db: DB,
  input: { email: string; redirectTo: string | null; origin: string; clientIp: string; mail: SignInMail },
): Promise<SendResult> {
  const email = normalizeEmail(input.email)!;
  const byEmail = await hitRateLimit(db, `sign-in:email:${email}`, EMAIL_LIMIT.count, EMAIL_LIMIT.windowSeconds);
  const byIp = await hitRateLimit(db, `sign-in:ip:${input.clientIp}`, IP_LIMIT.count, IP_LIMIT.windowSeconds);
  if (!byEmail.allowed || !byIp.allowed) return { ok: false, reason: "rate_limited" };

  const token = randomToken();
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db
    .insertInto("sign_in_tokens")
    .values({
      email,
      token_hash: sha256(token),
      code_hash: sha256(`${email}:${code}`),
      redirect_to: input.redirectTo,
      expires_at: sql<Date>`now() + make_interval(mins => ${LINK_MINUTES})`,
    })
    .execute();
  const link = `${input.origin}/auth/verify?token=${encodeURIComponent(token)}`;
  try {
    await getMailer().send({ to: email, subject: input.mail.subject, text: input.mail.text(link, code) });
    return { ok: true };
  } catch (error) {
    console.error("sign-in mail failed:", error);
    return { ok: false, reason: "send_failed" };
  }
}

export interface TokenPreview {
  email: string;
}

/** What the confirmation page shows; changes nothing. */
export async function previewToken(db: DB, token: string): Promise<TokenPreview | null> {
  const row = await db
    .selectFrom("sign_in_tokens")
    .select("email")
    .where("token_hash", "=", sha256(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row ?? null;
}

export interface SignedIn {
  userId: string;
  email: string;
  redirectTo: string | null;
}

/** Uses a link once: the row is claimed by one UPDATE, so two clicks cannot both sign in. */
export async function consumeToken(db: DB, token: string): Promise<SignedIn | null> {
  const row = await db
    .updateTable("sign_in_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", sha256(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["email", "redirect_to"])
    .executeTakeFirst();
  if (!row) return null;
  const userId = await findOrCreateUser(db, row.email);
  return { userId, email: row.email, redirectTo: row.redirect_to };
}

/** The 6-digit code of the newest unused link of that e-mail; a few wrong tries burn the link. */
export async function consumeCode(db: DB, emailInput: string, code: string): Promise<SignedIn | null> {
  const email = normalizeEmail(emailInput);
  if (!email || !/^\d{6}$/.test(code)) return null;
  const row = await db
    .selectFrom("sign_in_tokens")
    .select(["id", "code_hash", "attempts", "redirect_to"])
    .where("email", "=", email)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  if (!safeEqual(row.code_hash, sha256(`${email}:${code}`))) {
    await db
      .updateTable("sign_in_tokens")
      .set((eb) => ({ attempts: eb("attempts", "+", 1), used_at: row.attempts + 1 >= CODE_ATTEMPTS ? sql<Date>`now()` : null }))
      .where("id", "=", row.id)
      .execute();
    return null;
  }
  const claimed = await db
    .updateTable("sign_in_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (!claimed) return null;
  return { userId: await findOrCreateUser(db, email), email, redirectTo: row.redirect_to };
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
