import { hostName } from "~/modules/market/market";

/**
 * The app answers only the hosts of its configured public origins (DESIGN §3), so nothing it
 * writes can carry a host that a request made up. Outside strict mode this machine's loopback
 * names are answered too. The health check answers any host: platforms probe it by address.
 */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
export const ANY_HOST_PATHS = new Set(["/healthz"]);

export function isHostAllowed(hostHeader: string | null | undefined, options: { allowedHosts: readonly string[]; strict: boolean }): boolean {
  const host = hostName(hostHeader);
  if (!host) return false;
  if (options.allowedHosts.includes(host)) return true;
  return !options.strict && (LOOPBACK.includes(host) || host.endsWith(".localhost"));
}
