import * as z from "zod/mini";
import { emailField } from "~/modules/validation/fields";
import { ROLES } from "./roles";

/**
 * The roles page's forms (staff side §4 "Roles"), a discriminated union on `intent` (ADR 053).
 * Messages are translation keys with the spec's texts: an address that cannot be a user's is
 * "Пользователь с таким email не найден", as one that is not on file.
 */
export const EMAIL_AND_ROLE = "bo.roles.errors.emailAndRole";
export const UNKNOWN_EMAIL = "bo.roles.errors.unknownEmail";
const roles = ROLES as ["admin", "manager", "user"];

/** The one role form (ADR 069): an address — the field suggests staff and past staff — and a role. */
export const assignByEmailSchema = z.object({
  intent: z.literal("assign_email"),
  email: emailField({ required: EMAIL_AND_ROLE, invalid: UNKNOWN_EMAIL, badCharacters: UNKNOWN_EMAIL }),
  role: z.enum(roles, { error: EMAIL_AND_ROLE }),
});

/**
 * Removing a role: a forged user id finds nothing to remove (said by a toast); an unknown role is a
 * forged request. Removing someone's last role asks first: `confirm=yes` is the answer.
 */
export const removeRoleSchema = z.object({ intent: z.literal("remove"), userId: z._default(z.string(), ""), role: z.enum(roles), confirm: z.optional(z.literal("yes")) });

export const rolesPageSchema = z.discriminatedUnion("intent", [assignByEmailSchema, removeRoleSchema]);
