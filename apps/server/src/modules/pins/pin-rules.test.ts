import { localHour } from '@uiot/device-protocol';
import { describe, expect, it } from 'vitest';
import {
  decisionMoments,
  deletionExpirySeconds,
  eraseHour,
  isWorkingHour,
  keepsCode,
  mayShowCode,
  pinUseState,
  planPin,
  STATION_UTC_OFFSET_MINUTES,
  startHourOfPlan,
  weekdayMask,
  weekdaysOf,
} from './pin-rules.ts';

const H = 3_600_000;
/** Station time (UTC+8) as an ISO instant. */
const station = (date: string, hour: number, minute = 0) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + (hour - 8) * H + minute * 60_000).toISOString();
/** Friday 27 Nov 2026, 06:00 station time: before every window of the cases below. */
const NOW = Date.parse(station('2026-11-27', 6));

const plan = (form: Parameters<typeof planPin>[0], now = NOW) => planPin(form, now);
const issuesOf = (result: ReturnType<typeof planPin>) => ('issues' in result ? result.issues : []);

describe('a once-PIN', () => {
  it('starts at the start hour and lasts 2 hours; the end may be anywhere up to that', () => {
    const result = plan({
      type: 'once',
      startTime: station('2026-11-27', 9, 30),
      endTime: station('2026-11-27', 11),
      weekdays: [],
    });
    expect(result).toEqual({
      plan: {
        type: 'once',
        startHour: localHour(Date.parse(station('2026-11-27', 9)), STATION_UTC_OFFSET_MINUTES),
        start: Date.parse(station('2026-11-27', 9)),
        end: Date.parse(station('2026-11-27', 11)),
        deadline: Date.parse(station('2026-11-27', 11)),
      },
    });
  });

  it('refuses an end later than its 2 hours, to the minute', () => {
    const result = plan({
      type: 'once',
      startTime: station('2026-11-27', 9, 30),
      endTime: station('2026-11-27', 11, 1),
      weekdays: [],
    });
    expect(issuesOf(result)).toEqual([{ path: 'endTime', message: 'v.pinOnceLength' }]);
  });

  it('refuses a window already over, and takes one still running', () => {
    const now = Date.parse(station('2026-11-27', 11));
    expect(
      issuesOf(
        plan(
          {
            type: 'once',
            startTime: station('2026-11-27', 9),
            endTime: station('2026-11-27', 10),
            weekdays: [],
          },
          now,
        ),
      ),
    ).toEqual([{ path: 'endTime', message: 'v.pinWindowPast' }]);
    expect(
      issuesOf(
        plan(
          {
            type: 'once',
            startTime: station('2026-11-27', 10),
            endTime: station('2026-11-27', 10),
            weekdays: [],
          },
          now,
        ),
      ),
    ).toEqual([]);
  });
});

describe('a time-period PIN', () => {
  const period = (date: string, hour: number) =>
    plan({ type: 'timePeriod', startTime: station(date, hour), endTime: station(date, hour), weekdays: [] });

  it('lasts 4 hours outside working hours, across midnight and the weekend', () => {
    expect(issuesOf(period('2026-11-27', 18))).toEqual([]);
    expect(issuesOf(period('2026-11-27', 22))).toEqual([]);
    expect(issuesOf(period('2026-11-28', 10))).toEqual([]);
    expect(issuesOf(period('2026-11-30', 4))).toEqual([]);
    expect(issuesOf(period('2026-11-29', 23))).toEqual([]);
  });

  it('refuses 4 hours that touch working hours (Monday–Friday 8:00–18:00), at either edge', () => {
    for (const [date, hour] of [
      ['2026-11-27', 17],
      ['2026-11-27', 14],
      ['2026-11-30', 5],
      ['2026-11-30', 7],
    ] as [string, number][]) {
      expect(issuesOf(period(date, hour)), `${date} ${hour}:00`).toEqual([
        { path: 'startTime', message: 'v.pinNonWorking' },
      ]);
    }
  });

  it('refuses an end later than its 4 hours', () => {
    const result = plan({
      type: 'timePeriod',
      startTime: station('2026-11-27', 20),
      endTime: station('2026-11-28', 0, 1),
      weekdays: [],
    });
    expect(issuesOf(result)).toEqual([{ path: 'endTime', message: 'v.pinPeriodLength' }]);
  });
});

describe('a weekly PIN', () => {
  it('runs whole weeks from the start to the end, its windows on its weekdays', () => {
    const result = plan({
      type: 'weekly',
      startTime: station('2026-12-02', 12),
      endTime: station('2026-12-20', 12),
      weekdays: [0, 2],
    });
    if (!('plan' in result) || result.plan.type !== 'weekly') throw new Error('no plan');
    expect(result.plan).toMatchObject({ weeks: 3, weekdays: 0b101 });
    // The first window is the Monday of the start's week; the last the Wednesday of the end's week.
    expect(new Date(result.plan.start).toISOString()).toBe(station('2026-11-30', 0));
    expect(new Date(result.plan.end).toISOString()).toBe(station('2026-12-16', 6));
    expect(result.plan.deadline).toBe(result.plan.start + 24 * H);
    expect(startHourOfPlan(result.plan)).toBe(localHour(result.plan.start, STATION_UTC_OFFSET_MINUTES));
  });

  it('covers at most 7 weeks', () => {
    const ok = plan({
      type: 'weekly',
      startTime: station('2026-11-30', 0),
      endTime: station('2027-01-17', 0),
      weekdays: [6],
    });
    expect(issuesOf(ok)).toEqual([]);
    const tooMany = plan({
      type: 'weekly',
      startTime: station('2026-11-30', 0),
      endTime: station('2027-01-18', 0),
      weekdays: [6],
    });
    expect(issuesOf(tooMany)).toEqual([{ path: 'endTime', message: 'v.pinWeeks', params: { max: 7 } }]);
  });
});

describe('working hours', () => {
  const hourAt = (date: string, hour: number) =>
    localHour(Date.parse(station(date, hour)), STATION_UTC_OFFSET_MINUTES);
  it.each([
    ['2026-11-30', 7, false],
    ['2026-11-30', 8, true],
    ['2026-11-30', 17, true],
    ['2026-11-30', 18, false],
    ['2026-11-27', 12, true],
    ['2026-11-28', 12, false],
    ['2026-11-29', 12, false],
  ] as const)('%s %i:00 → %s', (date, hour, working) => {
    expect(isWorkingHour(hourAt(date, hour))).toBe(working);
  });
});

describe('use state', () => {
  const base = {
    type: 'weekly' as const,
    endTime: 10 * H,
    activationDeadline: 2 * H,
    usageTime: null,
    revokedAt: null,
    deletionConfirmedAt: null,
  };
  it('is enabled in its time, and expired after its end', () => {
    expect(pinUseState(base, H)).toEqual({ useState: 'enabled', pendingDeletion: false });
    expect(pinUseState({ ...base, usageTime: H }, 10 * H).useState).toBe('expire');
  });
  it('expires unused at its activation deadline, not once used', () => {
    expect(pinUseState(base, 2 * H).useState).toBe('expire');
    expect(pinUseState({ ...base, usageTime: H }, 2 * H).useState).toBe('enabled');
  });
  it('expires a once-PIN at its use', () => {
    expect(pinUseState({ ...base, type: 'once', usageTime: H }, H + 1).useState).toBe('expire');
  });
  it('is disabled once revoked, pending deletion until the lock confirms or the window ends', () => {
    const revoked = { ...base, revokedAt: H };
    expect(pinUseState(revoked, 3 * H)).toEqual({ useState: 'disabled', pendingDeletion: true });
    expect(pinUseState({ ...revoked, deletionConfirmedAt: 4 * H }, 5 * H)).toEqual({
      useState: 'disabled',
      pendingDeletion: false,
    });
    expect(pinUseState(revoked, 10 * H)).toEqual({ useState: 'disabled', pendingDeletion: false });
  });
});

describe("a stored PIN's code", () => {
  const drawn = { generatorId: 'g', drawn: true, stored: false, shown: false };
  it('is shown once, to its generator, while the PIN is enabled and the code drawn', () => {
    expect(mayShowCode(drawn, 'enabled', 'g')).toBe(true);
    expect(mayShowCode(drawn, 'enabled', 'someone else')).toBe(false);
    expect(mayShowCode({ ...drawn, shown: true }, 'enabled', 'g')).toBe(false);
    expect(mayShowCode({ ...drawn, drawn: false }, 'enabled', 'g')).toBe(false);
    expect(mayShowCode(drawn, 'disabled', 'g')).toBe(false);
    expect(mayShowCode(drawn, 'expire', 'g')).toBe(false);
    expect(mayShowCode({ ...drawn, generatorId: null }, 'enabled', 'g')).toBe(false);
  });
  it('is kept until the lock holds it and its generator has seen it, whichever is later', () => {
    expect(keepsCode({ stored: false, shown: false })).toBe(true);
    expect(keepsCode({ stored: false, shown: true })).toBe(true);
    expect(keepsCode({ stored: true, shown: false })).toBe(true);
    expect(keepsCode({ stored: true, shown: true })).toBe(false);
  });
});

describe('helpers', () => {
  it('weekday masks', () => {
    expect(weekdayMask([0, 2, 6])).toBe(0b1000101);
    expect(weekdaysOf(0b1000101)).toEqual([0, 2, 6]);
  });
  it('asks the decision at the first and last moment of the window', () => {
    expect(decisionMoments({ type: 'once', startHour: 1, start: 100, end: 200, deadline: 200 })).toEqual([
      100, 199,
    ]);
  });
  it('a deletion waits at most 10 minutes per try, and never past the window', () => {
    expect(deletionExpirySeconds(NOW + H, NOW)).toBe(600);
    expect(deletionExpirySeconds(NOW + 90_500, NOW)).toBe(91);
    expect(deletionExpirySeconds(NOW - 1, NOW)).toBe(1);
  });
  it('an erase code carries the station hour and works 24 hours from it', () => {
    const now = Date.parse(station('2026-11-27', 9, 40));
    const { hour, validUntil } = eraseHour(now);
    expect(hour).toBe(localHour(now, STATION_UTC_OFFSET_MINUTES));
    expect(new Date(validUntil).toISOString()).toBe(station('2026-11-28', 9));
  });
});
