import { describe, expect, it } from 'vitest';
import { MillisecondHistogram, quantile } from './quantile.ts';

describe('MillisecondHistogram', () => {
  it('gives the quantiles and the largest value that sorting the same latencies gives', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const size of [1, 2, 3, 99, 100, 101, 5_000]) {
      const values = Array.from({ length: size }, () => Math.floor(random() ** 3 * 3_000));
      const histogram = new MillisecondHistogram();
      for (const v of values) histogram.add(v);
      const sorted = [...values].sort((a, b) => a - b);
      for (const q of [0.01, 0.5, 0.9, 0.99, 0.999, 1]) {
        expect(histogram.quantile(q), `size ${size}, q ${q}`).toBe(quantile(sorted, q));
      }
      expect(histogram.max()).toBe(sorted.at(-1));
      expect(histogram.count).toBe(size);
    }
  });

  it('is empty until a value comes, rounds to whole milliseconds and counts a negative latency as 0', () => {
    const histogram = new MillisecondHistogram();
    expect([histogram.quantile(0.99), histogram.max(), histogram.count]).toEqual([null, null, 0]);
    histogram.add(-3);
    histogram.add(4.6);
    histogram.add(70_000);
    expect([histogram.quantile(0.3), histogram.quantile(0.5), histogram.quantile(0.99)]).toEqual([
      0, 5, 70_000,
    ]);
    expect(histogram.max()).toBe(70_000);
  });
});
