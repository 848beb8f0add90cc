import * as z from "zod/mini";
import { nameField, optionalText } from "~/modules/validation/fields";
import { innField } from "~/modules/validation/inn";
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

/** The cabinet's order page: a bank-transfer invoice for the company that pays (ADR 072), its name and ИНН as typed. */
export const invoiceRequestSchema = z.object({
  intent: z.literal("invoice"),
  company: nameField("cabinet.invoice.errors.companyRequired"),
  inn: innField({ required: "cabinet.invoice.errors.innRequired", shape: "cabinet.invoice.errors.innShape", checksum: "cabinet.invoice.errors.innChecksum" }),
});

/** The cabinet's erasure page (ADR 079): asking needs the box that says what erasure means; withdrawing needs nothing. */
export const ERASURE_CONFIRM_REQUIRED = "cabinet.erasure.confirmRequired";
export const erasureSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("request"), confirm: z.literal("yes", { error: ERASURE_CONFIRM_REQUIRED }) }),
  z.object({ intent: z.literal("withdraw") }),
]);
