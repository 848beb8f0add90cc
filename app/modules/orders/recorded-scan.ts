/**
 * What the scan checks (uploads/scan.ts) found in a file, as it is recorded with the file on its
 * patient's list (orders/files.server.ts) and shown beside it.
 */

export type StlFormat = "ascii" | "binary";

export type ScanWarning = "too_small" | "too_large" | "degenerate" | "open_mesh" | "bad_coordinates" | "extra_bytes";

export interface ScanSummary {
  format: StlFormat;
  /** The format the doctor sent when it was not STL (ADR 102): the checks read its triangles, the factory gets a binary STL of them. */
  source?: "ply" | "obj";
  triangles: number;
  /** Size of the bounding box, millimetres, rounded to 0.1; null when no corner had finite coordinates. */
  size: { x: number; y: number; z: number } | null;
  /** Triangles of zero area. */
  degenerate: number;
  /** Edges not shared by exactly two triangles (a lower bound, see uploads/scan.ts). */
  boundaryEdges: number;
  /** Triangles skipped because a coordinate was not a finite number. */
  badTriangles: number;
  /** Bytes after the last triangle a binary header counts (read as that many triangles; the file is kept as sent). */
  extraBytes: number;
  warnings: ScanWarning[];
}
