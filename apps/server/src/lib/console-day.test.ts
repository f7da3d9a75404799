import { describe, expect, it } from 'vitest';
import { consoleDay } from './console-day.ts';

describe('consoleDay', () => {
  it('starts at midnight UTC+8 and lasts 24 hours', () => {
    // 2031-05-10 10:00 in the console's time.
    expect(consoleDay(Date.parse('2031-05-10T02:00:00Z'))).toEqual({
      start: new Date('2031-05-09T16:00:00Z'),
      end: new Date('2031-05-10T16:00:00Z'),
    });
  });

  it("puts the console's midnight in the new day, and the millisecond before it in the old", () => {
    const midnight = Date.parse('2031-05-09T16:00:00Z');
    expect(consoleDay(midnight).start).toEqual(new Date(midnight));
    expect(consoleDay(midnight - 1).end).toEqual(new Date(midnight));
  });
});
