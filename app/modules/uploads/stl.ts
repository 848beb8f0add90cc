import type { StlFormat } from "~/modules/orders/recorded-scan";

/**
 * Streaming STL check (DESIGN §4.12). Feeds on chunks as they arrive and keeps only a few counters
 * and the 84-byte binary header, so a 100 MiB model is never held in memory.
 *
 *  - Binary: total size === 84 + 50 × (uint32 LE at bytes 80..83), with at least one triangle.
 *    This rule wins whenever it matches, even if the 80-byte header starts with "solid" (many CAD
 *    exporters write that).
 *  - ASCII: after an optional UTF-8 BOM and whitespace the text starts with `solid` (then whitespace
 *    or the end), has no control bytes other than tab/CR/LF/VT/FF, its last non-blank line starts
 *    with `endsolid`, and it has at least one `facet normal` (the triangle count).
 *
 * Keywords are matched case-insensitively (some exporters write upper case).
 */

export type { StlFormat } from "~/modules/orders/recorded-scan";

export type StlVerdict =
  | {
      ok: true;
      format: StlFormat;
      triangles: number;
      /** Bytes after the last triangle the header counts (binary files read by their header's count; see scan.ts). */
      extraBytes?: number;
    }
  | {
      ok: false;
      /**
       * `truncated`: a binary file cut short (fewer bytes than its header's triangle count needs; scan.ts decides).
       * `points_only`, `bad_index`: a PLY or OBJ with vertices and no faces, or a face naming a vertex it does not have (mesh.ts).
       */
      reason: "empty" | "not_stl" | "truncated" | "points_only" | "bad_index";
    };

export interface StlInspector {
  /** Feed the next chunk of the file. The chunk is not retained. */
  update(chunk: Uint8Array): void;
  /** The verdict for everything fed so far. Call once, after the last chunk. */
  finish(): StlVerdict;
  /** Bytes fed so far. */
  readonly bytes: number;
}

export const STL_BINARY_HEADER_BYTES = 84;
export const STL_BINARY_TRIANGLE_BYTES = 50;

const SOLID = Array.from("solid", (char) => char.charCodeAt(0));
const BOM = [0xef, 0xbb, 0xbf];

const TAB = 0x09;
const CR = 0x0d;
const SPACE = 0x20;

/** Bytes that never occur in an ASCII STL (tab, LF, VT, FF, CR and everything from space up are fine). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;
const FACET_NORMAL = /facet[ \t]+normal/gi;
/** An unfinished "facet normal" at the very end of the text (only the last "f" can start one). */
const FACET_NORMAL_PREFIX = /^f(?:a(?:c(?:e(?:t(?:[ \t]+(?:n(?:o(?:r(?:m(?:a)?)?)?)?)?)?)?)?)?)?$/i;
/** How much of the end of the text is kept to find the last line. */
const TAIL_CHARS = 4096;

function isWhitespace(byte: number): boolean {
  return byte === SPACE || (byte >= TAB && byte <= CR);
}

/** Binary size rule on the total size and the header's triangle count. */
export function binaryStlTriangles(totalBytes: number, header: Uint8Array): number | null {
  if (totalBytes < STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES || header.length < STL_BINARY_HEADER_BYTES) return null;
  const count = new DataView(header.buffer, header.byteOffset, header.byteLength).getUint32(80, true);
  if (count < 1) return null;
  return totalBytes === STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES * count ? count : null;
}

/**
 * Keeps the end of the text without its trailing whitespace (a run of it is remembered as one
 * newline or space), so even megabytes of trailing blank lines cost nothing.
 */
function appendTail(tail: string, text: string): string {
  const joined = tail + text;
  const trimmed = joined.trimEnd();
  if (trimmed.length === joined.length) return joined.slice(-TAIL_CHARS);
  const dropped = joined.slice(trimmed.length);
  return (trimmed + (/[\r\n]/.test(dropped) ? "\n" : " ")).slice(-TAIL_CHARS);
}

function lastLineIsEndsolid(tail: string): boolean {
  const trimmed = tail.trimEnd();
  const lastLine = trimmed.slice(Math.max(trimmed.lastIndexOf("\n"), trimmed.lastIndexOf("\r")) + 1);
  return /^\s*endsolid(?:\s|$)/i.test(lastLine);
}

export function createStlInspector(): StlInspector {
  let total = 0;
  let finished = false;
  const header = new Uint8Array(STL_BINARY_HEADER_BYTES);
  let headerFilled = 0;

  // ASCII: `ascii` turns false for good as soon as the file cannot be an ASCII STL.
  let ascii = true;
  // The start, byte by byte: "bom" (a UTF-8 BOM may begin at offset 0), "space" (leading
  // whitespace), "solid" (matched `solidIndex` letters), "after" (whitespace must follow), "body".
  let start: "bom" | "space" | "solid" | "after" | "body" = "bom";
  let bomIndex = 0;
  let solidIndex = 0;
  // Latin-1 view of the text: single-byte, so chunk boundaries never split a character.
  const decoder = new TextDecoder("latin1");
  let carry = ""; // an unfinished "facet normal" from the end of the previous chunk
  let facets = 0;
  let tail = "";

  /** Returns false once the start rules out ASCII STL. */
  function scanStart(raw: number, offset: number): boolean {
    const byte = raw >= 0x41 && raw <= 0x5a ? raw | 0x20 : raw;
    for (;;) {
      switch (start) {
        case "bom":
          if (offset === bomIndex && byte === BOM[bomIndex]) {
            bomIndex++;
            if (bomIndex === BOM.length) start = "space";
            return true;
          }
          if (bomIndex > 0) return false; // a broken BOM
          start = "space";
          continue;
        case "space":
          if (isWhitespace(byte)) return true;
          start = "solid";
          continue;
        case "solid":
          if (byte !== SOLID[solidIndex]) return false;
          solidIndex++;
          if (solidIndex === SOLID.length) start = "after";
          return true;
        case "after":
          if (!isWhitespace(byte)) return false;
          start = "body";
          return true;
        case "body":
          return true;
      }
    }
  }

  function scanAscii(chunk: Uint8Array, offset: number): void {
    for (let index = 0; start !== "body" && index < chunk.length; index++) {
      if (!scanStart(chunk[index], offset + index)) {
        ascii = false;
        return;
      }
    }
    const text = decoder.decode(chunk);
    if (CONTROL.test(text)) {
      ascii = false;
      return;
    }
    const scanned = carry + text;
    facets += scanned.match(FACET_NORMAL)?.length ?? 0;
    const lastF = Math.max(scanned.lastIndexOf("f"), scanned.lastIndexOf("F"));
    const rest = lastF < 0 ? "" : scanned.slice(lastF);
    // The width of the gap does not matter, so a partial match is kept with a one-space gap.
    carry = FACET_NORMAL_PREFIX.test(rest) ? rest.replace(/[ \t]+/, " ") : "";
    tail = appendTail(tail, text);
  }

  return {
    get bytes() {
      return total;
    },

    update(chunk: Uint8Array) {
      if (finished) throw new Error("STL inspector already finished");
      if (chunk.length === 0) return;
      if (headerFilled < STL_BINARY_HEADER_BYTES) {
        const take = Math.min(STL_BINARY_HEADER_BYTES - headerFilled, chunk.length);
        header.set(chunk.subarray(0, take), headerFilled);
        headerFilled += take;
      }
      if (ascii) scanAscii(chunk, total);
      total += chunk.length;
    },

    finish(): StlVerdict {
      finished = true;
      if (total === 0) return { ok: false, reason: "empty" };
      const binary = binaryStlTriangles(total, header);
      if (binary !== null) return { ok: true, format: "binary", triangles: binary };
      if (ascii && start === "body" && facets > 0 && lastLineIsEndsolid(tail)) {
        return { ok: true, format: "ascii", triangles: facets };
      }
      return { ok: false, reason: "not_stl" };
    },
  };
}

/**
 * Far more triangles than an upload can hold (2.5 GB): a header "count" this large is text or other
 * bytes, not a binary header. Four bytes of text (tab, newline and up) always read as more than this.
 */
export const STL_MAX_PLAUSIBLE_TRIANGLES = 50_000_000;

/**
 * What the first 84 bytes and the size of a file say before it is sent (the browser's check; the
 * server decides on the whole content): "ok" for a binary file that holds at least the triangles its
 * header counts or a text that starts with "solid" (after an optional BOM and blanks), "truncated"
 * for a binary file with fewer bytes than its header's count needs, else "not_stl".
 */
export function precheckStl(head: Uint8Array, size: number): "ok" | "truncated" | "not_stl" {
  if (/^(\u00ef\u00bb\u00bf)?\s*solid(\s|$)/i.test(String.fromCharCode(...head.subarray(0, STL_BINARY_HEADER_BYTES)))) return "ok";
  if (head.length < STL_BINARY_HEADER_BYTES) return "not_stl";
  const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
  if (count < 1 || count > STL_MAX_PLAUSIBLE_TRIANGLES) return "not_stl";
  if (size >= STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES * count) return "ok";
  return size >= STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES ? "truncated" : "not_stl";
}

/** Checks a whole file that is already in memory (small files, tests). */
export function inspectStl(bytes: Uint8Array): StlVerdict {
  const inspector = createStlInspector();
  inspector.update(bytes);
  return inspector.finish();
}
