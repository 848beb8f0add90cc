import { redirect } from "@remix-run/node";
import type { Role } from "~db/schema";
import { hasGatePass } from "./gate.server";
import { getSessionUser, type SessionUser } from "./session.server";
import { clientIp } from "~/modules/http/request.server";

/**
 * The only guards (DESIGN §4.24). Every loader and action calls one itself, not only layouts.
 * They throw a redirect (to sign-in or the gate) or a 403 response.
 */

export interface Staff {
  role: Extract<Role, "admin" | "manager">;
  via: "user" | "password";
  user: SessionUser | null;
  /** Recorded in order history. */
  actorLabel: string;
}

function returnTo(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(`/auth?redirectTo=${encodeURIComponent(returnTo(request))}`);
  return user;
}

export async function getStaff(request: Request, context?: unknown): Promise<Staff | null> {
  const user = await getSessionUser(request);
  if (user?.roles.includes("admin")) return { role: "admin", via: "user", user, actorLabel: user.email };
  if (user?.roles.includes("manager")) return { role: "manager", via: "user", user, actorLabel: user.email };
  if (await hasGatePass("backoffice", request)) {
    return { role: "manager", via: "password", user, actorLabel: `back-office password (${clientIp(request, context)})` };
  }
  return null;
}

export async function requireStaff(request: Request, context?: unknown): Promise<Staff> {
  const staff = await getStaff(request, context);
  if (!staff) throw redirect(`/backoffice/login?redirectTo=${encodeURIComponent(returnTo(request))}`);
  return staff;
}

export async function requireAdmin(request: Request, context?: unknown): Promise<Staff> {
  const staff = await requireStaff(request, context);
  if (staff.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return staff;
}

/**
 * Only local paths: never send a visitor to another site after sign-in. Control characters are
 * refused too: browsers drop tabs and newlines from a Location, so "/\t/evil.example" would
 * become "//evil.example", and a newline or NUL cannot be sent in a header at all.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(to)) return fallback;
  return to;
}
