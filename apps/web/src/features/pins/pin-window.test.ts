import { describe, expect, it } from 'vitest';
import { newPinValues, pinBody, sortedWeekdays, windowEnd } from './pin-window.ts';

describe('windowEnd', () => {
  it("ends a once-PIN 2 hours and a time-period PIN 4 hours after its start's whole hour", () => {
    expect(windowEnd('once', '2030-01-01T08:37:12.000Z')).toBe('2030-01-01T10:00:00.000Z');
    expect(windowEnd('timePeriod', '2030-01-01T12:00:00.000Z')).toBe('2030-01-01T16:00:00.000Z');
  });

  it('reads the hour in the station clock, whatever offset the start was written with', () => {
    // 20:30 at UTC+8 is 12:30 UTC: the window runs 20:00–24:00 station time.
    expect(windowEnd('timePeriod', '2030-01-01T20:30:00+08:00')).toBe('2030-01-01T16:00:00.000Z');
  });

  it('gives nothing for weekly and durable PINs, or without a start', () => {
    expect(windowEnd('weekly', '2030-01-01T08:00:00.000Z')).toBeNull();
    expect(windowEnd('durable', '2030-01-01T08:00:00.000Z')).toBeNull();
    expect(windowEnd('once', null)).toBeNull();
    expect(windowEnd('once', 'not a time')).toBeNull();
    expect(windowEnd(undefined, '2030-01-01T08:00:00.000Z')).toBeNull();
  });
});

describe('newPinValues', () => {
  it('starts a TOTP once-PIN now, ending with its window, on the lock given', () => {
    const now = Date.parse('2030-01-01T08:37:00.000Z');
    expect(newPinValues(now, 'd1')).toEqual({
      deviceId: 'd1',
      type: 'once',
      algorithm: 'totp',
      startTime: '2030-01-01T08:37:00.000Z',
      endTime: '2030-01-01T10:00:00.000Z',
      weekdays: [],
    });
    expect(newPinValues(now)).not.toHaveProperty('deviceId');
  });
});

describe('pinBody', () => {
  const values = {
    deviceId: 'd1',
    userId: 's1',
    algorithm: 'totp',
    startTime: '2030-01-01T00:00:00.000Z',
    endTime: '2030-01-14T00:00:00.000Z',
    weekdays: [0, 2],
    reason: 'Night work',
  } as const;

  it('sends the weekdays of a weekly PIN only', () => {
    expect(pinBody({ ...values, type: 'weekly', weekdays: [0, 2] }).weekdays).toEqual([0, 2]);
    expect(pinBody({ ...values, type: 'once', weekdays: [0, 2] }).weekdays).toEqual([]);
  });
});

describe('sortedWeekdays', () => {
  it('orders weekdays Monday first, each once', () => {
    expect(sortedWeekdays([6, 0, 2, 0])).toEqual([0, 2, 6]);
  });
});
