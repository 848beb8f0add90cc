import type fs from "node:fs";
import fsp from "node:fs/promises";

/*
 * The folder storage's listing in S3's byte order, read from its cursor (ADR 092): a folder's entries
 * sorted once and kept while the folder is unchanged, and a page's walk starting at the cursor's place
 * among them, so a page of the walk never reads and sorts the bucket's 50,000 order folders again.
 */

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** A folder's entries in S3's byte order of their keys (a folder sorts as its name and "/"). */
export interface SortedChild {
  name: string;
  isDirectory: boolean;
  key: string;
  order: Buffer;
}

/** The index of the first child a page after `after` may need: the folder the cursor lies in, or the first child after it. */
export function firstAtOrAfter(children: SortedChild[], after: Buffer): number {
  let low = 0;
  let high = children.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (Buffer.compare(children[middle]!.order, after) <= 0) low = middle + 1;
    else high = middle;
  }
  const before = children[low - 1];
  return before?.isDirectory && after.subarray(0, before.order.length).equals(before.order) ? low - 1 : low;
}

/**
 * A folder's sorted entries are kept while the folder's modification time says nothing was added to
 * or removed from it; a listing is trusted only when taken a second or more after that time, as a file
 * system's clock may tick coarsely (a change within the same tick would leave the time as it was).
 * So the walk's pages read the bucket's 50,000 order folders once, not once per page.
 */
const SETTLED_MS = 1_000;
const KEPT_FOLDERS = 64;
const sortedFolders = new Map<string, { mtimeMs: number; children: SortedChild[] }>();

export async function sortedChildren(dir: string, dirKey: string): Promise<SortedChild[] | null> {
  let mtimeMs: number;
  try {
    mtimeMs = (await fsp.stat(dir)).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const kept = sortedFolders.get(dir);
  if (kept && kept.mtimeMs === mtimeMs) return kept.children;
  const readAt = Date.now();
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const children = entries
    .filter((entry) => entry.isDirectory() || entry.isFile())
    .map((entry) => {
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      return { name: entry.name, isDirectory: entry.isDirectory(), key, order: Buffer.from(entry.isDirectory() ? `${key}/` : key) };
    })
    .sort((a, b) => Buffer.compare(a.order, b.order));
  sortedFolders.delete(dir);
  if (readAt - mtimeMs >= SETTLED_MS && children.length > 0) {
    if (sortedFolders.size >= KEPT_FOLDERS) sortedFolders.delete(sortedFolders.keys().next().value!);
    sortedFolders.set(dir, { mtimeMs, children });
  }
  return children;
}
