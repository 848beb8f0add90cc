import * as z from "zod/mini";
import { emailField } from "~/modules/validation/fields";

/**
 * The sign-in forms (customer side §2 "Sign-in"), one zod schema each, on the one e-mail rule
 * (validation/email.ts). Plain: the sign-in page may check them in the browser too. Messages are
 * translation keys.
 */
const signInEmail = emailField({ required: "auth.errors.emailRequired", invalid: "auth.errors.emailInvalid" });

/** Asking for a link: the address it goes to. */
export const signInLinkSchema = z.object({ email: signInEmail });

/** The 6-digit code typed for an address; anything else is a wrong code, as a wrong number is. */
export const signInCodeSchema = z.object({
  email: signInEmail,
  code: z.string({ error: "auth.errors.badCode" }).check(z.trim(), z.regex(/^\d{6}$/, { error: "auth.errors.badCode" })),
});

/**
 * What the e-mail link strategy carries through its own form (ours, built by `sendSignInLink`):
 * the link's id and the mail's language.
 */
export const linkMailSchema = z.object({ link: z.string(), lng: z._default(z.string(), "ru") });
