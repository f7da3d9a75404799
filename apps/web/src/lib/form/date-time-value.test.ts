import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { pickedTime, pickerValue } from './date-time-value.ts';

describe('date-time form values', () => {
  it('converts between the ISO texts of the form and the picker values', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    const picked = pickerValue(iso);
    expect(picked?.toISOString()).toBe(iso);
    expect(pickedTime(picked)).toBe(iso);
    expect(pickerValue(null)).toBeUndefined();
    expect(pickerValue('')).toBeUndefined();
    expect(pickerValue('not a time')).toBeUndefined();
    expect(pickedTime(null)).toBeNull();
    expect(pickedTime(dayjs('nonsense'))).toBeNull();
  });
});
