import * as z from "zod/mini";
import { BAD_CHARACTERS, hasForbiddenCharacters } from "~/modules/validation/text";
import { samePlaceholders } from "./texts";

/**
 * The editor's forms (STYLE §3; ADR 053), a discriminated union on `intent`, checked on the server
 * and, with the same schema loaded after idle, in the browser. Messages are translation keys; the
 * spec's "Заполните оригинальный текст и перевод" covers both required fields; each field says its
 * first problem, a translation that loses the original's placeholders says so at the translation.
 */
const TARGETS = ["en", "de", "es", "fr", "it"] as const;
const REQUIRED = "translations.errors.required";
export const DUPLICATE = "translations.errors.duplicate";
export const NOT_FOUND = "translations.errors.notFound";

const text = z
  .string({ error: REQUIRED })
  .check(z.trim(), z.minLength(1, { error: REQUIRED }), z.maxLength(5000, { error: "translations.errors.tooLong" }), z.refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS }));
const id = z.uuid({ error: NOT_FOUND });

const entry = {
  originalText: text,
  translatedText: text,
  targetLanguage: z.enum(TARGETS, { error: "translations.errors.language" }),
};

const keepsPlaceholders = z.refine<{ originalText: string; translatedText: string }>((value) => samePlaceholders(value.originalText, value.translatedText), {
  message: "translations.errors.placeholders",
  path: ["translatedText"],
});

export const translatePageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), ...entry }).check(keepsPlaceholders),
  z.object({ intent: z.literal("update"), id, ...entry }).check(keepsPlaceholders),
  z.object({ intent: z.literal("delete"), id }),
]);

/**
 * The catalogue's override of one key in one language (ADR 069): the Russian original is the key's
 * text, read on the server, so only the translation is typed. The list's filters ride along to
 * come back to the same page.
 */
export const catalogueOverrideSchema = z.object({
  intent: z.literal("override"),
  key: z.string().check(z.maxLength(300)),
  targetLanguage: entry.targetLanguage,
  translatedText: text,
  q: z.optional(z.string()),
  missing: z.optional(z.string()),
  overridden: z.optional(z.string()),
  page: z.optional(z.string()),
});

/** The catalogue's query: a search text (one length rule), a language's missing texts, overrides only, a page. */
export const catalogueQuerySchema = z.object({
  q: z._default(z.string().check(z.trim(), z.maxLength(200)), ""),
  missing: z.optional(z.enum(TARGETS)),
  overridden: z.optional(z.literal("1")),
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1),
  edit: z.optional(z.string().check(z.maxLength(300))),
  lang: z.optional(z.enum(TARGETS)),
});
