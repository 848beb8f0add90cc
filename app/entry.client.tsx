import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { DocumentFactsProvider } from "~/components/document-facts";
import { installResend } from "~/modules/http/forms/idempotency-fetch";
import { heldTexts, loadTexts } from "~/modules/i18n/texts-cache";

// An error page rendered by the server shows its request's id; hydration must render the same.
const requestId = document.querySelector<HTMLElement>("[data-request-id]")?.dataset.requestId;

// The page's texts, asked for from the head (root.tsx): hydration waits for them, since it must
// render the texts the server rendered.
const textsKey = document.querySelector<HTMLElement>("script[data-texts-key]")?.dataset.textsKey;

// Every enhanced form and navigation survives a dropped connection the same way (ADR 046).
installResend();

function hydrate() {
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
}

if (textsKey && !heldTexts(textsKey)) void loadTexts(textsKey).finally(hydrate);
else hydrate();
