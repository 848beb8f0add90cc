import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";

export async function loadBackofficeLayout({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  return { role: staff.role, via: staff.via, email: staff.user?.email ?? null };
}
