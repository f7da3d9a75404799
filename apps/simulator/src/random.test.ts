import { describe, expect, it } from 'vitest';
import { createRandom, deriveSeed } from './random.ts';

describe('createRandom', () => {
  it('repeats its sequence for a seed and differs for another', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
  });

  it('stays in range and is roughly uniform', () => {
    const random = createRandom(1);
    const buckets = new Array<number>(10).fill(0);
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = random.next();
      if (!(x >= 0 && x < 1)) outside += 1;
      const bucket = Math.floor(x * 10);
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    expect(outside).toBe(0);
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('draws integers within both bounds, exponential waits with the given mean', () => {
    const random = createRandom(5);
    const ints = new Set(Array.from({ length: 1000 }, () => random.int(-3, 3)));
    expect([...ints].sort((x, y) => x - y)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    let sum = 0;
    for (let i = 0; i < 20_000; i++) sum += random.exponential(60);
    expect(sum / 20_000).toBeGreaterThan(57);
    expect(sum / 20_000).toBeLessThan(63);
    expect(random.exponential(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it('derives distinct seeds for the members of a family', () => {
    const seeds = new Set(Array.from({ length: 1000 }, (_, i) => deriveSeed(7, i)));
    expect(seeds.size).toBe(1000);
    expect(deriveSeed(7, 3)).toBe(deriveSeed(7, 3));
    expect(deriveSeed(8, 3)).not.toBe(deriveSeed(7, 3));
  });
});
