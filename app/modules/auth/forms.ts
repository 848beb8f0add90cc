import * as z from "zod/mini";
import { emailField, optionalText } from "~/modules/validation/fields";

/**
 * The sign-in forms (customer side §2 "Sign-in"), one zod schema each, on the one e-mail rule
 * (validation/email.ts). Plain: the sign-in page checks them in the browser too. Messages are
 * translation keys. The page checks the address once; the strategies are handed it checked.
 */
export const BAD_CODE = "auth.errors.badCode";
const signInEmail = emailField({ required: "auth.errors.emailRequired", invalid: "auth.errors.emailInvalid", badCharacters: "auth.errors.emailInvalid" });
/** Where the sign-in leads; `redirectTarget` decides whether it may. */
const redirectTo = z.optional(z.string());

/** Asking for a link: the address it goes to. */
export const signInLinkSchema = z.object({ intent: z.optional(z.literal("link")), email: signInEmail, redirectTo });

const code = z.string({ error: BAD_CODE }).check(z.trim(), z.regex(/^\d{6}$/, { error: BAD_CODE }));

/** The 6-digit code typed for an address; anything else is a wrong code, as a wrong number is. */
export const signInCodeSchema = z.object({ intent: z.literal("code"), email: signInEmail, code, redirectTo });

/** What the browser checks of the code form: the code typed (the address is the page's own). */
export const typedCodeSchema = z.object({ code });

/** The sign-in page's action: a link asked for (the form carries no intent), or a code typed. */
export const signInPageSchema = z.discriminatedUnion("intent", [signInLinkSchema, signInCodeSchema]);

/** The confirmation page's button: the link's token (an unknown one finds no link). */
export const verifySchema = z.object({ token: z._default(z.string(), "") });

/**
 * What the strategies carry through their own forms (ours, built by `sendSignInLink` and
 * `signInWithCode` from checked values): the link's id and the mail's language; the address and
 * the code.
 */
export const linkMailSchema = z.object({ link: z.string(), lng: z._default(z.string(), "ru") });
export const codeCarriedSchema = z.object({ email: z.string(), code: z.string() });

/**
 * A shared-password gate (back office, packer station): the password as typed (nothing typed is a
 * wrong password, said by the gate) and where to go after.
 */
export const gatePasswordSchema = z.object({ password: z._default(z.string(), ""), redirectTo });

/** Signing out: `scope=everywhere` ends every session of the user; anything else, this one. */
export const signOutSchema = z.object({ scope: optionalText });
