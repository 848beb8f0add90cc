import type { ScanSummary } from "~/modules/orders/recorded-scan";

/**
 * The scan's findings in two voices (ADR 061). A doctor reads what a finding means for the order
 * and whether to do anything, in plain words (here); staff read the reader's facts (format,
 * triangles, bytes past the header's count) on the order's files page (backoffice/scan-facts.ts).
 * The same warning, two keys: the doctor's in `uploads.scan.notes`, the staff's in
 * `bo.orders.files.scan`. Two modules, so neither page's bundle carries the other's mapping.
 */

export interface ScanNote {
  key: string;
  /** Numbers the text names, unformatted (the component formats them in the reader's locale). */
  values: Record<string, number>;
}

/**
 * What a doctor reads about a stored file beside its size in millimetres: one plain note per
 * finding, saying what it means and whether to act, without the reader's counts.
 */
export function doctorScanNotes(scan: ScanSummary): ScanNote[] {
  return scan.warnings.map((warning) => ({ key: `uploads.scan.notes.${warning}`, values: {} }));
}
