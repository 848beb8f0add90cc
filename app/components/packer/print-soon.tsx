import { useNonce } from "~/components/document-facts";

/**
 * Starts printing about 300 ms after the page opens (staff-partner-packer §9), when JavaScript runs;
 * without it the page prints the same with Ctrl+P. An inline script, so it needs no bundle and runs
 * once, on the first load of the document only.
 */
export const PRINT_DELAY_MS = 300;

/**
 * The one named window every label opens in (ADR 068): a second label replaces the first in it, so
 * windows never pile up on a shared PC. Links name it with `target` and no `rel="noopener"` (a window
 * opened without its opener is not found by name again).
 */
export const LABEL_WINDOW = "label-print";

/**
 * After printing (or cancelling the dialog) the label window closes itself where the browser lets a
 * page close the window a link opened for it; elsewhere it stays, and the next label reuses it.
 */
export function PrintSoon() {
  return (
    <script
      nonce={useNonce()}
      dangerouslySetInnerHTML={{ __html: `addEventListener("afterprint",function(){if(window.name===${JSON.stringify(LABEL_WINDOW)})window.close()});setTimeout(function(){window.print()},${PRINT_DELAY_MS})` }}
    />
  );
}

/** The printer's page for this document: each label is one page of exactly this size. */
export function PageSize({ size }: { size: string }) {
  return <style nonce={useNonce()} dangerouslySetInnerHTML={{ __html: `@page{size:${size};margin:0}` }} />;
}
