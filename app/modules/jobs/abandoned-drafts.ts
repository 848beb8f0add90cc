import { RETENTION_PERIODS } from "~/modules/config/retention";

/**
 * A draft untouched this many days is abandoned: the scheduled job purges it, its files are garbage
 * (DESIGN §4.18). The default of RETENTION_DRAFT_DAYS; the job itself reads the configured period.
 */
export const ABANDONED_DRAFT_DAYS = RETENTION_PERIODS.abandonedDraft.fallback;
