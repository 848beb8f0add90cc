import * as z from "zod/mini";
import { optionalText } from "~/modules/validation/fields";

/**
 * The cookie notice's "OK" and the international landing's "remember the partner" (ADR 044): one
 * form target, `intent=partner` for the latter; back to `redirectTo` either way. Never refused.
 */
export const cookieChoiceSchema = z.object({ intent: optionalText, partner: optionalText, redirectTo: optionalText });
