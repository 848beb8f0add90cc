/**
 * A phone number as people read it (ADR 057): a Russian number typed as bare digits ("89001234567",
 * "+79001234567") is shown as "+7 900 123-45-67"; anything else — already grouped, or another
 * country's — as it was typed. Display only: the order keeps what the doctor typed.
 */
export function readablePhone(typed: string): string {
  const digits = typed.replace(/[\s()-]/g, "");
  const russian = /^(?:\+7|8|7)(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(digits);
  if (!russian || /[\s()-]/.test(typed.trim())) return typed;
  const [, code, first, second, third] = russian;
  return `+7 ${code} ${first}-${second}-${third}`;
}
