import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { logger } from "~/modules/log/logger.server";
import type { Failure } from "../forms/failure";

/**
 * One section of a page whose data failed to load (ADR 026): the page still renders its header,
 * navigation and other sections, and this part shows the specification's message in place.
 */
export type SectionFailure = Failure;

export type Section<T> = { ok: true; data: T } | { ok: false; failure: SectionFailure };

/**
 * Runs one query (or a few that belong together) of a loader. A refused or failing statement
 * becomes the section's failure, logged once; a database that cannot be reached at all is thrown on,
 * so the whole page still answers 503 "try again shortly" (ADR 020): nothing of it could render.
 */
export async function loadSection<T>(label: string, failure: SectionFailure, run: () => Promise<T>): Promise<Section<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error(`${label} failed:`, error);
    return { ok: false, failure };
  }
}

/** The data of a section, or a fallback when it failed. */
export function sectionData<T, F>(section: Section<T>, fallback: F): T | F {
  return section.ok ? section.data : fallback;
}

/** The failure of a section for the page's data (null when it loaded). */
export function sectionFailure(section: Section<unknown>): SectionFailure | null {
  return section.ok ? null : section.failure;
}

/**
 * The cause of a failed save, said to the person as a translation key (the specs append the cause
 * to their message): a statement the database refused, or anything else. The technical message
 * stays in the log; it could show table names or data.
 */
export function failureCause(error: unknown): string {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? "failures.causes.database" : "failures.causes.unknown";
}
