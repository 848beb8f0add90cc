import { data, type AppLoadContext } from "@remix-run/node";
import { requireAdmin } from "~/modules/auth/guards.server";
import type { Staff } from "~/modules/auth/staff";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/intents";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { readFormData } from "~/modules/http/request.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { logger } from "~/modules/log/logger.server";
import type { Role } from "~db/schema";
import { isRole } from "./roles";
import { assignRole, findUserByEmail, findUserById, listUsers, listUsersWithRoles, removeRole } from "./roles.server";

/** The back office's roles page (admins only): who has which role, assigning one by e-mail or from the list, removing one. */

const BACK = "/backoffice/roles";

export async function loadRolesPage(request: Request, context: AppLoadContext) {
  await requireAdmin(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  // The lists load on their own; the assignment by e-mail works without them (ADR 026).
  const [withRoles, users] = await Promise.all([
    loadSection("back-office: listing users with roles", { message: "failures.usersList" }, () => listUsersWithRoles(db)),
    loadSection("back-office: listing users", { message: "failures.usersList" }, () => listUsers(db)),
  ]);
  return {
    title: t("bo.roles.title"),
    withRoles: sectionData(withRoles, []),
    users: sectionData(users, []),
    listFailure: sectionFailure(withRoles) ?? sectionFailure(users),
  };
}

/** A refused assignment, said beside the form it came from with what was typed kept. */
export type RolesReply = {
  form: "email" | "user";
  error: string;
  email?: string;
  userId?: string;
  role?: string;
};

interface RolesIntentArgs {
  db: DB;
  form: FormData;
  admin: Staff;
}

async function assigned(db: DB, userId: string, role: Role) {
  try {
    await assignRole(db, userId, role);
  } catch (error) {
    logger.error("back-office: assigning a role failed:", error);
    return redirectWithToast(BACK, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.roles.assignFailed",
    });
  }
  return redirectWithToast(BACK, {
    type: "success",
    title: "bo.roles.assigned",
  });
}

async function removeUserRole({ db, form, admin }: RolesIntentArgs) {
  const role = form.get("role");
  const userId = String(form.get("userId") ?? "");
  if (!isRole(role)) throw new Response("Unknown role", { status: 400 });
  const result = await removeRole(db, userId, role);
  if (result === "last_admin")
    return redirectWithToast(BACK, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.roles.lastAdmin",
    });
  if (result === "missing")
    return redirectWithToast(BACK, {
      type: "error",
      title: "bo.toasts.error",
      description: "bo.roles.removeFailed",
    });
  // An admin who gave up their own admin role can no longer open this page.
  const lostAccess = role === "admin" && userId === admin.user?.id;
  return redirectWithToast(lostAccess ? "/backoffice" : BACK, {
    type: "success",
    title: "bo.roles.removed",
  });
}

async function assignByEmail({ db, form }: RolesIntentArgs) {
  const role = form.get("role");
  const email = String(form.get("email") ?? "").trim();
  const failure = (error: string) => data<RolesReply>({ form: "email", error, email, role: String(role ?? "") }, { status: 400 });
  if (!email || !isRole(role)) return failure("bo.roles.errors.emailAndRole");
  const user = await findUserByEmail(db, email);
  if (!user) return failure("bo.roles.errors.unknownEmail");
  return assigned(db, user.id, role);
}

async function assignToUser({ db, form }: RolesIntentArgs) {
  const role = form.get("role");
  const userId = String(form.get("userId") ?? "");
  const failure = (error: string) => data<RolesReply>({ form: "user", error, userId, role: String(role ?? "") }, { status: 400 });
  if (!isRole(role)) return failure("bo.roles.errors.chooseRole");
  const user = await findUserById(db, userId);
  if (!user) return failure("bo.roles.errors.chooseUser");
  return assigned(db, user.id, role);
}

const ROLES_INTENTS: Record<string, (args: RolesIntentArgs) => Promise<Response | ReturnType<typeof data<RolesReply>>>> = {
  remove: removeUserRole,
  assign_email: assignByEmail,
  assign_user: assignToUser,
};

export async function rolesPageAction(request: Request, context: AppLoadContext) {
  const admin = await requireAdmin(request, context);
  const form = await readFormData(request, context);
  const handler = intentHandler(ROLES_INTENTS, form.get("intent"));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db: await getDb(), form, admin });
}
