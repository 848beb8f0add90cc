import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { requireAdmin } from "~/modules/auth/guards.server";
import type { Staff } from "~/modules/auth/staff";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/answers/section.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";
import type { Role } from "~db/schema";
import { rolesPageSchema, UNKNOWN_EMAIL } from "./roles-forms";
import { assignRole, findUserByEmail, findUserById, listStaffSuggestions, listUsersWithRoles, removeRole, rolesOfUser } from "./roles.server";

/**
 * The back office's roles page (admins only): who has which role, one form assigning a role by
 * address (suggesting staff and past staff), removing one — someone's last role after a question.
 */

const BACK = "/backoffice/roles";

export async function loadRolesPage({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  // The lists load on their own; the assignment by e-mail works without them (ADR 026).
  const [withRoles, suggestions] = await Promise.all([
    loadSection("back-office: listing users with roles", { message: "failures.usersList" }, () => listUsersWithRoles(db)),
    loadSection("back-office: listing staff addresses", { message: "failures.usersList" }, () => listStaffSuggestions(db)),
  ]);
  return {
    title: t("bo.roles.title"),
    withRoles: sectionData(withRoles, []),
    // The form works without them: a missing list only loses the suggestions.
    suggestions: sectionData(suggestions, []),
    listFailure: sectionFailure(withRoles),
  };
}

/** A refused assignment, said beside the form with what was typed kept. */
export type RolesReply = FormReply;

/** Removing someone's last role asks first: the page shows this question with a form that answers it. */
export interface RemovalQuestion {
  confirmRemove: { userId: string; email: string; role: Role };
}

interface RolesIntentArgs {
  db: DB;
  submission: Submission<z.output<typeof rolesPageSchema>, string[]>;
  admin: Staff;
}

async function assigned(db: DB, userId: string, role: Role, actor: string) {
  try {
    await assignRole(db, userId, role, actor);
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
  const { userId, role, confirm } = form;
  if (confirm !== "yes") {
    const [roles, user] = await Promise.all([rolesOfUser(db, userId), findUserById(db, userId)]);
    // The last role goes only after the question: without it the address loses all access.
    if (user && roles.length === 1 && roles[0] === role) return { confirmRemove: { userId, email: user.email, role } } satisfies RemovalQuestion;
  }
  const result = await removeRole(db, userId, role, admin.actorLabel);
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

/** Assigns the role to the address the form named, or says at the field that nobody has signed in with it. */
async function assignByEmail({ db, submission, admin }: RolesIntentArgs) {
  const form = intentValue(submission, "assign_email");
  if (!form) return refused(submission);
  const user = await findUserByEmail(db, form.email);
  return user ? assigned(db, user.id, form.role, admin.actorLabel) : refused(submission, undefined, 400, { email: [UNKNOWN_EMAIL] });
}

const ROLES_INTENTS = {
  remove: removeUserRole,
  assign_email: assignByEmail,
};

export async function rolesPageAction({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const submission = await readSubmission(request, context, rolesPageSchema);
  const handler = intentHandler(ROLES_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db: await getDb(), submission, admin });
}
