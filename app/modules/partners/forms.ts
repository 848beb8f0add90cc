import * as z from "zod/mini";
import { checkbox, emailField, idField, nameField, percentageField, phoneField, positiveAmountField, TEXT_MAX, textField, wholeNumberField } from "~/modules/validation/fields";
import { TOO_LONG } from "~/modules/validation/text";

/**
 * The partner forms (staff-partner-packer §2, §5), one zod schema each, parsed with conform on the
 * server and checked with the same schema in the browser (ADR 053). An intent-dispatching page
 * parses a discriminated union of its intents. Messages are translation keys whose Russian texts
 * are the spec's, verbatim.
 */
export const NAME_MAX = TEXT_MAX.name;
export const NOTE_MAX = TEXT_MAX.note;
export const CONTACT_PHONE_MAX = TEXT_MAX.phone;

const CONTACTS_REQUIRED = "partners.errors.contactsRequired";

/** The partner's name (partner page). */
export const nameSchema = z.object({ intent: z.literal("name"), user_name: nameField("partners.errors.nameEmpty", NAME_MAX) });

/**
 * Payout contacts: phone and e-mail both required ('Телефон и e-mail обязательны'), and the offer
 * accepted unless it already was ('Подтвердите ознакомление…').
 */
export function contactsSchema(offerAlreadyAccepted: boolean) {
  const offerTicked = z.pipe(z.literal("on", { error: "partners.errors.consentRequired" }), z.transform(() => true));
  return z.object({
    intent: z.literal("contacts"),
    contact_email: emailField({ required: CONTACTS_REQUIRED, invalid: "partners.errors.emailInvalid", tooLong: TOO_LONG }),
    contact_phone: phoneField(CONTACTS_REQUIRED),
    offer: offerAlreadyAccepted ? checkbox : offerTicked,
  });
}

/** "Получить партнёрский код": the button alone. */
export const createCodeSchema = z.object({ intent: z.literal("create") });

/** The partner page's forms, by intent. */
export const partnerPageSchema = (offerAlreadyAccepted: boolean) => z.discriminatedUnion("intent", [createCodeSchema, nameSchema, contactsSchema(offerAlreadyAccepted)]);

const partnerId = { partner_code_id: idField("partners.errors.partnerNotFound") };

/** A payout: amount > 0, year 2000–2100 (the table's own bounds), quarter 1–4, comment optional. */
export const payoutSchema = z.object({
  intent: z.literal("add_payout"),
  ...partnerId,
  amount: positiveAmountField("partners.errors.amountPositive"),
  year: wholeNumberField(2000, 2100, "partners.errors.yearRange"),
  quarter: wholeNumberField(1, 4, "partners.errors.quarterRange"),
  note: textField(NOTE_MAX),
});

/** The reward percentage: empty keeps the current value (spec §5). */
export const percentageSchema = z.object({
  intent: z.literal("set_percentage"),
  ...partnerId,
  percentage: percentageField("partners.errors.percentageRange", { blankKeeps: true }),
});

export const deletePayoutSchema = z.object({ intent: z.literal("delete_payout"), ...partnerId, payout_id: idField("partners.toasts.payoutDeleteFailed") });

/** The back office's partners page, by intent. */
export const affiliatesSchema = z.discriminatedUnion("intent", [payoutSchema, percentageSchema, deletePayoutSchema]);

/** What a saved contacts form writes. */
export interface ContactsInput {
  contactEmail: string;
  contactPhone: string;
  acceptOffer: boolean;
}

/** What a saved payout writes (minor units; no comment is null). */
export interface PayoutInput {
  amount: number;
  year: number;
  quarter: number;
  note: string | null;
}
