import { isLanguage, SOURCE_LANGUAGE } from "./languages";
import { resources } from "./resources.server";
import { shellParts } from "./texts-cache";
import type { Messages } from "./translate";

/**
 * The few texts a document needs when the root's data, and so its texts' key, is missing (its
 * loader failed): the error page and the shell. They travel with that document (ADR 046) rather than
 * by key; read from the locale files, never from the database, which may be what failed.
 */
export function shellTexts(language: string | null | undefined): Messages {
  return shellParts(resources[isLanguage(language) ? language : SOURCE_LANGUAGE].common);
}
