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

export function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

export function interpolate(text: string, values?: TranslateValues): string {
  if (!values) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function createTranslator(messages: Messages, onMissing: (key: string) => void = () => {}): Translate {
  return (key, values) => {
    const text = lookup(messages, key);
    if (text === undefined) {
      onMissing(key);
      return key;
    }
    return interpolate(text, values);
  };
}
