import fs from "node:fs";
import path from "node:path";
import type { Language } from "./languages";
import { LANGUAGES } from "./languages";
import { i18nOptions as clientOptions } from "./options";
import type { Messages } from "./translate";

/**
 * Interface texts: every `locales/<lang>/*.json` file, merged into one tree per language (each area
 * keeps its own file, e.g. `common.json`, `ftp.json`, with distinct top-level keys). Read once per
 * process; the browser gets only the texts of the page's language, through the root loader.
 */
export const NAMESPACE = "common";

const LOCALES_DIR = path.resolve(process.env.LOCALES_DIR ?? "locales");

function merge(target: Messages, source: Messages, file: string): Messages {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (typeof value === "object" && typeof existing === "object") merge(existing, value, file);
    else if (existing !== undefined) throw new Error(`Translation key "${key}" is defined twice (${file})`);
    else target[key] = value;
  }
  return target;
}

function loadLanguage(language: Language): Messages {
  const dir = path.join(LOCALES_DIR, language);
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .reduce<Messages>((all, file) => merge(all, JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), `${language}/${file}`), {});
}

export const resources = Object.fromEntries(LANGUAGES.map((language) => [language, { [NAMESPACE]: loadLanguage(language) }])) as Record<
  Language,
  Record<typeof NAMESPACE, Messages>
>;

/** Server options: Russian is the fallback for a text missing in another language. */
export const i18nOptions = { ...clientOptions, fallbackLng: "ru", ns: [NAMESPACE] } as const;
