import type { StaffTimeZone } from "~/modules/market/market";
import { dateTimeFormat } from "./intl";
import type { Translate } from "./translate";

/**
 * The back office's times: in the market's zone, not the server's (UTC) or the browser's, so the
 * page reads the same rendered by the server and after hydration, with JavaScript or without — and
 * said as such ("02.12.2026, 15:40 МСК").
 */

const ZONE_KEYS: Record<StaffTimeZone, string> = { "Europe/Moscow": "bo.time.moscow", "Europe/Berlin": "bo.time.berlin" };

const localeOf = (language: string) => (language === "ru" ? "ru-RU" : language);

/** A moment as date and time in the zone, with the zone's name. */
export function zonedTimes(t: Translate, language: string, timeZone: StaffTimeZone) {
  const format = dateTimeFormat(localeOf(language), { dateStyle: "short", timeStyle: "short", timeZone });
  const zone = t(ZONE_KEYS[timeZone]);
  return (iso: string) => `${format.format(new Date(iso))} ${zone}`;
}

/** A moment's date in the zone (a day has no zone to say, but it starts at the zone's midnight). */
export function zonedDates(language: string, timeZone: StaffTimeZone) {
  const format = dateTimeFormat(localeOf(language), { dateStyle: "short", timeZone });
  return (iso: string) => format.format(new Date(iso));
}
