import type { Dayjs } from 'dayjs';
import { consoleClock, instantOf } from '../console-time.ts';

/**
 * Forms keep times as ISO texts (what the shared schemas read); a date-time picker shows them as dayjs
 * values on the station's clock (UTC+8, spec §9), whatever the browser's zone. A picker's `Form.Item`
 * converts between them with `getValueProps={(value) => ({ value: pickerValue(value) })}` and
 * `normalize={pickedTime}`; the picker is `ConsoleDatePicker`, whose "now" is the station's.
 */
export function pickerValue(value: unknown): Dayjs | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const time = consoleClock(value);
  return time.isValid() ? time : undefined;
}

export function pickedTime(value: Dayjs | null | undefined): string | null {
  return value?.isValid() ? instantOf(value) : null;
}
