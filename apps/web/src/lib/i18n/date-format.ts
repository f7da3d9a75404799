import { consoleClock } from '../console-time.ts';

/** Spec §9 default date format `yyyy-MM-dd HH:mm:ss`. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** An instant as the console shows it: the station's wall clock (UTC+8, spec §9), whatever the browser's zone. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const time = consoleClock(value);
  return time.isValid() ? time.format(DATE_TIME_FORMAT) : String(value);
}
