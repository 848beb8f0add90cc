import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LegalDocumentPage } from "~/components/landing/legal-document";
import { loadLegalPage } from "~/modules/translations/legal-page.server";

/** A document: nothing on it needs JavaScript (root.tsx: `handle.hydrate`); the same for every anonymous visitor, so cached with an ETag (entry.server: `handle.publicPage`). */
export const handle = { hydrate: false, publicPage: true };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.document.title} — Aligner Lab` : "Aligner Lab" },
  { name: "description", content: data?.document.metaDescription ?? "" },
];

export async function loader(args: LoaderFunctionArgs) {
  return loadLegalPage(args, "privacy");
}

export default function LegalPage() {
  const { document } = useLoaderData<typeof loader>();
  return <LegalDocumentPage document={document} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
