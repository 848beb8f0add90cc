import { redirect, type AppLoadContext } from "@remix-run/node";
import { getClientAddress, getViewer } from "~/modules/http/request/request-context.server";
import type { SessionUser } from "./session.server";
import { SIGNED_IN_STAFF_ONLY, type Staff, staffOf } from "./staff";

export type { Staff } from "./staff";

/**
 * The only guards (DESIGN §4.24). Every loader and action calls one itself, not only layouts.
 * They throw a redirect (to sign-in or the gate) or a 403 response. They read the request's viewer
 * (request-context.server.ts), so a guard and the loader after it look the session up once.
 */

function returnTo(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const { user } = await getViewer(request, context);
  if (!user) throw redirect(`/auth?redirectTo=${encodeURIComponent(returnTo(request))}`);
  return user;
}

export async function getStaff(request: Request, context: AppLoadContext): Promise<Staff | null> {
  const { user, passes } = await getViewer(request, context);
  return staffOf(user, passes.backoffice, getClientAddress(context));
}

/**
 * Staff, or the gate. `signedIn`: an act recorded under a person's name (a bank transfer marked
 * paid, ADR 083) — the shared password, which names nobody, is refused with 403.
 */
export async function requireStaff(request: Request, context: AppLoadContext, options: { signedIn?: boolean } = {}): Promise<Staff> {
  const staff = await getStaff(request, context);
  if (!staff) throw redirect(`/backoffice/login?redirectTo=${encodeURIComponent(returnTo(request))}`);
  if (options.signedIn && staff.via !== "user") throw new Response(SIGNED_IN_STAFF_ONLY, { status: 403 });
  return staff;
}

export async function requireAdmin(request: Request, context: AppLoadContext): Promise<Staff> {
  const staff = await requireStaff(request, context);
  if (staff.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return staff;
}

/** Whether this browser has passed the packer gate (the packer page shows the gate when not). */
export async function isPacker(request: Request, context: AppLoadContext): Promise<boolean> {
  return (await getViewer(request, context)).passes.packer;
}

/**
 * The packer pages' guard: without the packer gate's pass it throws the gate page's address with
 * this page to come back to, or `refusal` where a page asks for another answer (a logo: 403).
 */
export async function requirePacker(request: Request, context: AppLoadContext, refusal?: () => Response | Promise<Response>): Promise<void> {
  if (await isPacker(request, context)) return;
  throw refusal ? await refusal() : redirect(`/packer?redirectTo=${encodeURIComponent(new URL(request.url).pathname)}`);
}
