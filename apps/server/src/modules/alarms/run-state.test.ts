import { RUN_STATES, type RunState } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import {
  combineRunState,
  doorOpenTooLong,
  doorTimeoutAt,
  moreSevere,
  RUN_STATE_PRECEDENCE,
  type RunStateInputs,
} from './run-state.ts';

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
