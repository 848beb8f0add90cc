/**
 * The translator the pages use, on the server and in the browser. Pages receive the texts of their
 * language from the root loader; this keeps i18next out of the browser bundle (about 15 KB gzip)
 * while i18next/remix-i18next still detect the language and translate on the server (meta, mails).
 * Placeholders use the i18next syntax: `{{name}}`.
 */
export interface Messages {
  [key: string]: string | Messages;
}

export type TranslateValues = Record<string, string | number>;
export type Translate = (key: string, values?: TranslateValues) => string;

/** Texts already found, per set of texts: a page asks for the same few hundred keys on every render. */
const found = new WeakMap<Messages, Map<string, string | undefined>>();

/** The text at a dotted key. A set of texts is never changed once pages use it (a new version is a new object). */
export function lookup(messages: Messages, key: string): string | undefined {
  let known = found.get(messages);
  if (!known) {
    known = new Map();
    found.set(messages, known);
  }
  if (known.has(key)) return known.get(key);
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) {
      node = undefined;
      break;
    }
    node = node[part];
  }
  const text = typeof node === "string" ? node : undefined;
  known.set(key, text);
  return text;
}

export function interpolate(text: string, values?: TranslateValues): string {
  if (!values) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A sentence with a count uses i18next's plural keys (`key_one`, `key_few`, `key_many`, `key_other`,
 * the categories of `Intl.PluralRules` for the language): the one for `count` if the language has
 * it, else `key_other`; a key without plural forms is used as it is.
 */
const rulesByLanguage = new Map<string, Intl.PluralRules>();

/** `Intl.PluralRules` of a language, made once: making one costs far more than asking it. */
function pluralRules(language: string): Intl.PluralRules {
  let rules = rulesByLanguage.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    rulesByLanguage.set(language, rules);
  }
  return rules;
}

export function pluralKey(messages: Messages, key: string, values: TranslateValues | undefined, language: string | undefined): string {
  const count = values?.count;
  if (typeof count !== "number" || !language) return key;
  const category = pluralRules(language).select(count);
  if (lookup(messages, `${key}_${category}`) !== undefined) return `${key}_${category}`;
  if (lookup(messages, `${key}_other`) !== undefined) return `${key}_other`;
  return key;
}

export function createTranslator(messages: Messages, onMissing: (key: string) => void = () => {}, language?: string): Translate {
  return (wanted, values) => {
    const key = pluralKey(messages, wanted, values, language);
    const text = lookup(messages, key);
    if (text === undefined) {
      onMissing(key);
      return key;
    }
    return interpolate(text, values);
  };
}
