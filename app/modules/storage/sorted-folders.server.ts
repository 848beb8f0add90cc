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
/** Folders with fewer entries are read afresh each time (a patient's or a type's folder): no stat, nothing kept. */
const KEPT_FROM_ENTRIES = 100;
const sortedFolders = new Map<string, { mtimeMs: number; children: SortedChild[] } | null>();
/** How many times a kept folder was read afresh (for the tests: a listing kept across the storage's own removals). */
let keptFolderReads = 0;
export const keptFolderReadCount = () => keptFolderReads;

async function readSorted(dir: string, dirKey: string): Promise<SortedChild[] | null> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return entries
    .filter((entry) => entry.isDirectory() || entry.isFile())
    .map((entry) => {
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      return { name: entry.name, isDirectory: entry.isDirectory(), key, order: Buffer.from(entry.isDirectory() ? `${key}/` : key) };
    })
    .sort((a, b) => Buffer.compare(a.order, b.order));
}

export async function sortedChildren(dir: string, dirKey: string): Promise<SortedChild[] | null> {
  // A folder not known to be large is read as it is; one found large is remembered, and from then on
  // its time is taken before it is read, so a change after that time is never missed.
  if (!sortedFolders.has(dir)) {
    const children = await readSorted(dir, dirKey);
    if (children && children.length >= KEPT_FROM_ENTRIES) remember(dir, null);
    return children;
  }
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
  keptFolderReads++;
  const children = await readSorted(dir, dirKey);
  remember(dir, children && readAt - mtimeMs >= SETTLED_MS ? { mtimeMs, children } : null);
  return children;
}

function remember(dir: string, listing: { mtimeMs: number; children: SortedChild[] } | null) {
  sortedFolders.delete(dir);
  if (sortedFolders.size >= KEPT_FOLDERS) sortedFolders.delete(sortedFolders.keys().next().value!);
  sortedFolders.set(dir, listing);
}

/** The modification time of a kept folder's listing, if it has one: what `removedOwnChild` compares with. */
export function keptListingTime(dir: string): number | null {
  return sortedFolders.get(dir)?.mtimeMs ?? null;
}

/**
 * The storage itself removed `name` from `dir` (an emptied folder pruned after a delete): a kept
 * listing that was current just before (`before`, taken before the removal) stays kept, without that
 * child and with the folder's new time, so that the housekeeping's removals do not make the next walk
 * read the bucket's 50,000 order folders again (ADR 092, amended). A change another process made in
 * the same moment could be hidden until the folder changes again; the walk then meets that folder on
 * a later pass, and a removed one is read as missing.
 */
export async function removedOwnChild(dir: string, name: string, before: number | null): Promise<void> {
  const kept = sortedFolders.get(dir);
  if (!kept || before === null || kept.mtimeMs !== before) return;
  let mtimeMs: number;
  try {
    mtimeMs = (await fsp.stat(dir)).mtimeMs;
  } catch {
    sortedFolders.delete(dir);
    return;
  }
  remember(dir, { mtimeMs, children: kept.children.filter((child) => child.name !== name) });
}
