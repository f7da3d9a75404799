import { DEFAULT_BATTERY_BANDS } from '@uiot/contracts';
import { describe, expect, it } from 'vitest';
import { batteryBandsOf, type LevelRange, levelConflicts, levelOf, rangesOverlap } from './level-ranges.ts';

const range = (level: number, startValue: number, endValue: number): LevelRange => ({
  level,
  startValue,
  endValue,
});

describe('rangesOverlap', () => {
  it('lets ranges meet at an edge: the end is not in a range', () => {
    expect(rangesOverlap(range(1, 0, 50), range(2, 50, 100))).toBe(false);
    expect(rangesOverlap(range(2, 50, 100), range(1, 0, 50))).toBe(false);
  });

  it('sees ranges that share any value', () => {
    expect(rangesOverlap(range(1, 0, 50.01), range(2, 50, 100))).toBe(true);
    expect(rangesOverlap(range(1, 10, 20), range(2, 0, 100))).toBe(true);
    expect(rangesOverlap(range(1, 0, 100), range(2, 10, 20))).toBe(true);
    expect(rangesOverlap(range(1, 10, 20), range(2, 10, 20))).toBe(true);
  });

  it('keeps apart ranges with a gap between them', () => {
    expect(rangesOverlap(range(1, 0, 10), range(2, 20, 30))).toBe(false);
  });
});

describe('levelConflicts', () => {
  const others = [range(1, 0, 20), range(2, 20, 60)];

  it('finds nothing for a level that fits beside the others', () => {
    expect(levelConflicts(range(3, 60, 100), others)).toEqual([]);
    expect(levelConflicts(range(3, 60, 100), [])).toEqual([]);
  });

  it('refuses a level number already used', () => {
    expect(levelConflicts(range(2, 60, 100), others)).toEqual([{ path: 'level', message: 'v.levelTaken' }]);
  });

  it('puts an overlap on the bound that lies inside another range', () => {
    expect(levelConflicts(range(3, 59.99, 100), others)).toEqual([
      { path: 'startValue', message: 'v.rangeOverlap' },
    ]);
    expect(levelConflicts(range(3, 60, 100), [range(4, 99, 120)])).toEqual([
      { path: 'endValue', message: 'v.rangeOverlap' },
    ]);
    expect(levelConflicts(range(3, 10, 30), others)).toEqual([
      { path: 'startValue', message: 'v.rangeOverlap' },
      { path: 'endValue', message: 'v.rangeOverlap' },
    ]);
  });

  it('puts an overlap on both bounds when the range covers another', () => {
    expect(levelConflicts(range(3, 15, 70), [range(1, 20, 60)])).toEqual([
      { path: 'startValue', message: 'v.rangeOverlap' },
      { path: 'endValue', message: 'v.rangeOverlap' },
    ]);
  });

  it('names both a taken number and an overlap', () => {
    expect(levelConflicts(range(1, 50, 70), others)).toEqual([
      { path: 'level', message: 'v.levelTaken' },
      { path: 'startValue', message: 'v.rangeOverlap' },
    ]);
  });
});

describe('levelOf', () => {
  const levels = [range(3, 60, 100), range(1, 0, 20), range(2, 20, 60)];

  it('holds start ≤ value < end', () => {
    expect(levelOf(0, levels)?.level).toBe(1);
    expect(levelOf(19.99, levels)?.level).toBe(1);
    expect(levelOf(20, levels)?.level).toBe(2);
    expect(levelOf(59.99, levels)?.level).toBe(2);
    expect(levelOf(60, levels)?.level).toBe(3);
  });

  it('lets the highest range hold its end too: 100 % is in the top level', () => {
    expect(levelOf(100, levels)?.level).toBe(3);
  });

  it('gives no level outside every range, in a gap, or for an unknown value', () => {
    const gapped = [range(1, 0, 10), range(2, 20, 30)];
    expect(levelOf(-0.01, levels)).toBeNull();
    expect(levelOf(100.01, levels)).toBeNull();
    expect(levelOf(10, gapped)).toBeNull();
    expect(levelOf(15, gapped)).toBeNull();
    expect(levelOf(30, gapped)?.level).toBe(2);
    expect(levelOf(null, levels)).toBeNull();
    expect(levelOf(undefined, levels)).toBeNull();
    expect(levelOf(Number.NaN, levels)).toBeNull();
    expect(levelOf(5, [])).toBeNull();
  });

  it('gives the end of a range that is not the highest to the next range only', () => {
    expect(levelOf(10, [range(1, 0, 10), range(2, 20, 30)])).toBeNull();
  });
});

describe('batteryBandsOf', () => {
  const power = (level: number, startValue: number, endValue: number, state: 'normal' | 'lowPower') => ({
    ...range(level, startValue, endValue),
    state,
  });

  it('keeps the fixed bands while no power level is defined', () => {
    expect(batteryBandsOf([])).toEqual(DEFAULT_BATTERY_BANDS);
    expect(DEFAULT_BATTERY_BANDS).toEqual({ lowBelow: 20, highFrom: 60, fromLevels: false });
  });

  it('reads low up to the top of the lowPower levels and high from the highest normal level', () => {
    const levels = [
      power(1, 0, 10, 'lowPower'),
      power(2, 10, 30, 'lowPower'),
      power(3, 30, 70, 'normal'),
      power(4, 70, 100, 'normal'),
    ];
    expect(batteryBandsOf(levels)).toEqual({ lowBelow: 30, highFrom: 70, fromLevels: true });
  });

  it('has no medium band with a single normal level', () => {
    const levels = [power(1, 0, 25, 'lowPower'), power(2, 25, 100, 'normal')];
    expect(batteryBandsOf(levels)).toEqual({ lowBelow: 25, highFrom: 25, fromLevels: true });
  });

  it('has no low band without a lowPower level; all but low is high without a normal level above it', () => {
    expect(batteryBandsOf([power(1, 0, 50, 'normal'), power(2, 50, 100, 'normal')])).toEqual({
      lowBelow: 0,
      highFrom: 50,
      fromLevels: true,
    });
    expect(batteryBandsOf([power(1, 0, 40, 'lowPower')])).toEqual({
      lowBelow: 40,
      highFrom: 40,
      fromLevels: true,
    });
  });
});
