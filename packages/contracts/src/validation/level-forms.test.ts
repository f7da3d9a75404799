import { describe, expect, it } from 'vitest';
import { damageLevelForm, powerLevelForm } from './level-forms.ts';

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const power = { level: 1, startValue: 0, endValue: 20, availableDays: 7, state: 'lowPower' };

describe('powerLevelForm', () => {
  it('takes a battery range in % with two decimals at most', () => {
    expect(powerLevelForm.safeParse(power).success).toBe(true);
    expect(powerLevelForm.safeParse({ ...power, startValue: 19.99, endValue: 100 }).success).toBe(true);
    expect(messages(powerLevelForm.safeParse({ ...power, endValue: 20.001 }))).toEqual({
      endValue: 'v.percent',
    });
    expect(messages(powerLevelForm.safeParse({ ...power, endValue: 100.01 }))).toEqual({
      endValue: 'v.percent',
    });
    expect(messages(powerLevelForm.safeParse({ ...power, startValue: -1 }))).toEqual({
      startValue: 'v.percent',
    });
  });

  it('wants the start below the end', () => {
    expect(messages(powerLevelForm.safeParse({ ...power, startValue: 20 }))).toEqual({
      endValue: 'v.endAboveStart',
    });
  });

  it('wants whole numbers: a level of 1 or more, available days of 0 or more', () => {
    expect(messages(powerLevelForm.safeParse({ ...power, level: 0, availableDays: -1 }))).toEqual({
      level: 'v.levelNumber',
      availableDays: 'v.integer',
    });
    expect(messages(powerLevelForm.safeParse({ ...power, level: 1.5, availableDays: 0.5 }))).toEqual({
      level: 'v.levelNumber',
      availableDays: 'v.integer',
    });
  });

  it('takes no empty field as zero, and no text as a number', () => {
    expect(messages(powerLevelForm.safeParse({ ...power, startValue: null, endValue: '20' }))).toEqual({
      startValue: 'v.required',
      endValue: 'v.number',
    });
  });

  it('stands for a normal or low power run state only', () => {
    expect(powerLevelForm.safeParse({ ...power, state: 'normal' }).success).toBe(true);
    expect(powerLevelForm.safeParse({ ...power, state: 'damaged' }).success).toBe(false);
  });
});

describe('damageLevelForm', () => {
  it('takes a range of the damage value and an optional description', () => {
    const parsed = damageLevelForm.parse({ level: 2, startValue: 3, endValue: 10, description: '  ' });
    expect(parsed).toEqual({ level: 2, startValue: 3, endValue: 10, description: null });
    expect(messages(damageLevelForm.safeParse({ level: 2, startValue: 3, endValue: 3 }))).toEqual({
      endValue: 'v.endAboveStart',
    });
    expect(messages(damageLevelForm.safeParse({ level: 2, startValue: 0, endValue: 1_000_001 }))).toEqual({
      endValue: 'v.damageValue',
    });
  });
});
