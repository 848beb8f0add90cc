/**
 * What a client logo may be (staff-partner-packer §5): png, jpg, jpeg, webp or svg, at most 2 MiB,
 * checked by content — magic bytes for pictures, the text of the root element for SVG — so a
 * renamed file of another kind is refused whatever its name says.
 */

export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const LOGO_EXTENSIONS = ["png", "jpg", "jpeg", "webp", "svg"] as const;
/** Enough of the file to decide: an SVG may start with an XML declaration, comments and a doctype. */
export const LOGO_SNIFF_BYTES = 4096;

export type LogoContentType = "image/png" | "image/jpeg" | "image/webp" | "image/svg+xml";

const BY_EXTENSION: Record<(typeof LOGO_EXTENSIONS)[number], LogoContentType> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  svg: "image/svg+xml",
};

export const LOGO_CONTENT_TYPES: readonly LogoContentType[] = ["image/png", "image/jpeg", "image/webp", "image/svg+xml"];

/** The type a file name promises, or null when the extension is not allowed. */
export function logoTypeFromName(fileName: string): LogoContentType | null {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return extension && extension in BY_EXTENSION ? BY_EXTENSION[extension as keyof typeof BY_EXTENSION] : null;
}

const startsWith = (head: Uint8Array, bytes: number[], offset = 0) => bytes.every((byte, index) => head[offset + index] === byte);

const SVG_ROOT =
  /^\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<svg[\s>/]/i;

function looksLikeSvg(head: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(head);
  } catch {
    // The cut at LOGO_SNIFF_BYTES may split a character: decode without the last 3 bytes.
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
    } catch {
      return false;
    }
  }
  return SVG_ROOT.test(text.replace(/^\uFEFF/, ""));
}

/** The content type the first bytes of a file show, or null when it is none of the logo types. */
export function sniffLogoType(head: Uint8Array): LogoContentType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBP
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  if (looksLikeSvg(head)) return "image/svg+xml";
  return null;
}

export type LogoRefusal = "format" | "content" | "size" | "empty";

/** Checks a file's name against its first bytes: the extension must be allowed and match the content. */
export function checkLogo(fileName: string, head: Uint8Array): { ok: true; contentType: LogoContentType } | { ok: false; reason: LogoRefusal } {
  const promised = logoTypeFromName(fileName);
  if (!promised) return { ok: false, reason: "format" };
  if (head.length === 0) return { ok: false, reason: "empty" };
  const actual = sniffLogoType(head);
  if (actual !== promised) return { ok: false, reason: "content" };
  return { ok: true, contentType: actual };
}
