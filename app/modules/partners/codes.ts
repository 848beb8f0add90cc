/**
 * Partner codes: six random uppercase Latin letters (staff-partner-packer §9). Routes match
 * case-insensitively, so a code must never equal a top-level route segment (DESIGN §4.27): `/packer`
 * would open the packer station, not the partner's landing. The list below holds every top-level
 * segment of `app/routes` (a unit test keeps it complete) and the spec's routes still to come.
 */
export const RESERVED_ROUTE_WORDS: readonly string[] = [
  "API",
  "AUTH",
  "BACKOFFICE",
  "CABINET",
  "COOKIES",
  "DATA-CONSENT",
  "FILES",
  "HEALTHZ",
  "IMPRESSUM",
  "LANGUAGE",
  "ORDER",
  "PACKER",
  "PARTNER",
  "PAY",
  "PAYMENT",
  "PRIVACY",
  "PUBLIC-OFFER",
  "REFDOC",
  "SEND-TEST",
  "TERMS",
  "TEXTS",
  "THANKYOU",
  "UPLOADS",
  "WEBHOOKS",
];

export const PARTNER_CODE = /^[A-Z]{6}$/;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export const isReservedWord = (code: string) => RESERVED_ROUTE_WORDS.includes(code.toUpperCase());

/** A well-formed code that is not a route word (what `/{code}` and `?partner=` may carry). */
export const isPartnerCodeShape = (value: string) => PARTNER_CODE.test(value.toUpperCase()) && !isReservedWord(value);

/**
 * Draws codes until one is not a route word. `randomIndex(n)` returns an integer in [0, n): the
 * server passes `crypto.randomInt`, tests a scripted sequence.
 */
export function drawPartnerCode(randomIndex: (n: number) => number): string {
  for (;;) {
    let code = "";
    for (let i = 0; i < 6; i++) code += LETTERS[randomIndex(LETTERS.length)];
    if (!isReservedWord(code)) return code;
  }
}
