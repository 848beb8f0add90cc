import { noteRole } from "~/modules/log/logger.server";
import { createSessionStorage, type Session, type SessionStorage } from "@remix-run/node";
import { sql } from "kysely";
import type { Role } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { getDb } from "~/modules/db/db.server";
import { cookies } from "~/modules/http/request/cookies.server";
import { randomToken, sha256 } from "./tokens.server";

/**
 * Sessions through Remix's session storage API, kept as rows in PostgreSQL (DESIGN §4.21,
 * docs/decisions/027-sign-in-on-remix-auth.md). The cookie carries a random id, signed; the table
 * keeps only its hash, so a copy of the table opens no session. Signing out or revoking deletes the
 * row and the session ends everywhere.
 *
 * The signed-in user is the row's `user_id` column, not a copy in the JSON: a deleted user takes
 * their sessions with them, and roles are always read fresh.
 */
export const SESSION_DAYS = 30;
/** A visitor who only asked for a sign-in link keeps nothing worth more than a day. */
const ANONYMOUS_HOURS = 24;

export interface SessionUserRef {
  id: string;
  email: string;
}

/** The user as a session row is read: with their roles and whether they have a partner code, in the same query. */
interface SessionUserRow extends SessionUserRef {
  roles: Role[];
  hasPartnerCode: boolean;
}

export interface SessionData {
  /** Set only by `startUserSession`, at sign-in; read back from the row's `user_id` with the user's roles. */
  user?: SessionUserRef | SessionUserRow;
  /** Who signed in from where, for staff looking at sessions; stored in columns. */
  client?: { ip: string | null; userAgent: string | null };
  /** The e-mail a link was last sent to (set by the e-mail link strategy). */
  "auth:email"?: string;
}

export type SessionFlashData = { "auth:error": { message: string } };

/**
 * Values never written to the table: the e-mail link strategy keeps the whole link in the session
 * to bind it to the asking browser, a check we switch off (a link must work on another device);
 * storing it would put a usable sign-in link in the database, where we keep only hashes.
 */
const NEVER_STORED = new Set(["auth:magiclink"]);

function toRow(data: Partial<SessionData & SessionFlashData>) {
  const { user, client, ...rest } = data;
  const kept = Object.fromEntries(Object.entries(rest).filter(([key]) => !NEVER_STORED.has(key)));
  return { user_id: user?.id ?? null, data: JSON.stringify(kept), ip: client?.ip ?? null, user_agent: client?.userAgent?.slice(0, 300) ?? null };
}

function expiryOf(data: Partial<SessionData>, expires: Date | undefined): Date {
  const longest = expires ?? new Date(Date.now() + SESSION_DAYS * 86_400_000);
  if (data.user) return longest;
  return new Date(Math.min(longest.getTime(), Date.now() + ANONYMOUS_HOURS * 3_600_000));
}

/** The session storage over one database (the app's, or a test's). */
export function databaseSessionStorage(database: () => Promise<DB> | DB): SessionStorage<SessionData, SessionFlashData> {
  return createSessionStorage<SessionData, SessionFlashData>({
    cookie: cookies.session(),
    async createData(data, expires) {
      const id = randomToken();
      const row = toRow(data);
      await (await database())
        .insertInto("sessions")
        .values({ id: sha256(id), ...row, expires_at: expiryOf(data, expires) })
        .execute();
      return id;
    },
    // One query per request for everything the pages ask of a signed-in user: who, roles, partner.
    async readData(id) {
      if (typeof id !== "string" || id.length < 20) return null;
      const row = await (await database())
        .selectFrom("sessions")
        .leftJoin("users", "users.id", "sessions.user_id")
        .select([
          "sessions.data",
          "sessions.user_id",
          "users.email",
          sql<Role[]>`array(select user_roles.role::text from user_roles where user_roles.user_id = sessions.user_id order by 1)`.as("roles"),
          sql<boolean>`exists(select 1 from partner_codes where partner_codes.user_email = users.email)`.as("has_partner_code"),
        ])
        .where("sessions.id", "=", sha256(id))
        .where("sessions.expires_at", ">", sql<Date>`now()`)
        .executeTakeFirst();
      if (!row) return null;
      const user: SessionUserRow | null =
        row.user_id && row.email ? { id: row.user_id, email: row.email, roles: row.roles, hasPartnerCode: Boolean(row.has_partner_code) } : null;
      return { ...row.data, ...(user ? { user } : {}) };
    },
    // Remix keeps a cookie's id even when its row is gone (expired, signed out elsewhere) and then
    // updates it. The row comes back without a user: the user is set only when a row is created at
    // sign-in, never by an update, so a session ended elsewhere stays ended.
    async updateData(id, data, expires) {
      const row = toRow(data);
      const expiresAt = expiryOf(data, expires);
      await (await database())
        .insertInto("sessions")
        .values({ id: sha256(id), user_id: null, data: row.data, expires_at: expiryOf({}, expires) })
        .onConflict((oc) => oc.column("id").doUpdateSet({ data: row.data, expires_at: expiresAt, last_seen_at: sql<Date>`now()` }))
        .execute();
    },
    async deleteData(id) {
      await (await database()).deleteFrom("sessions").where("id", "=", sha256(id)).execute();
    },
  });
}

let appStorage: SessionStorage<SessionData, SessionFlashData> | undefined;

/** The app's session storage (created on first use, when configuration is read). */
export function getSessionStorage(): SessionStorage<SessionData, SessionFlashData> {
  appStorage ??= databaseSessionStorage(getDb);
  return appStorage;
}

export interface SessionUser {
  id: string;
  email: string;
  roles: Role[];
  hasPartnerCode: boolean;
}

export async function getSession(request: Request, storage = getSessionStorage()): Promise<Session<SessionData, SessionFlashData>> {
  return storage.getSession(request.headers.get("Cookie"));
}

export async function getSessionUser(request: Request, db?: DB): Promise<SessionUser | null> {
  if (!request.headers.get("Cookie")?.includes("__session=")) return null;
  const storage = db ? databaseSessionStorage(() => db) : getSessionStorage();
  const user = (await getSession(request, storage)).get("user");
  if (!user) return null;
  // A session read from its row always carries the roles; only `startUserSession` sets a user
  // without them, on a session this request is creating, never one read back.
  if (!("roles" in user)) return null;
  noteRole("client");
  return { id: user.id, email: user.email, roles: user.roles, hasPartnerCode: user.hasPartnerCode };
}

/**
 * Signs a user in on this browser with a new session id: whatever session the browser had (a
 * visitor's, or another user's) is deleted, so an id known before sign-in is worthless after it.
 * Returns the Set-Cookie header.
 */
export async function startUserSession(
  storage: SessionStorage<SessionData, SessionFlashData>,
  request: Request | null,
  user: SessionUserRef,
  client: SessionData["client"] = { ip: null, userAgent: null },
): Promise<string> {
  if (request) {
    const previous = await getSession(request, storage);
    if (previous.id) await storage.destroySession(previous);
  }
  const session = await storage.getSession();
  session.set("user", user);
  session.set("client", client);
  return storage.commitSession(session);
}

/** A session for a user, as sign-in makes it; for scripts and tests that need a signed-in browser. */
export async function createUserSession(db: DB, userId: string): Promise<string> {
  const user = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirstOrThrow();
  return startUserSession(databaseSessionStorage(() => db), null, user);
}

/** Ends every session of a user ("sign out everywhere", or staff revoking access). */
export async function revokeUserSessions(db: DB, userId: string): Promise<number> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
