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
