import type { LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary, NotFound } from "~/components/error-boundary";
import { requireStaff } from "~/modules/auth/guards.server";

/** Unknown back-office paths: still guarded, then 404. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  throw new Response("Not found", { status: 404 });
}

export default function BackofficeNotFound() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
