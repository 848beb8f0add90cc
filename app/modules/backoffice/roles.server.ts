import { sql } from "kysely";
import type { Role } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isUuid, normalizeEmail } from "~/modules/orders/orders.server";
import { hasForbiddenCharacters } from "~/modules/validation/text";

/**
 * Roles of signed-in users (staff side §2 "/backoffice/roles", §5 "Role assignment"). Admins only
 * (DESIGN §4.24). The last admin keeps the role: otherwise nobody could manage roles any more.
 */

/** The user dropdown lists at most this many users (by e-mail). */
export const USER_CHOICES_LIMIT = 1000;

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

export async function listUsers(db: DB): Promise<Array<{ id: string; email: string }>> {
  return db.selectFrom("users").select(["id", "email"]).orderBy("email").limit(USER_CHOICES_LIMIT).execute();
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

/** Adds a role; assigning a role the user already has changes nothing. */
export async function assignRole(db: DB, userId: string, role: Role): Promise<void> {
  await db.insertInto("user_roles").values({ user_id: userId, role }).onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).execute();
}

export type RemoveRoleResult = "removed" | "missing" | "last_admin";

/**
 * Removes a role. Admin rows are locked first, so two admins removing each other at the same time
 * cannot leave the service without one: the second sees the first removal and is refused.
 */
export async function removeRole(db: DB, userId: string, role: Role): Promise<RemoveRoleResult> {
  if (!isUuid(userId)) return "missing";
  return db.transaction().execute(async (trx) => {
    if (role === "admin") {
      const admins = await trx.selectFrom("user_roles").select("user_id").where("role", "=", "admin").forUpdate().execute();
      if (!admins.some((admin) => admin.user_id === userId)) return "missing";
      if (admins.length <= 1) return "last_admin";
    }
    const result = await trx.deleteFrom("user_roles").where("user_id", "=", userId).where("role", "=", role).executeTakeFirst();
    return Number(result.numDeletedRows) > 0 ? "removed" : "missing";
  });
}
