/** The q-quantile of ascending values (nearest rank), or null when there are none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
}

/**
 * Latencies in whole milliseconds (a negative one counts as 0), counted per millisecond: adding one costs the
 * same however many there are, and a quantile is read without sorting. Its quantiles are those `quantile`
 * gives for the same values sorted. (Sorting the million latencies a console receives in two minutes took a
 * quarter of a second at every progress line, and the fleet, the subscriber and the probes that share the
 * bench's thread stood still meanwhile.)
 */
export class MillisecondHistogram {
  private counts = new Float64Array(1024);
  private total = 0;
  private largest = -1;

  add(ms: number): void {
    const value = Math.max(0, Math.round(ms));
    if (value >= this.counts.length) {
      const grown = new Float64Array(Math.max(value + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[value]!++;
    this.total++;
    if (value > this.largest) this.largest = value;
  }

  get count(): number {
    return this.total;
  }

  /** The nearest-rank q-quantile, or null when there are none. */
  quantile(q: number): number | null {
    if (this.total === 0) return null;
    const rank = Math.min(this.total, Math.max(1, Math.ceil(q * this.total)));
    let seen = 0;
    for (let value = 0; value <= this.largest; value++) {
      seen += this.counts[value]!;
      if (seen >= rank) return value;
    }
    return this.largest;
  }

  max(): number | null {
    return this.total === 0 ? null : this.largest;
  }
}
