import { sql } from "kysely";
import type { Role } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isUuid } from "~/modules/orders/orders.server";
import { normalizeEmail } from "~/modules/validation/email";
import { hasForbiddenCharacters } from "~/modules/validation/text";

/**
 * Roles of signed-in users (staff side §2 "/backoffice/roles", §5 "Role assignment"). Admins only
 * (DESIGN §4.24). The last admin keeps the role: otherwise nobody could manage roles any more.
 */

/** The address field suggests at most this many staff and past staff (by e-mail). */
export const STAFF_SUGGESTIONS_LIMIT = 500;
const STAFF_ROLES: Role[] = ["admin", "manager"];

export interface UserWithRoles {
  id: string;
  email: string;
  roles: Role[];
}

export async function listUsersWithRoles(db: DB): Promise<UserWithRoles[]> {
  const rows = await db
    .selectFrom("users")
    .innerJoin("user_roles", "user_roles.user_id", "users.id")
    .select(["users.id", "users.email", sql<Role[]>`array_agg(user_roles.role order by array_position(array['admin','manager','user'], user_roles.role))`.as("roles")])
    .groupBy(["users.id", "users.email"])
    .orderBy("users.email")
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email, roles: row.roles }));
}

export interface StaffSuggestion {
  email: string;
  /** Holds a staff role today; otherwise held one once (past staff). */
  current: boolean;
}

/**
 * The addresses the role form suggests: users who hold a staff role or held one (their grants are
 * in `role_changes`), never every customer. Read from the two small tables of roles, then their users.
 */
export async function listStaffSuggestions(db: DB): Promise<StaffSuggestion[]> {
  const current = db.selectFrom("user_roles").select("user_id").where("role", "in", STAFF_ROLES);
  const past = db.selectFrom("role_changes").select("user_id").where("role", "in", STAFF_ROLES);
  const rows = await db
    .selectFrom("users")
    .select(["users.email", sql<boolean>`users.id in (${current})`.as("current")])
    .where("users.id", "in", current.union(past))
    .orderBy("users.email")
    .limit(STAFF_SUGGESTIONS_LIMIT)
    .execute();
  return rows.map((row) => ({ email: row.email, current: Boolean(row.current) }));
}

/** The roles a user holds now. */
export async function rolesOfUser(db: DB, userId: string): Promise<Role[]> {
  if (!isUuid(userId)) return [];
  return (await db.selectFrom("user_roles").select("role").where("user_id", "=", userId).execute()).map((row) => row.role);
}

export async function findUserByEmail(db: DB, email: string) {
  const normalized = normalizeEmail(email);
  // No stored address has control characters (PostgreSQL refuses NUL in a query outright).
  if (!normalized || hasForbiddenCharacters(normalized)) return undefined;
  return db.selectFrom("users").select(["id", "email"]).where("email", "=", normalized).executeTakeFirst();
}

export async function findUserById(db: DB, id: string) {
  if (!isUuid(id)) return undefined;
  return db.selectFrom("users").select(["id", "email"]).where("id", "=", id).executeTakeFirst();
}

/** Adds a role, recorded with who granted it; assigning a role the user already has changes nothing. */
export async function assignRole(db: DB, userId: string, role: Role, actor: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const added = await trx.insertInto("user_roles").values({ user_id: userId, role }).onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) await trx.insertInto("role_changes").values({ user_id: userId, role, change: "granted", actor }).execute();
  });
}

export type RemoveRoleResult = "removed" | "missing" | "last_admin";

/**
 * Removes a role. Admin rows are locked first, so two admins removing each other at the same time
 * cannot leave the service without one: the second sees the first removal and is refused.
 */
export async function removeRole(db: DB, userId: string, role: Role, actor: string): Promise<RemoveRoleResult> {
  if (!isUuid(userId)) return "missing";
  return db.transaction().execute(async (trx) => {
    if (role === "admin") {
      const admins = await trx.selectFrom("user_roles").select("user_id").where("role", "=", "admin").forUpdate().execute();
      if (!admins.some((admin) => admin.user_id === userId)) return "missing";
      if (admins.length <= 1) return "last_admin";
    }
    const result = await trx.deleteFrom("user_roles").where("user_id", "=", userId).where("role", "=", role).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return "missing";
    await trx.insertInto("role_changes").values({ user_id: userId, role, change: "removed", actor }).execute();
    return "removed";
  });
}
