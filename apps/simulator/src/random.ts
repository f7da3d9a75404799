/**
 * A small seeded PRNG (mulberry32) so that a fleet started with the same seed behaves the same way: tests
 * and benchmark runs are reproducible, unlike with `Math.random`.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** Exponentially distributed with the given mean: the waiting time of a memoryless event. */
  exponential(mean: number): number;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    // 1 - next() is in (0, 1], so the logarithm is finite.
    exponential: (mean) => (Number.isFinite(mean) ? -Math.log(1 - next()) * mean : Number.POSITIVE_INFINITY),
  };
}

/**
 * A seed for the `index`-th member of a seeded family (one PRNG per lock), mixed so that neighbouring
 * indexes do not start with correlated sequences.
 */
export function deriveSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
