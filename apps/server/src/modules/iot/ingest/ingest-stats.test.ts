import { describe, expect, it } from 'vitest';
import { IngestStats } from './ingest-stats.ts';

describe('IngestStats latency', () => {
  it('has no quantiles before anything was recorded', () => {
    expect(new IngestStats().snapshot(0).latencyMs).toEqual({ count: 0, p50: null, p99: null, max: null });
  });

  it('answers the bucket bound at or above the quantile', () => {
    const stats = new IngestStats();
    for (let i = 0; i < 98; i++) stats.recordLatency(4);
    stats.recordLatency(140);
    stats.recordLatency(900);
    const { latencyMs } = stats.snapshot(3);
    expect(latencyMs.count).toBe(100);
    expect(latencyMs.p50).toBe(5);
    expect(latencyMs.p99).toBe(150);
    expect(latencyMs.max).toBe(900);
  });

  it('keeps the time to arrival apart from the time to commit, and resets both', () => {
    const stats = new IngestStats();
    stats.recordArrival(3);
    stats.recordLatency(40);
    expect(stats.snapshot(0)).toMatchObject({
      latencyMs: { count: 1, p50: 40, max: 40 },
      arrivalMs: { count: 1, p50: 3, max: 3 },
    });
    stats.resetLatency();
    expect(stats.snapshot(0).arrivalMs).toEqual({ count: 0, p50: null, p99: null, max: null });
  });

  it('reports the maximum for values above the last bucket and clamps negative clock skew to zero', () => {
    const stats = new IngestStats();
    stats.recordLatency(-20);
    expect(stats.latencyQuantile(1)).toBe(0);
    stats.recordLatency(45_000);
    expect(stats.latencyQuantile(1)).toBe(45_000);
    stats.resetLatency();
    stats.recordLatency(565);
    expect(stats.latencyQuantile(0.5)).toBe(565);
    stats.resetLatency();
    expect(stats.latencyQuantile(0.5)).toBeNull();
  });
});
