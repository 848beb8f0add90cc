/** A draft untouched this many days is abandoned: the scheduled job purges it, its files are garbage (DESIGN §4.18). */
export const ABANDONED_DRAFT_DAYS = 30;
