import type { MetaFunction } from "@remix-run/node";
import { GeneralErrorBoundary, NotFound } from "~/components/error-boundary";

export const meta: MetaFunction = () => [{ title: "Oops! Page not found" }];

/** Every unknown path: the 404 page with the right status. */
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export async function action() {
  throw new Response("Not found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
