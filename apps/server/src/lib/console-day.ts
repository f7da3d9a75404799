/** The console's clock (spec §9): UTC shifted by 8 hours, for "today" on Home and the dates of exports. */
export const CONSOLE_UTC_OFFSET_HOURS = 8;

const DAY_MS = 24 * 3_600_000;

/** The start of the console's day that holds `now` (ms), and the start of the next. */
export function consoleDay(now: number): { start: Date; end: Date } {
  const offset = CONSOLE_UTC_OFFSET_HOURS * 3_600_000;
  const start = Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
  return { start: new Date(start), end: new Date(start + DAY_MS) };
}
