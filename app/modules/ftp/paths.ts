import { destinationPath, normaliseRoot, UnsafePathError } from "~/modules/orders/production-paths";
import { transliterate } from "~/modules/uploads/file-names";

export { destinationPath, normaliseRoot, UnsafePathError } from "~/modules/orders/production-paths";

/** Throws unless `remotePath` is absolute and free of "..", "." and empty parts (a trailing "/" is allowed). */
export function assertRemotePath(remotePath: string): void {
  if (!remotePath.startsWith("/")) throw new UnsafePathError(`Remote path ${JSON.stringify(remotePath)} is not absolute`);
  if (remotePath === "/") return;
  const inner = remotePath.endsWith("/") ? remotePath.slice(1, -1) : remotePath.slice(1);
  destinationPath("/", inner);
}

/**
 * Where an upload is written before it is renamed to `remotePath`: the same folder (so the rename
 * stays on one filesystem and is atomic), a dot name (hidden from the factory's usual listings)
 * and a random part (two uploads of the same file never share a temporary file).
 */
export function temporaryUploadPath(remotePath: string, random: string): string {
  const parent = parentOf(remotePath);
  return `${parent === "/" ? "" : parent}/.${baseNameOf(remotePath)}.${random}.part`;
}

/** The folder part of an absolute remote path ("/a/b/c.stl" → "/a/b"). */
export function parentOf(remotePath: string): string {
  const index = remotePath.lastIndexOf("/");
  return index <= 0 ? "/" : remotePath.slice(0, index);
}

/** The last part of a remote path ("/a/b/c.stl" → "c.stl"). */
export function baseNameOf(remotePath: string): string {
  return remotePath.slice(remotePath.lastIndexOf("/") + 1);
}

/**
 * The folder of a queue entry on the file server (staff-partner-packer §9): below `root`, without
 * a trailing slash. An entry written under another root (or by an older reading that stored only
 * "code/folder/type") is placed below the configured root rather than anywhere else on the server.
 */
export function normaliseDestination(root: string, destination: string): string {
  const base = normaliseRoot(root);
  const folder = normaliseRoot(destination); // same forgiving rules: leading, doubled and trailing slashes
  if (base === "/" || folder === base || folder.startsWith(`${base}/`)) return folder;
  return folder === "/" ? base : `${base}${folder}`;
}

/**
 * A file name that is safe on any server and keeps its extension: letters, digits, ".", "_" and
 * "-" (Cyrillic transliterated, anything else becomes "_"), no leading dot (hidden files are our temporary uploads), at
 * most 120 characters. For names that come from a browser (the /send-test page).
 */
export function safeRemoteFileName(name: string): string {
  const lastSegment = name.split(/[/\\]/).pop() ?? "";
  const cleaned = transliterate(lastSegment)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/_{2,}/g, "_")
    .replace(/^[._-]+/, "");
  if (cleaned.length <= 120) return cleaned || "file";
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 && cleaned.length - dot <= 12 ? cleaned.slice(dot) : "";
  return cleaned.slice(0, 120 - extension.length) + extension;
}
