import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleTusRequest } from "~/modules/uploads/tus.server";

/**
 * The tus endpoint of resumable uploads (ADR 017): POST /uploads/tus creates an upload,
 * HEAD /uploads/tus/{id} tells its offset, PATCH appends, DELETE drops it; OPTIONS lists the
 * protocol. Each request is checked in uploads/tus.server.ts (the order's browser, user or staff).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleTusRequest(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleTusRequest(request, context);
}
