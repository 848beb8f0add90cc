/**
 * The order code space (DESIGN §4.6, docs/decisions/038-order-code-space.md): an order's code is the
 * first 4 hex characters of its id, so there are 65,536 codes. A free code is chosen first and the
 * id is then made with it, so creating an order never depends on luck. Pure: shared by the server
 * and the back-office statistics, unit-tested.
 */

export const CODE_SPACE = 0x10000;

/** The code at a position of the space, any integer wrapping around: 0 → "0000", 65535 → "ffff", 65536 → "0000". */
export function codeAt(position: number): string {
  return (((position % CODE_SPACE) + CODE_SPACE) % CODE_SPACE).toString(16).padStart(4, "0");
}

const CODE = /^[0-9a-f]{4}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A version 4 UUID whose first 4 hex characters are `code`: those characters of a v4 UUID are
 * random bits like the rest of its first group, so setting them keeps it a valid v4 UUID with
 * 118 random bits of its own.
 */
export function orderIdWithCode(code: string, randomUuid: string): string {
  if (!CODE.test(code)) throw new Error(`Not an order code: ${code}`);
  const uuid = randomUuid.toLowerCase();
  if (!UUID_V4.test(uuid)) throw new Error("Not a version 4 UUID");
  return `${code}${uuid.slice(4)}`;
}

/** How full the code space is, for staff: a warning above 80 % (codes are held up to a year). */
export const CODE_SPACE_WARNING_PERCENT = 80;

export interface CodeSpaceUsage {
  held: number;
  total: number;
  /** Percent held, rounded down to one decimal, so 99.99 % never reads "100 %" while codes are free. */
  percent: number;
  warning: boolean;
}

export function codeSpaceUsage(held: number): CodeSpaceUsage {
  const count = Math.min(Math.max(0, Math.trunc(held)), CODE_SPACE);
  const percent = Math.floor((count * 1000) / CODE_SPACE) / 10;
  return { held: count, total: CODE_SPACE, percent, warning: (count * 100) / CODE_SPACE > CODE_SPACE_WARNING_PERCENT };
}
