import { CONSOLE_UTC_OFFSET_MS } from '@uiot/contracts';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { serverNow } from './server-clock.ts';

dayjs.extend(utc);

/**
 * The console shows and picks every time on the station's clock, UTC+8 (spec §9), whatever the browser's
 * time zone. A "console clock" is a dayjs whose fields (year … millisecond) are that wall clock: what the
 * tables print and what antd's pickers show and edit. It is kept in dayjs's UTC mode, shifted by the
 * offset, so that its fields follow no daylight saving of the browser's zone; for the same reason its
 * `valueOf()` / `toISOString()` are not the instant it shows: read that with `instantOf`, and compare a
 * console clock only with another one (`consoleNow()`, not `dayjs()`).
 */
export function consoleClock(at: string | number | Date): Dayjs {
  // A text without a zone is a UTC one, as the API's are (spec §9: "UTC strings").
  const instant = dayjs.utc(at);
  return instant.isValid() ? dayjs.utc(instant.valueOf() + CONSOLE_UTC_OFFSET_MS) : instant;
}

/** The station's wall clock now (the server's clock, as the console knows it: server-clock.ts). */
export function consoleNow(): Dayjs {
  return consoleClock(serverNow());
}

/**
 * The instant (ISO text) that a picked value means: its fields read as the station's wall clock. Any dayjs
 * will do, a console clock or one a picker made in the browser's zone: only its fields count.
 */
export function instantOf(picked: Dayjs): string {
  return new Date(fieldsAsUtc(picked) - CONSOLE_UTC_OFFSET_MS).toISOString();
}

/** The console clock with the same fields (wall clock) as `picked`, e.g. a time a picker parsed. */
export function sameWallClock(picked: Dayjs): Dayjs {
  return dayjs.utc(fieldsAsUtc(picked));
}

function fieldsAsUtc(d: Dayjs): number {
  return Date.UTC(d.year(), d.month(), d.date(), d.hour(), d.minute(), d.second(), d.millisecond());
}
