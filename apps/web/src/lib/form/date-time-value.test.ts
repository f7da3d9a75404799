import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { pickedTime, pickerValue } from './date-time-value.ts';

describe('date-time form values', () => {
  it('converts between the ISO texts of the form and the picker values', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    const picked = pickerValue(iso);
    expect(pickedTime(picked)).toBe(iso);
    expect(pickerValue(null)).toBeUndefined();
    expect(pickerValue('')).toBeUndefined();
    expect(pickerValue('not a time')).toBeUndefined();
    expect(pickedTime(null)).toBeNull();
    expect(pickedTime(dayjs('nonsense'))).toBeNull();
  });

  it("shows and picks on the station's clock (UTC+8), whatever the browser's zone", () => {
    expect(pickerValue('2026-11-27T20:30:00.000Z')?.format('YYYY-MM-DD HH:mm:ss')).toBe(
      '2026-11-28 04:30:00',
    );
    // A picker's value in the browser's zone, 2026-11-28 04:30 on its face: that time at the station.
    expect(pickedTime(dayjs(new Date(2026, 10, 28, 4, 30)))).toBe('2026-11-27T20:30:00.000Z');
  });
});
