import * as z from "zod/mini";
import { NOTIFICATION_CHANNELS } from "./status";

/**
 * The cabinet's form (customer side §6): how the client wants to hear of their orders. A choice
 * from a fixed list, so anything else is a forged request, answered 400.
 */
export const channelSchema = z.object({ channel: z.enum(NOTIFICATION_CHANNELS as ["email", "whatsapp", "none"]) });
