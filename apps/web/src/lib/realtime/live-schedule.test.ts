import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterQuiet, atMostEvery } from './live-schedule.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('atMostEvery', () => {
  it('runs the first request at once and the requests of an interval as one run at its end', () => {
    const run = vi.fn();
    const scheduled = atMostEvery(2000, run);
    scheduled.request();
    expect(run).toHaveBeenCalledTimes(1);
    scheduled.request();
    scheduled.request();
    vi.advanceTimersByTime(1999);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs at once again after a quiet interval', () => {
    const run = vi.fn();
    const scheduled = atMostEvery(2000, run);
    scheduled.request();
    vi.advanceTimersByTime(5000);
    scheduled.request();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('keeps at most one run every interval under a steady stream', () => {
    const run = vi.fn();
    const scheduled = atMostEvery(2000, run);
    for (let ms = 0; ms < 10_000; ms += 100) {
      scheduled.request();
      vi.advanceTimersByTime(100);
    }
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(5);
    expect(run.mock.calls.length).toBeLessThanOrEqual(6);
  });

  it('drops the waiting run when cancelled', () => {
    const run = vi.fn();
    const scheduled = atMostEvery(2000, run);
    scheduled.request();
    scheduled.request();
    scheduled.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('afterQuiet', () => {
  it('runs once requests have stopped for the quiet time', () => {
    const run = vi.fn();
    const scheduled = afterQuiet(500, 2000, run);
    scheduled.request();
    vi.advanceTimersByTime(400);
    scheduled.request();
    vi.advanceTimersByTime(400);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs no later than the longest wait while requests keep coming', () => {
    const run = vi.fn();
    const scheduled = afterQuiet(500, 2000, run);
    for (let ms = 0; ms < 2000; ms += 100) {
      scheduled.request();
      vi.advanceTimersByTime(100);
    }
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('drops the waiting run when cancelled', () => {
    const run = vi.fn();
    const scheduled = afterQuiet(500, 2000, run);
    scheduled.request();
    scheduled.cancel();
    vi.advanceTimersByTime(5000);
    expect(run).not.toHaveBeenCalled();
  });
});
