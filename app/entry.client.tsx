import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { DocumentFactsProvider } from "~/modules/http/document-facts";

// An error page rendered by the server shows its request's id; hydration must render the same.
const requestId = document.querySelector<HTMLElement>("[data-request-id]")?.dataset.requestId;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <DocumentFactsProvider value={{ requestId }}>
        <RemixBrowser />
      </DocumentFactsProvider>
    </StrictMode>,
  );
});
