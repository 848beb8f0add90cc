import { z } from "zod";
import { BAD_CHARACTERS, hasForbiddenCharacters } from "~/modules/validation/text";
import { samePlaceholders } from "./texts";

/**
 * The editor's forms, checked on the server (STYLE §3). Messages are translation keys; the spec's
 * "Заполните оригинальный текст и перевод" covers both required fields.
 */
const TARGETS = ["en", "de", "es", "fr", "it"] as const;
const REQUIRED = "translations.errors.required";

const text = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(5000, "translations.errors.tooLong")
  .refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS });
const id = z.uuid({ error: "translations.errors.notFound" });

const entry = {
  originalText: text,
  translatedText: text,
  targetLanguage: z.enum(TARGETS, { error: "translations.errors.language" }),
};

const keepsPlaceholders = (value: { originalText: string; translatedText: string }) => samePlaceholders(value.originalText, value.translatedText);
const placeholdersIssue = { message: "translations.errors.placeholders", path: ["translatedText"] };

export const addSchema = z.object(entry).refine(keepsPlaceholders, placeholdersIssue);
export const updateSchema = z.object({ id, ...entry }).refine(keepsPlaceholders, placeholdersIssue);
export const deleteSchema = z.object({ id });

export type Intent = "add" | "update" | "delete";

export function intentOf(form: FormData): Intent | null {
  const intent = form.get("intent");
  return intent === "add" || intent === "update" || intent === "delete" ? intent : null;
}
