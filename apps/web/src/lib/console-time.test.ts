import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleClock, consoleNow, instantOf, sameWallClock } from './console-time.ts';

/**
 * The instants are chosen so that the station's wall clock (UTC+8) falls on another date than UTC's, and
 * around the daylight-saving changes of Europe and the USA: whatever zone the tests run in (TZ=UTC on CI,
 * any other by hand), the console's clock is UTC+8.
 */
const FORMAT = 'YYYY-MM-DD HH:mm:ss.SSS';

/** The station's wall clock of an instant, by arithmetic alone. */
function stationText(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 23).replace('T', ' ');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('consoleClock', () => {
  it("shows an instant on the station's clock, UTC+8, not the browser's", () => {
    const clock = consoleClock('2026-11-27T20:30:00Z');
    expect(clock.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-28 04:30:00');
    expect([clock.year(), clock.month(), clock.date(), clock.hour(), clock.minute()]).toEqual([
      2026, 10, 28, 4, 30,
    ]);
    expect(consoleClock(Date.parse('2026-11-27T20:30:00Z')).format(FORMAT)).toBe('2026-11-28 04:30:00.000');
    expect(consoleClock(new Date('2026-12-31T16:00:00.250Z')).format(FORMAT)).toBe('2027-01-01 00:00:00.250');
  });

  it('reads a text with a zone as written and one without as UTC, as the API writes them', () => {
    expect(consoleClock('2026-11-28T04:30:00+08:00').format(FORMAT)).toBe('2026-11-28 04:30:00.000');
    expect(consoleClock('2026-11-27T22:30:00+02:00').format(FORMAT)).toBe('2026-11-28 04:30:00.000');
    expect(consoleClock('2026-11-27 20:30:00').format(FORMAT)).toBe('2026-11-28 04:30:00.000');
    expect(consoleClock('not a time').isValid()).toBe(false);
  });

  it("keeps to UTC+8 across the browser zone's daylight-saving changes", () => {
    // Every quarter of an hour around the changes of March and October / November 2026 (EU and US).
    for (const [from, to] of [
      ['2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z'],
      ['2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z'],
      ['2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z'],
      ['2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z'],
    ] as const) {
      for (let ms = Date.parse(from); ms < Date.parse(to); ms += 15 * 60_000) {
        const clock = consoleClock(ms);
        expect(clock.format(FORMAT)).toBe(stationText(ms));
        expect(instantOf(clock)).toBe(new Date(ms).toISOString());
      }
    }
  });

  it("moves on the station's calendar", () => {
    const clock = consoleClock('2026-11-27T20:30:00Z');
    expect(instantOf(clock.startOf('day'))).toBe('2026-11-27T16:00:00.000Z');
    expect(instantOf(clock.endOf('day'))).toBe('2026-11-28T15:59:59.999Z');
    expect(instantOf(clock.hour(0).minute(0).second(0))).toBe('2026-11-27T16:00:00.000Z');
    expect(clock.subtract(1, 'month').format('YYYY-MM-DD HH:mm')).toBe('2026-10-28 04:30');
    expect(clock.add(1, 'week').format('YYYY-MM-DD HH:mm')).toBe('2026-12-05 04:30');
  });
});

describe('consoleNow', () => {
  it("is the station's wall clock now", () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T20:30:05Z') });
    expect(consoleNow().format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-28 04:30:05');
    expect(instantOf(consoleNow())).toBe('2026-11-27T20:30:05.000Z');
  });
});

describe('instantOf', () => {
  it('gives back the instant a console clock shows, to the millisecond', () => {
    for (const iso of ['2026-11-27T20:30:00.000Z', '2026-03-04T05:06:07.890Z', '2027-01-01T00:00:00.000Z']) {
      expect(instantOf(consoleClock(iso))).toBe(iso);
    }
  });

  it("reads any dayjs's fields as the station's wall clock, whatever its zone", () => {
    // What a picker makes of a typed or clicked time in the browser's zone: only its fields count.
    const browserLocal = dayjs(new Date(2026, 10, 28, 4, 30, 0));
    expect(instantOf(browserLocal)).toBe('2026-11-27T20:30:00.000Z');
    expect(instantOf(dayjs.utc('2026-11-28T04:30:00Z'))).toBe('2026-11-27T20:30:00.000Z');
  });
});

describe('sameWallClock', () => {
  it('makes a console clock of the same fields', () => {
    const browserLocal = dayjs(new Date(2026, 10, 28, 4, 30, 15, 5));
    const clock = sameWallClock(browserLocal);
    expect(clock.format(FORMAT)).toBe('2026-11-28 04:30:15.005');
    expect(clock.isAfter(consoleClock('2026-11-27T20:30:15.004Z'))).toBe(true);
    expect(clock.isSame(consoleClock('2026-11-27T20:30:15.005Z'))).toBe(true);
  });
});
