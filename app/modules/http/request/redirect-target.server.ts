import type { AppLoadContext } from "@remix-run/node";
import { badRequest } from "../answers/request.server";
import { localTarget } from "./redirect-target";

/**
 * A return address the request sent, as every redirect to one takes it (ADR 083): a local path, the
 * fallback when it is absent or leads elsewhere, and a 400 in the reader's language when it is
 * malformed — thrown before anything is done with the request, so a page shows the product's 400 page.
 */
export async function redirectTarget(request: Request, context: AppLoadContext, to: unknown, fallback: string): Promise<string> {
  const target = localTarget(to, fallback);
  if (target === null) throw await badRequest(request, context);
  return target;
}
