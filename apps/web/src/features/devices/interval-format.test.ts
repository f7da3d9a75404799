import { describe, expect, it } from 'vitest';
import { durationParts, formatInterval } from './interval-format.ts';

describe('durationParts', () => {
  it('splits seconds into days, hours, minutes and seconds, leaving out the zero ones', () => {
    expect(durationParts(3600)).toEqual([{ unit: 'hour', value: 1 }]);
    expect(durationParts(5400)).toEqual([
      { unit: 'hour', value: 1 },
      { unit: 'minute', value: 30 },
    ]);
    expect(durationParts(90_061)).toEqual([
      { unit: 'day', value: 1 },
      { unit: 'hour', value: 1 },
      { unit: 'minute', value: 1 },
      { unit: 'second', value: 1 },
    ]);
    expect(durationParts(45)).toEqual([{ unit: 'second', value: 45 }]);
    expect(durationParts(2_592_000)).toEqual([{ unit: 'day', value: 30 }]);
  });

  it('has nothing for zero, negative or non-numbers', () => {
    expect(durationParts(0)).toEqual([]);
    expect(durationParts(-60)).toEqual([]);
    expect(durationParts(Number.NaN)).toEqual([]);
  });
});

describe('formatInterval', () => {
  it('reads in the language of the console', () => {
    expect(formatInterval(3600, 'en')).toBe('1 hr');
    expect(formatInterval(300, 'en')).toBe('5 min');
    expect(formatInterval(5400, 'en')).toBe('1 hr 30 min');
    expect(formatInterval(3600, 'zh-CN')).toBe('1小时');
    expect(formatInterval(5400, 'zh-CN')).toBe('1小时30分钟');
    expect(formatInterval(86_400, 'zh-TW')).toMatch(/^1\s?天$/);
  });

  it('is empty without a positive interval', () => {
    expect(formatInterval(0, 'en')).toBe('');
  });
});
