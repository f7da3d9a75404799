/**
 * The console's clock (spec §9: "UTC strings shifted by 8 hours"): station time, UTC+8 all year, with no
 * daylight saving. The server's "today", exports and imports and the web console's shown and picked times
 * all read and write it, whatever the time zone of the machine or the browser.
 */
export const CONSOLE_UTC_OFFSET_HOURS = 8;
export const CONSOLE_UTC_OFFSET_MS = CONSOLE_UTC_OFFSET_HOURS * 3_600_000;
