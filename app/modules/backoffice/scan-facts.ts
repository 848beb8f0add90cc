import type { ScanSummary, ScanWarning } from "~/modules/orders/recorded-scan";
import type { ScanNote } from "~/modules/uploads/scan-notes";

/**
 * A file's scan as staff read it on the order's files page (ADR 061): the reader's facts and each
 * warning with the numbers behind it — the technical side of the plain note the doctor reads
 * (uploads/scan-notes.ts).
 */

/** The numbers behind each warning, as staff read them. */
function staffValues(scan: ScanSummary, warning: ScanWarning): Record<string, number> {
  switch (warning) {
    case "too_small":
    case "too_large":
      return scan.size ? { largest: Math.max(scan.size.x, scan.size.y, scan.size.z) } : {};
    case "degenerate":
      return { count: scan.degenerate };
    case "open_mesh":
      return { count: scan.boundaryEdges };
    case "bad_coordinates":
      return { count: scan.badTriangles };
    case "extra_bytes":
      return { bytes: scan.extraBytes, count: scan.triangles };
  }
}

/** What staff read about a stored file: the reader's facts, then each warning with its numbers. */
export function staffScanNotes(scan: ScanSummary): { facts: ScanNote[]; notes: ScanNote[] } {
  const facts: ScanNote[] = [
    // A PLY or OBJ says what the doctor sent and that the factory gets an STL (ADR 102).
    { key: `bo.orders.files.scan.${scan.source ? `${scan.format}_${scan.source}` : scan.format}`, values: {} },
    { key: "bo.orders.files.scan.triangles", values: { count: scan.triangles } },
  ];
  if (scan.size) facts.push({ key: "bo.orders.files.scan.size", values: { ...scan.size } });
  return { facts, notes: scan.warnings.map((warning) => ({ key: `bo.orders.files.scan.warnings.${warning}`, values: staffValues(scan, warning) })) };
}
