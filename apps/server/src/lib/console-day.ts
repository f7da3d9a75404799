import { CONSOLE_UTC_OFFSET_MS } from '@uiot/contracts';

/** The console's clock (spec §9, UTC+8), for "today" on Home and the dates of exports. */
export { CONSOLE_UTC_OFFSET_HOURS } from '@uiot/contracts';

const DAY_MS = 24 * 3_600_000;

/** The start of the console's day that holds `now` (ms), and the start of the next. */
export function consoleDay(now: number): { start: Date; end: Date } {
  const start = Math.floor((now + CONSOLE_UTC_OFFSET_MS) / DAY_MS) * DAY_MS - CONSOLE_UTC_OFFSET_MS;
  return { start: new Date(start), end: new Date(start + DAY_MS) };
}
