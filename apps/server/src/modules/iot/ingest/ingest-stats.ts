/**
 * Counters of the ingest pipeline and two latency histograms (report time → committed, and report time →
 * taken by the pipeline, i.e. what the network and the broker took), for logs, the benchmark and the
 * operators' health view. Pure bookkeeping, no I/O.
 */

/** Why a message was not stored as data. */
export type RejectReason =
  | 'oversized'
  | 'malformed'
  | 'invalid'
  | 'unsupported'
  | 'unknownDevice'
  | 'wrongStation'
  | 'unauthorized'
  | 'overloaded';

/** Upper bounds (ms) of the latency buckets; the last bucket holds everything above. */
const BUCKETS_MS = [
  1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 2000, 5000, 10000, 30000,
];

export interface IngestStatsSnapshot {
  received: number;
  stored: number;
  duplicates: number;
  rejected: Record<RejectReason, number>;
  batches: number;
  failedBatches: number;
  /** Runtime rows the committed batches wrote (one per device and batch). */
  runtimeWrites: number;
  /** Devices' updates of committed batches that repeated their last write and were left out (`RepeatReports`). */
  runtimeRepeats: number;
  queued: number;
  /** Report time → committed. */
  latencyMs: LatencySummary;
  /** Report time → taken by the pipeline (before the database). */
  arrivalMs: LatencySummary;
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

/** Latencies in fixed buckets: constant memory, quantiles as the bucket bound (an upper estimate). */
export class LatencyHistogram {
  private readonly buckets = new Array<number>(BUCKETS_MS.length + 1).fill(0);
  private count = 0;
  private max: number | null = null;

  record(ms: number): void {
    const value = Math.max(0, ms);
    let i = 0;
    while (i < BUCKETS_MS.length && value > BUCKETS_MS[i]!) i++;
    this.buckets[i]!++;
    this.count++;
    this.max = this.max === null ? value : Math.max(this.max, value);
  }

  /** The bucket bound at or below which `q` of the recorded latencies lie (an upper estimate). */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      // A bucket's bound, but never above the largest value seen.
      if (seen >= rank) return i < BUCKETS_MS.length ? Math.min(BUCKETS_MS[i]!, this.max!) : this.max;
    }
    return this.max;
  }

  reset(): void {
    this.buckets.fill(0);
    this.count = 0;
    this.max = null;
  }

  summary(): LatencySummary {
    return { count: this.count, p50: this.quantile(0.5), p99: this.quantile(0.99), max: this.max };
  }
}

export class IngestStats {
  received = 0;
  stored = 0;
  duplicates = 0;
  batches = 0;
  failedBatches = 0;
  runtimeWrites = 0;
  runtimeRepeats = 0;
  readonly rejected: Record<RejectReason, number> = {
    oversized: 0,
    malformed: 0,
    invalid: 0,
    unsupported: 0,
    unknownDevice: 0,
    wrongStation: 0,
    unauthorized: 0,
    overloaded: 0,
  };
  private readonly latency = new LatencyHistogram();
  private readonly arrival = new LatencyHistogram();

  /** Report time → committed. */
  recordLatency(ms: number): void {
    this.latency.record(ms);
  }

  /** Report time → taken by the pipeline. */
  recordArrival(ms: number): void {
    this.arrival.record(ms);
  }

  /** The bucket bound at or below which `q` of the report → commit latencies lie (an upper estimate). */
  latencyQuantile(q: number): number | null {
    return this.latency.quantile(q);
  }

  resetLatency(): void {
    this.latency.reset();
    this.arrival.reset();
  }

  snapshot(queued: number): IngestStatsSnapshot {
    return {
      received: this.received,
      stored: this.stored,
      duplicates: this.duplicates,
      rejected: { ...this.rejected },
      batches: this.batches,
      failedBatches: this.failedBatches,
      runtimeWrites: this.runtimeWrites,
      runtimeRepeats: this.runtimeRepeats,
      queued,
      latencyMs: this.latency.summary(),
      arrivalMs: this.arrival.summary(),
    };
  }
}
