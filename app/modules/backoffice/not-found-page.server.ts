import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";

export async function loadBackofficeNotFound({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  throw new Response("Not found", { status: 404 });
}
