import { useNonce } from "~/modules/http/document-facts";

/**
 * Starts printing about 300 ms after the page opens (staff-partner-packer §9), when JavaScript runs;
 * without it the page prints the same with Ctrl+P. An inline script, so it needs no bundle and runs
 * once, on the first load of the document only.
 */
export const PRINT_DELAY_MS = 300;

export function PrintSoon() {
  return <script nonce={useNonce()} dangerouslySetInnerHTML={{ __html: `setTimeout(function(){window.print()},${PRINT_DELAY_MS})` }} />;
}

/** The printer's page for this document: each label is one page of exactly this size. */
export function PageSize({ size }: { size: string }) {
  return <style nonce={useNonce()} dangerouslySetInnerHTML={{ __html: `@page{size:${size};margin:0}` }} />;
}
