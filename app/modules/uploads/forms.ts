import * as z from "zod/mini";
import { optionalText } from "~/modules/validation/fields";

/**
 * The uploads' small forms, never refused by their schema: an order or an upload that is not
 * found is answered by the route as it always was (404, or the "gone" answer).
 */
/** "Continue on another device": the order whose link to send. */
export const continueElsewhereSchema = z.object({ orderId: optionalText });
/** Finishing a resumable upload again: the upload and its key. */
export const finishAgainSchema = z.object({ id: optionalText, uploadKey: optionalText });
