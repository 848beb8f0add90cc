/** Masks for what the tracker test screen shows (DESIGN §4.26): enough to recognise, never enough to use. */

/** "abcd…wxyz (256)". Short tokens show only dots and the length. */
export function maskToken(token: string): string {
  if (token.length < 16) return `${"•".repeat(Math.min(token.length, 8))} (${token.length})`;
  return `${token.slice(0, 4)}…${token.slice(-4)} (${token.length})`;
}

/** "bot@example.com" → "bo…@example.com": which account, not the whole address. */
export function maskLogin(login: string): string {
  const at = login.indexOf("@");
  if (at <= 0) return `${login.slice(0, 2)}…`;
  return `${login.slice(0, Math.min(2, at))}…${login.slice(at)}`;
}
