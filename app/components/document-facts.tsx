import { createContext, useContext } from "react";

/**
 * What the server knows about the document it renders and the browser does not need to be told
 * again: the Content-Security-Policy nonce for inline scripts and styles, and the request's id shown
 * on error pages. Provided by entry.server; in the browser both are absent (a nonce is never readable
 * from the page, and client-rendered errors have no server request of their own).
 */
export interface DocumentFacts {
  nonce?: string;
  requestId?: string;
  /** The request's language, for a document whose root data (and so its language) is missing. */
  language?: string;
}

const DocumentFactsContext = createContext<DocumentFacts>({});

export const DocumentFactsProvider = DocumentFactsContext.Provider;

export function useNonce(): string | undefined {
  return useContext(DocumentFactsContext).nonce;
}

export function useRequestId(): string | undefined {
  return useContext(DocumentFactsContext).requestId;
}

export function useDocumentLanguage(): string | undefined {
  return useContext(DocumentFactsContext).language;
}
