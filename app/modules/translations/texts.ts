import type { Messages } from "~/modules/i18n/translate";

/**
 * Interface texts with staff overrides (DESIGN §4.30, staff-partner-packer §7). Pure: the server
 * module feeds it the locale files and the rows of `translations`.
 *
 * An override is keyed by the Russian text, as in the spec's `translations` table: it replaces the
 * target-language text of every key whose Russian text is exactly `original_text`. A key the target
 * file lacks (or leaves empty) takes the override, else the Russian text — unless `strict`, where it
 * stays missing so the armed missing-key handler of tests fails on it.
 */

/** Russian text → translated text, for one target language. */
export type Overrides = ReadonlyMap<string, string>;

export interface BuildOptions {
  /** The Russian tree: the source of truth for keys and for what an override matches. */
  source: Messages;
  /** The target language's tree from the locale files. */
  target: Messages;
  overrides: Overrides;
  strict: boolean;
}

export function buildTexts({ source, target, overrides, strict }: BuildOptions): Messages {
  const out: Messages = {};
  for (const [key, sourceValue] of Object.entries(source)) {
    const targetValue = target[key];
    if (typeof sourceValue === "string") {
      const fileText = typeof targetValue === "string" && targetValue.trim() !== "" ? targetValue : undefined;
      const text = overrides.get(sourceValue) ?? fileText ?? (strict ? undefined : sourceValue);
      if (text !== undefined) out[key] = text;
    } else {
      out[key] = buildTexts({ source: sourceValue, target: typeof targetValue === "object" ? targetValue : {}, overrides, strict });
    }
  }
  // Keys only the target has are kept: they are someone's bug, but not ours to hide.
  for (const [key, targetValue] of Object.entries(target)) if (!(key in source)) out[key] = targetValue;
  return out;
}

/** Russian texts whose key the target file lacks or leaves empty and no override covers: what machine translation may fill. */
export function missingTexts(source: Messages, target: Messages, overrides: Overrides): string[] {
  const found = new Set<string>();
  const walk = (s: Messages, t: Messages | undefined) => {
    for (const [key, sourceValue] of Object.entries(s)) {
      const targetValue = t?.[key];
      if (typeof sourceValue === "string") {
        // A Russian plural form (`_few`, `_many`) the language does not have is not missing there:
        // the language's own forms of that sentence are (locales.test.ts checks them).
        const plural = /^(.+)_(zero|one|two|few|many|other)$/.exec(key);
        if (plural && targetValue === undefined && typeof t?.[`${plural[1]}_other`] === "string") continue;
        const present = typeof targetValue === "string" && targetValue.trim() !== "";
        if (!present && !overrides.has(sourceValue) && sourceValue.trim() !== "") found.add(sourceValue);
      } else {
        walk(sourceValue, typeof targetValue === "object" ? targetValue : undefined);
      }
    }
  };
  walk(source, target);
  return [...found];
}

/** Every key path whose Russian text is `text` (to show staff where an override lands). */
export function keysOfText(source: Messages, text: string, prefix = ""): string[] {
  return Object.entries(source).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") return value === text ? [path] : [];
    return keysOfText(value, text, path);
  });
}

/** The tree without the given top-level keys (texts a page gets from its own loader). */
export function without(messages: Messages, keys: readonly string[]): Messages {
  return Object.fromEntries(Object.entries(messages).filter(([key]) => !keys.includes(key)));
}

/** `{{name}}` placeholders of a text, sorted: a translation must keep exactly these. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

export function samePlaceholders(original: string, translation: string): boolean {
  const a = placeholdersOf(original);
  const b = placeholdersOf(translation);
  return a.length === b.length && a.every((name, index) => name === b[index]);
}
