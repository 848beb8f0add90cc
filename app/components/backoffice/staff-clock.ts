import { useRootData } from "~/modules/layout/root-data";
import type { StaffTimeZone } from "~/modules/market/market";

/** The zone this market's staff read times in (the root's data): read once by a page, handed to its cards. */
export function useStaffTimeZone(): StaffTimeZone {
  return useRootData()?.marketTraits.timeZone ?? "Europe/Moscow";
}
