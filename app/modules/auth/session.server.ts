import { sql } from "kysely";
import type { Role } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { getDb } from "~/modules/db/db.server";
import { cookies } from "~/modules/http/cookies.server";
import { randomToken, sha256 } from "./tokens.server";

/**
 * Sessions are rows in PostgreSQL (DESIGN §4.21): the cookie carries a random id, the table its
 * hash. Signing out or revoking deletes the row and the session ends everywhere.
 */
export const SESSION_DAYS = 30;

export interface SessionUser {
  id: string;
  email: string;
  roles: Role[];
  sessionId: string;
}

export async function createUserSession(db: DB, userId: string, meta: { ip?: string | null; userAgent?: string | null } = {}) {
  const token = randomToken();
  await db
    .insertInto("sessions")
    .values({
      id: sha256(token),
      user_id: userId,
      expires_at: sql<Date>`now() + interval '${sql.raw(String(SESSION_DAYS))} days'`,
      ip: meta.ip ?? null,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  await db.updateTable("users").set({ last_sign_in_at: new Date() }).where("id", "=", userId).execute();
  return cookies.session().serialize(token);
}

async function sessionToken(request: Request): Promise<string | null> {
  const value = await cookies.session().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 20 ? value : null;
}

export async function getSessionUser(request: Request, db?: DB): Promise<SessionUser | null> {
  const token = await sessionToken(request);
  if (!token) return null;
  const database = db ?? (await getDb());
  const row = await database
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["sessions.id as session_id", "users.id", "users.email"])
    .where("sessions.id", "=", sha256(token))
    .where("sessions.expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  if (!row) return null;
  const roles = await database.selectFrom("user_roles").select("role").where("user_id", "=", row.id).execute();
  return { id: row.id, email: row.email, roles: roles.map((r) => r.role), sessionId: row.session_id };
}

/** Ends this browser's session; returns the header that clears the cookie. */
export async function destroyUserSession(request: Request, db?: DB): Promise<string> {
  const token = await sessionToken(request);
  if (token) await (db ?? (await getDb())).deleteFrom("sessions").where("id", "=", sha256(token)).execute();
  return cookies.session().serialize("", { maxAge: 0 });
}

/** Ends every session of a user (revocation). */
export async function revokeUserSessions(db: DB, userId: string) {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}
