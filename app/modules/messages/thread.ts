import * as z from "zod/mini";
import { textField } from "~/modules/validation/fields";

/**
 * An order's thread between the clinic and the lab (ADR 104), the parts both sides share: its
 * limits, its forms and how a message's text is shown — plain text whose web addresses become
 * links, nothing else (no markup: React writes every character as text).
 */

/** The longest message a thread keeps, in characters. */
export const MESSAGE_MAX = 4000;
/** Messages one sender may write in an hour, across all orders. */
export const MESSAGES_PER_HOUR = 30;
/** The newest messages a page shows (a thread longer than this shows its tail). */
export const THREAD_PAGE = 200;

export const MESSAGE_REQUIRED = "thread.errors.required";
export const MESSAGE_TOO_LONG = "thread.errors.tooLong";
export const MESSAGE_TOO_MANY = "thread.errors.tooMany";

const body = textField(MESSAGE_MAX, MESSAGE_REQUIRED, MESSAGE_TOO_LONG);
const messageId = z.string().check(z.regex(/^[1-9]\d{0,17}$/));

/** The clinic writes to the lab (the cabinet's order page). */
export const clinicMessageSchema = z.object({ intent: z.literal("message"), body });

/** Staff write to the clinic (a question by default), or a note for the lab only. */
export const labMessageSchema = z.object({ intent: z.literal("message"), body, asks: z.optional(z.literal("on")) });
export const labNoteSchema = z.object({ intent: z.literal("note"), body });
/** A message or note given to a staff member ("" takes it back). */
export const assignSchema = z.object({ intent: z.literal("assign"), message: messageId, assignee: z._default(z.string().check(z.maxLength(320)), "") });
export const resolveSchema = z.object({ intent: z.literal("resolve"), message: messageId });

export const labThreadSchema = z.discriminatedUnion("intent", [labMessageSchema, labNoteSchema, assignSchema, resolveSchema]);

export type TextPart = { text: string; href?: undefined } | { text: string; href: string };

const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"']+/gi;
/** Punctuation that ends a sentence rather than the address before it. */
const TRAILING = /[.,;:!?)\]}»]+$/;

/** A message's text cut into plain runs and web addresses (http and https only), in order. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(WEB_ADDRESS)) {
    const found = match[0];
    const address = found.replace(TRAILING, "");
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: address, href: address });
    last = start + address.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
