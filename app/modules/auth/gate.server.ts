import { noteRole } from "~/modules/log/logger.server";
import type { Cookie } from "@remix-run/node";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { cookies } from "~/modules/http/request/cookies.server";
import { clearRateLimit, hitRateLimit, limitedFor } from "~/modules/security/rate-limit.server";
import { limitKey } from "~/modules/http/request/client-address";
import { hmac, safeEqual } from "./tokens.server";

/**
 * A shared-password gate (DESIGN §4.24–4.25): the password is checked on the server in constant
 * time; success sets a signed cookie holding an expiry and a hash of the current password, so
 * changing the password ends every gate session. Failures are limited per IP, never globally.
 */
export type GateName = "backoffice" | "packer";

export const GATE_DAYS = 14;
export const GATE_FAILURE_LIMIT = 10;
export const GATE_FAILURE_WINDOW_SECONDS = 15 * 60;

interface GateValue {
  exp: number;
  ph: string;
}

function gateCookie(name: GateName): Cookie {
  return name === "backoffice" ? cookies.backofficeGate() : cookies.packerGate();
}

function currentPassword(name: GateName): string {
  const { secrets } = getConfig();
  return name === "backoffice" ? secrets.BACKOFFICE_PASSWORD : secrets.PACKER_PASSWORD;
}

/** The password's fingerprint kept in the cookie: keyed, so the cookie never reveals the password. */
function passwordFingerprint(name: GateName, password: string): string {
  return hmac(getConfig().secrets.SESSION_SECRET, `gate:${name}:${password}`);
}

export async function hasGatePass(name: GateName, request: Request): Promise<boolean> {
  const value = (await gateCookie(name).parse(request.headers.get("Cookie"))) as Partial<GateValue> | null;
  if (!value || typeof value.exp !== "number" || typeof value.ph !== "string") return false;
  if (value.exp < Date.now()) return false;
  const valid = safeEqual(value.ph, passwordFingerprint(name, currentPassword(name)));
  if (valid) noteRole(name === "backoffice" ? "staff" : "packer");
  return valid;
}

export type GateAttempt = { ok: true; setCookie: string } | { ok: false; reason: "wrong" | "limited"; retryAfterSeconds?: number };

export async function tryGatePassword(db: DB, name: GateName, password: string, clientIp: string): Promise<GateAttempt> {
  const key = limitKey(`gate:${name}`, { clientAddress: clientIp });
  const waiting = await limitedFor(db, key, GATE_FAILURE_LIMIT);
  if (waiting !== null) return { ok: false, reason: "limited", retryAfterSeconds: waiting };
  const expected = currentPassword(name);
  if (!password || !safeEqual(password, expected)) {
    const hit = await hitRateLimit(db, key, GATE_FAILURE_LIMIT, GATE_FAILURE_WINDOW_SECONDS);
    return hit.allowed ? { ok: false, reason: "wrong" } : { ok: false, reason: "limited", retryAfterSeconds: hit.retryAfterSeconds };
  }
  await clearRateLimit(db, key);
  const value: GateValue = { exp: Date.now() + GATE_DAYS * 86_400_000, ph: passwordFingerprint(name, expected) };
  return { ok: true, setCookie: await gateCookie(name).serialize(value) };
}

export async function leaveGate(name: GateName): Promise<string> {
  return gateCookie(name).serialize("", { maxAge: 0 });
}
