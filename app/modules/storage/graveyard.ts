/**
 * Deleted objects are not gone at once: `delete` moves them into the storage's graveyard, out of every
 * listing, where they stay DELETED_OBJECTS_KEPT_HOURS before the scheduled job purges them (ADR 077).
 * A backup reads the database first and the files its rows name after; a file the service deletes in
 * between is still found in the graveyard, so no archive points at nothing.
 *
 * Layout: `~deleted/<stamp>/<key>` (S3, inside the bucket) or `.deleted/<bucket>/<stamp>/<key>` (folder,
 * beside the buckets), where the stamp is the UTC hour of the deletion, `20261128T08`.
 */
export const DELETED_OBJECTS_KEPT_HOURS = 48;

/** The S3 prefix of the graveyard; keys may not start with it (keys.ts). */
export const GRAVEYARD_PREFIX = "~deleted/";
/** The first key after every graveyard key: a listing that reaches the graveyard goes on from here. */
export const AFTER_GRAVEYARD = "~deleted0";

export function graveyardStamp(at: Date): string {
  const iso = at.toISOString(); // 2026-11-28T08:15:00.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}`;
}

export function isGraveyardStamp(name: string): boolean {
  return /^\d{8}T\d{2}$/.test(name);
}
