import * as z from "zod/mini";
import { optionalText } from "~/modules/validation/fields";
import { NOTIFICATION_CHANNELS } from "./status";

/**
 * The cabinet's form (customer side §6): how the client wants to hear of their orders. A choice
 * from a fixed list, so anything else is a forged request, answered 400.
 */
export const channelSchema = z.object({ channel: z.enum(NOTIFICATION_CHANNELS as ["email", "whatsapp", "none"]) });

/** Starting a fresh order: `reason=clear` says the old one was cleared (a toast); anything else, nothing. */
export const newOrderSchema = z.object({ reason: optionalText });

/** The cabinet's order page: "the parcel has arrived" (ADR 070). */
export const parcelReceivedSchema = z.object({ intent: z.literal("received") });
