import dayjs, { type Dayjs } from 'dayjs';

/**
 * Forms keep times as ISO texts (what the shared schemas read); a date-time picker shows them as dayjs
 * values. A picker's `Form.Item` converts between them with
 * `getValueProps={(value) => ({ value: pickerValue(value) })}` and `normalize={pickedTime}`.
 */
export function pickerValue(value: unknown): Dayjs | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const time = dayjs(value);
  return time.isValid() ? time : undefined;
}

export function pickedTime(value: Dayjs | null | undefined): string | null {
  return value?.isValid() ? value.toISOString() : null;
}
