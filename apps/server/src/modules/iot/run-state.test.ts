import { RUN_STATES, type RunState } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../infra/events/event-bus.ts';
import {
  combineRunState,
  doorOpenTooLong,
  doorTimeoutAt,
  effectiveRunState,
  isDamaged,
  isLowPower,
  moreSevere,
  RUN_STATE_PRECEDENCE,
  type RunStateFacts,
  type RunStateInputs,
  type RunStateRow,
  runStateHints,
} from './run-state.ts';
import { doorOpenLimitMs, RunStateKeeper } from './run-states.ts';

const NOW = 1_800_000_000_000;
const LIMIT = 10 * 60_000;
const quiet: RunStateInputs = { lowPower: false, damaged: false, now: NOW, doorOpenLimitMs: LIMIT };
const doorOpenTooLongAgo = NOW - LIMIT - 1;

describe('door left open', () => {
  it('times out only once the door has stood open longer than the limit', () => {
    expect(doorOpenTooLong(NOW - LIMIT, NOW, LIMIT)).toBe(false);
    expect(doorOpenTooLong(NOW - LIMIT - 1, NOW, LIMIT)).toBe(true);
    expect(doorOpenTooLong(NOW + 5_000, NOW, LIMIT)).toBe(false);
  });

  it('never times out while the door is closed or without a positive limit', () => {
    expect(doorOpenTooLong(undefined, NOW, LIMIT)).toBe(false);
    for (const limit of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(doorOpenTooLong(0, NOW, limit), String(limit)).toBe(false);
      expect(doorTimeoutAt(0, limit)).toBeNull();
    }
  });

  it('says when the check is due, for the runner to schedule it', () => {
    expect(doorTimeoutAt(NOW, LIMIT)).toBe(NOW + LIMIT);
    expect(doorTimeoutAt(undefined, LIMIT)).toBeNull();
  });
});

describe('precedence', () => {
  it('ranks every run state, damaged first and normal last', () => {
    expect([...RUN_STATE_PRECEDENCE].sort()).toEqual([...RUN_STATES].sort());
    expect(RUN_STATE_PRECEDENCE).toEqual(['damaged', 'timeOutNotClosed', 'lowPower', 'normal']);
  });

  it('picks the more severe of two, whichever comes first', () => {
    const pairs: Array<[RunState, RunState, RunState]> = [
      ['normal', 'lowPower', 'lowPower'],
      ['timeOutNotClosed', 'lowPower', 'timeOutNotClosed'],
      ['damaged', 'timeOutNotClosed', 'damaged'],
      ['normal', 'normal', 'normal'],
    ];
    for (const [a, b, worse] of pairs) {
      expect(moreSevere(a, b)).toBe(worse);
      expect(moreSevere(b, a)).toBe(worse);
    }
  });
});

describe('combined run state', () => {
  it('is normal with nothing reported or computed', () => {
    expect(combineRunState(quiet)).toBe('normal');
    expect(combineRunState({ ...quiet, reported: 'normal' })).toBe('normal');
  });

  it('is each computed state on its own', () => {
    expect(combineRunState({ ...quiet, lowPower: true })).toBe('lowPower');
    expect(combineRunState({ ...quiet, damaged: true })).toBe('damaged');
    expect(combineRunState({ ...quiet, doorOpenSince: doorOpenTooLongAgo })).toBe('timeOutNotClosed');
    expect(combineRunState({ ...quiet, doorOpenSince: NOW - LIMIT })).toBe('normal');
  });

  it('puts damaged before a door left open, and a door left open before low power', () => {
    const all = { ...quiet, lowPower: true, damaged: true, doorOpenSince: doorOpenTooLongAgo };
    expect(combineRunState(all)).toBe('damaged');
    expect(combineRunState({ ...all, damaged: false })).toBe('timeOutNotClosed');
    expect(combineRunState({ ...all, damaged: false, doorOpenSince: undefined })).toBe('lowPower');
  });

  it("keeps the lock's own non-normal state when nothing computed is more severe", () => {
    for (const reported of RUN_STATES) expect(combineRunState({ ...quiet, reported })).toBe(reported);
    expect(combineRunState({ ...quiet, reported: 'damaged', lowPower: true })).toBe('damaged');
    expect(combineRunState({ ...quiet, reported: 'timeOutNotClosed', lowPower: true })).toBe(
      'timeOutNotClosed',
    );
  });

  it("lets a more severe computed state override the lock's report", () => {
    expect(combineRunState({ ...quiet, reported: 'lowPower', damaged: true })).toBe('damaged');
    expect(combineRunState({ ...quiet, reported: 'normal', lowPower: true })).toBe('lowPower');
  });
});

/** A battery scale with a gap (20–30 in no level) and two damage levels from 1 and from 3 reports. */
const FACTS: RunStateFacts = {
  powerLevels: [
    { level: 1, startValue: 0, endValue: 10, state: 'lowPower' },
    { level: 2, startValue: 10, endValue: 20, state: 'lowPower' },
    { level: 3, startValue: 30, endValue: 100, state: 'normal' },
  ],
  damageLevels: [
    { level: 1, startValue: 1, endValue: 3 },
    { level: 2, startValue: 3, endValue: 10 },
  ],
  doorOpenLimitMs: LIMIT,
};
const ROW: RunStateRow = { reportedRunState: null, battery: 80, damageCount: 0, doorOpenSince: null };

describe('run states from the levels', () => {
  it('is low power where the battery falls in a lowPower level, edges by the levels rule', () => {
    expect(isLowPower(0, FACTS)).toBe(true);
    expect(isLowPower(19.99, FACTS)).toBe(true);
    expect(isLowPower(20, FACTS)).toBe(false);
    expect(isLowPower(25, FACTS)).toBe(false);
    expect(isLowPower(100, FACTS)).toBe(false);
    expect(isLowPower(null, FACTS)).toBe(false);
    expect(isLowPower(5, { ...FACTS, powerLevels: [] })).toBe(false);
  });

  it('is damaged where the damage value falls in a damage level, never with no report', () => {
    expect(isDamaged(0, FACTS)).toBe(false);
    expect(isDamaged(1, FACTS)).toBe(true);
    expect(isDamaged(9, FACTS)).toBe(true);
    // The highest level holds its end; above it is no level.
    expect(isDamaged(10, FACTS)).toBe(true);
    expect(isDamaged(11, FACTS)).toBe(false);
    const fromZero = { ...FACTS, damageLevels: [{ level: 1, startValue: 0, endValue: 5 }] };
    expect(isDamaged(0, fromZero)).toBe(false);
    expect(isDamaged(1, fromZero)).toBe(true);
  });

  it('stores the most severe of the reported and the computed states', () => {
    expect(effectiveRunState(ROW, FACTS, NOW)).toBeNull();
    expect(effectiveRunState({ ...ROW, reportedRunState: 'normal' }, FACTS, NOW)).toBe('normal');
    expect(effectiveRunState({ ...ROW, battery: 5 }, FACTS, NOW)).toBe('lowPower');
    expect(effectiveRunState({ ...ROW, battery: 5, reportedRunState: 'normal' }, FACTS, NOW)).toBe(
      'lowPower',
    );
    expect(effectiveRunState({ ...ROW, battery: 5, damageCount: 2 }, FACTS, NOW)).toBe('damaged');
    expect(effectiveRunState({ ...ROW, battery: 5, doorOpenSince: doorOpenTooLongAgo }, FACTS, NOW)).toBe(
      'timeOutNotClosed',
    );
    expect(effectiveRunState({ ...ROW, doorOpenSince: NOW - LIMIT }, FACTS, NOW)).toBeNull();
    expect(effectiveRunState({ ...ROW, reportedRunState: 'damaged' }, FACTS, NOW)).toBe('damaged');
  });

  it('shows what the lock reports when no level and no limit apply', () => {
    const none: RunStateFacts = { powerLevels: [], damageLevels: [], doorOpenLimitMs: 0 };
    const row = { ...ROW, battery: 1, damageCount: 50, doorOpenSince: 0 };
    expect(effectiveRunState(row, none, NOW)).toBeNull();
    for (const reported of RUN_STATES) {
      expect(effectiveRunState({ ...row, reportedRunState: reported }, none, NOW)).toBe(reported);
    }
  });
});

describe('door-open limit parameter', () => {
  it('reads minutes within 0–1440; 0 or less turns the check off, no number is the default', () => {
    expect(doorOpenLimitMs('30')).toBe(30 * 60_000);
    expect(doorOpenLimitMs('0.5')).toBe(30_000);
    for (const off of ['0', '-5']) expect(doorOpenLimitMs(off)).toBe(0);
    // A value stored before its range was checked (or in the database) is read within the range, never as
    // an interval the database cannot hold (finding: ingest failed with "interval out of range").
    for (const huge of ['99999999999999999999', '1e300', 'Infinity', '1441']) {
      expect(doorOpenLimitMs(huge)).toBe(1440 * 60_000);
    }
    for (const none of ['abc', '', ' ', undefined]) expect(doorOpenLimitMs(none)).toBe(30 * 60_000);
  });

  it('is logged once when the stored value is read otherwise', async () => {
    const warnings: string[] = [];
    let stored = '99999999999999999999';
    let now = NOW;
    const keeper = new RunStateKeeper(
      {} as Db,
      {
        powerLevels: async () => [],
        damageLevels: async () => [],
        getValues: async () => ({ DoorOpenTimeout: stored }),
      },
      {} as EventBus,
      () => now,
      { info: () => {}, error: () => {}, warn: (_obj, msg) => warnings.push(msg ?? '') },
    );
    const limit = async () => (await keeper.hints()).doorOpenLimitMs;
    expect(await limit()).toBe(1440 * 60_000);
    keeper.forget();
    expect(await limit()).toBe(1440 * 60_000);
    now += 60_000;
    expect(await limit()).toBe(1440 * 60_000);
    expect(warnings).toEqual(['DoorOpenTimeout is out of range: read as 1440 minutes']);
    stored = 'hello';
    keeper.forget();
    expect(await limit()).toBe(30 * 60_000);
    stored = '45';
    keeper.forget();
    expect(await limit()).toBe(45 * 60_000);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('DoorOpenTimeout is not a number: read as its default, 30 minutes');
  });
});

describe('hints for the database', () => {
  it('name the highest lowPower end, whether damage levels exist, and the door-open limit', () => {
    expect(runStateHints(FACTS)).toEqual({ lowPowerUpTo: 20, damageLevels: true, doorOpenLimitMs: LIMIT });
    const none: RunStateFacts = {
      powerLevels: [FACTS.powerLevels[2]!],
      damageLevels: [],
      doorOpenLimitMs: 0,
    };
    expect(runStateHints(none)).toEqual({ lowPowerUpTo: 0, damageLevels: false, doorOpenLimitMs: 0 });
  });
});
