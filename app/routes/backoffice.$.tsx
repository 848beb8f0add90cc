import type { LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary, NotFound } from "~/components/error-boundary";
import { loadBackofficeNotFound } from "~/modules/backoffice/not-found-page.server";

/** Unknown back-office paths: still guarded, then 404. */
export async function loader(args: LoaderFunctionArgs) {
  return loadBackofficeNotFound(args);
}

export default function BackofficeNotFound() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
