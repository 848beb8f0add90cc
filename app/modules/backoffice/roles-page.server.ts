import type { AppLoadContext } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { requireAdmin } from "~/modules/auth/guards.server";
import type { Staff } from "~/modules/auth/staff";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/intents";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/submission.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { logger } from "~/modules/log/logger.server";
import type { Role } from "~db/schema";
import { CHOOSE_USER, rolesPageSchema, UNKNOWN_EMAIL } from "./roles-forms";
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
export type RolesReply = FormReply;

interface RolesIntentArgs {
  db: DB;
  submission: Submission<z.output<typeof rolesPageSchema>, string[]>;
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

async function removeUserRole({ db, submission, admin }: RolesIntentArgs) {
  const form = intentValue(submission, "remove");
  if (!form) throw new Response("Unknown role", { status: 400 });
  const { userId, role } = form;
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

/** Assigns the role to the user the form named, or says at the field that there is no such user. */
function assignFound(db: DB, submission: RolesIntentArgs["submission"], role: Role, user: { id: string } | undefined, notFound: Record<string, string[]>) {
  return user ? assigned(db, user.id, role) : refused(submission, undefined, 400, notFound);
}

async function assignByEmail({ db, submission }: RolesIntentArgs) {
  const form = intentValue(submission, "assign_email");
  return form ? assignFound(db, submission, form.role, await findUserByEmail(db, form.email), { email: [UNKNOWN_EMAIL] }) : refused(submission);
}

async function assignToUser({ db, submission }: RolesIntentArgs) {
  const form = intentValue(submission, "assign_user");
  return form ? assignFound(db, submission, form.role, await findUserById(db, form.userId), { userId: [CHOOSE_USER] }) : refused(submission);
}

const ROLES_INTENTS = {
  remove: removeUserRole,
  assign_email: assignByEmail,
  assign_user: assignToUser,
};

export async function rolesPageAction(request: Request, context: AppLoadContext) {
  const admin = await requireAdmin(request, context);
  const submission = await readSubmission(request, context, rolesPageSchema);
  const handler = intentHandler(ROLES_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db: await getDb(), submission, admin });
}
