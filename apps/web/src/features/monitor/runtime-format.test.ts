import { describe, expect, it } from 'vitest';
import { formatOfflineDuration } from './runtime-format.ts';

describe('formatOfflineDuration', () => {
  it('reads to the largest unit and the one below it', () => {
    expect(formatOfflineDuration(93_784, 'en')).toBe('1 day 2 hr');
    expect(formatOfflineDuration(3_725, 'en')).toBe('1 hr 2 min');
    expect(formatOfflineDuration(93_784, 'zh-CN')).toBe('1天2小时');
  });

  it('leaves out a zero unit below the largest', () => {
    expect(formatOfflineDuration(86_405, 'en')).toBe('1 day');
    expect(formatOfflineDuration(7_200, 'en')).toBe('2 hr');
  });

  it('reads under a minute in seconds, zero included', () => {
    expect(formatOfflineDuration(42, 'en')).toBe('42 sec');
    expect(formatOfflineDuration(0, 'en')).toBe('0 sec');
  });

  it('is empty without a duration', () => {
    expect(formatOfflineDuration(null, 'en')).toBe('');
    expect(formatOfflineDuration(-1, 'en')).toBe('');
  });
});
