/**
 * Whether an error means the database cannot be reached right now (PostgreSQL stopped or
 * restarting, the network gone, every connection attempt timing out), as opposed to a bug or a
 * refused statement. Such requests are answered with 503 and a "try again shortly" page (server.mts).
 */

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
// node-postgres' own messages for a dead or never-established connection ("timeout expired": its
// connection timeout, db.server.ts).
const PG_MESSAGES = /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|is not queryable|Client was closed|Connection refused/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception); 57P01–57P03 (shutdown, crash, cannot connect now); 53300 (too many connections).
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === "53300") return true;
  }
  if (PG_MESSAGES.test(error.message)) return true;
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}
