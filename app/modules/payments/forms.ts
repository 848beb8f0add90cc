import * as z from "zod/mini";
import { optionalText } from "~/modules/validation/fields";

/**
 * The payment pages' buttons, never refused by their schema: the pay button carries the payment
 * link's token (`t`, else the address's), the sandbox checkout the outcome chosen (`pay`, else a
 * decline).
 */
export const payButtonSchema = z.object({ t: optionalText });
export const sandboxOutcomeSchema = z.object({ outcome: optionalText });
