import type { Role } from "~db/schema";
import type { SessionUser } from "./session.server";

/** Who works in the back office on this request (DESIGN §4.24): a staff user, or the shared password's holder. */
export interface Staff {
  role: Extract<Role, "admin" | "manager">;
  via: "user" | "password";
  user: SessionUser | null;
  /** Recorded in order history. */
  actorLabel: string;
}

/** The text of a 403 for the shared password where a staff member must be signed in; the error page says why (ADR 083). */
export const SIGNED_IN_STAFF_ONLY = "Signed-in staff only";

/** The staff role of a request from its user's roles, else from the back-office gate pass. */
export function staffOf(user: SessionUser | null, backofficePass: boolean, clientIp: string): Staff | null {
  if (user?.roles.includes("admin")) return { role: "admin", via: "user", user, actorLabel: user.email };
  if (user?.roles.includes("manager")) return { role: "manager", via: "user", user, actorLabel: user.email };
  if (backofficePass) return { role: "manager", via: "password", user, actorLabel: `back-office password (${clientIp})` };
  return null;
}
