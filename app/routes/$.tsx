import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { GeneralErrorBoundary, NotFound } from "~/components/error-boundary";
import { notFound } from "~/modules/http/answers/not-found.server";
import { notFoundTitle } from "~/modules/http/answers/not-found";

export const meta: MetaFunction = ({ error }) => [{ title: notFoundTitle(error) ?? "Aligner Lab" }];

/** Every unknown path: the 404 page with the right status, its title in the reader's language. */
export async function loader(args: LoaderFunctionArgs) {
  throw await notFound(args);
}

export async function action(args: ActionFunctionArgs) {
  throw await notFound(args);
}

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
