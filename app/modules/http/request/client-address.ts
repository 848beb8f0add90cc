/**
 * The one key of every per-sender limit (ADR 056): a signed-in client's account, whatever address
 * it comes from (a clinic behind a busy shared address still orders), else the address group.
 */
export function limitKey(kind: string, sender: { clientAddress: string; accountEmail?: string | null }): string {
  return sender.accountEmail ? `${kind}:account:${sender.accountEmail.toLowerCase()}` : `${kind}:${addressGroup(sender.clientAddress)}`;
}

/**
 * What a per-address limit counts (docs/decisions/038-order-code-space.md): an IPv4 address as it
 * is, an IPv6 address by its /64 network — a household or a server is given a whole /64, so one
 * visitor could otherwise draw a fresh address for every request. IPv4 written as IPv6
 * (`::ffff:192.0.2.1`) counts as IPv4. Anything else (an unknown address) is counted as given.
 */
export function addressGroup(address: string): string {
  const ip = address.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(":")) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (hex, as written), or null when it is not one. */
function ipv6Groups(ip: string): string[] | null {
  const halves = ip.split("::");
  if (halves.length > 2) return null;
  const parts = (half: string | undefined) => (half ? half.split(":") : []);
  let head = parts(halves[0]);
  let tail = parts(halves[1]);
  // An IPv4 tail (::ffff:…, 64:ff9b::…) is two groups.
  const last = (halves.length === 2 ? tail : head).at(-1);
  if (last && last.includes(".")) {
    const octets = last.split(".").map(Number);
    if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255)) return null;
    const v4 = [((octets[0]! << 8) | octets[1]!).toString(16), ((octets[2]! << 8) | octets[3]!).toString(16)];
    if (halves.length === 2) tail = [...tail.slice(0, -1), ...v4];
    else head = [...head.slice(0, -1), ...v4];
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...tail];
  return groups.every((group) => /^[0-9a-f]{1,4}$/.test(group)) ? groups : null;
}
