import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { getLocale } from "~/modules/http/request/request-context.server";
import { legalDocument, type LegalDocumentId } from "./legal.server";

/**
 * A legal page's loader (`/privacy`, `/terms`, `/data-consent`, `/public-offer`): public, so no
 * guard; the market's document in the reader's language. A document the market does not publish
 * (the public offer on the international market) leads to that market's terms.
 */
export async function loadLegalPage({ request, context }: LoaderFunctionArgs, id: LegalDocumentId) {
  const document = await legalDocument(await getLocale(request, context), id);
  if (!document) throw redirect("/terms");
  return { document };
}
