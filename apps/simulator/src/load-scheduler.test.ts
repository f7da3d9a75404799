import { describe, expect, it } from 'vitest';
import { expectedIdList, LOAD_TICK_MS, LoadScheduler, loadReportId, offeredBy } from './load-scheduler.ts';
import { createRandom } from './random.ts';

/** Runs the scheduler on ticks of `tickMs` (or jittered ones) for `seconds`; returns the count per device. */
function drive(
  scheduler: LoadScheduler,
  seconds: number,
  nextTick: () => number = () => LOAD_TICK_MS,
): { perDevice: number[]; checkpoints: Array<[number, number]> } {
  const perDevice = new Array<number>(scheduler.deviceCount).fill(0);
  const checkpoints: Array<[number, number]> = [];
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    elapsed = Math.min(elapsed + nextTick(), seconds * 1000);
    scheduler.advance(elapsed, (device) => {
      perDevice[device] = (perDevice[device] ?? 0) + 1;
    });
    checkpoints.push([elapsed, scheduler.offered]);
  }
  return { perDevice, checkpoints };
}

describe('offeredBy', () => {
  it('is rate × seconds, rounded down', () => {
    expect(offeredBy(20_000, 1000)).toBe(20_000);
    expect(offeredBy(20_000, 10)).toBe(200);
    expect(offeredBy(333, 1000)).toBe(333);
    expect(offeredBy(333, 10)).toBe(3);
    expect(offeredBy(0.5, 1999)).toBe(0);
    expect(offeredBy(0.5, 2000)).toBe(1);
    expect(offeredBy(100, 0)).toBe(0);
    expect(offeredBy(100, -50)).toBe(0);
  });
});

describe('LoadScheduler', () => {
  it('offers exactly rate × seconds, 20 per device per second for 1 000 devices at 20 000/s', () => {
    const scheduler = new LoadScheduler(20_000, 1000);
    const { perDevice, checkpoints } = drive(scheduler, 3);
    expect(scheduler.offered).toBe(60_000);
    expect(new Set(perDevice)).toEqual(new Set([60]));
    // Every 10 ms tick sends its share: 200 reports.
    expect(checkpoints[0]).toEqual([10, 200]);
  });

  it('spreads an uneven rate so that no device gets more than one report above another', () => {
    const scheduler = new LoadScheduler(333, 7);
    const { perDevice } = drive(scheduler, 2.5);
    expect(scheduler.offered).toBe(832);
    expect(perDevice.reduce((a, b) => a + b, 0)).toBe(832);
    expect(Math.max(...perDevice) - Math.min(...perDevice)).toBeLessThanOrEqual(1);
  });

  it('holds the rate within one tick whatever the timer jitter', () => {
    const random = createRandom(99);
    const scheduler = new LoadScheduler(1234, 10);
    const { checkpoints } = drive(scheduler, 5, () => random.between(2, 40));
    for (const [elapsed, offered] of checkpoints) {
      expect(offered).toBe(Math.floor((1234 * elapsed) / 1000));
    }
    expect(scheduler.offered).toBe(1234 * 5);
  });

  it('catches up after a late tick and never sends for a clock that went back', () => {
    const scheduler = new LoadScheduler(1000, 4);
    const sent: number[] = [];
    expect(scheduler.advance(10, (d) => sent.push(d))).toBe(10);
    expect(scheduler.advance(500, (d) => sent.push(d))).toBe(490);
    expect(scheduler.advance(400, (d) => sent.push(d))).toBe(0);
    expect(sent).toHaveLength(500);
    expect(sent.slice(0, 6)).toEqual([0, 1, 2, 3, 0, 1]);
  });

  it('sends less than one report per tick at a low rate', () => {
    const scheduler = new LoadScheduler(5, 3);
    const { perDevice } = drive(scheduler, 2);
    expect(perDevice).toEqual([4, 3, 3]);
  });

  it('refuses a rate or device count it cannot pace', () => {
    expect(() => new LoadScheduler(0, 1)).toThrow(RangeError);
    expect(() => new LoadScheduler(Number.NaN, 1)).toThrow(RangeError);
    expect(() => new LoadScheduler(Number.POSITIVE_INFINITY, 1)).toThrow(RangeError);
    expect(() => new LoadScheduler(10, 0)).toThrow(RangeError);
    expect(() => new LoadScheduler(10, 1.5)).toThrow(RangeError);
  });
});

describe('expected ids', () => {
  it('names every published report {runPrefix}-{deviceIndex}-{n}, n from 1, zero-padded to sort in order', () => {
    expect(loadReportId('a1b2c3d4', 7, 12)).toBe('a1b2c3d4-7-0000000012');
    expect(loadReportId('r', 0, 9) < loadReportId('r', 0, 10)).toBe(true);
    expect([...expectedIdList({ runPrefix: 'r', perDevice: [2, 0, 1], total: 3 })]).toEqual([
      'r-0-0000000001',
      'r-0-0000000002',
      'r-2-0000000001',
    ]);
  });
});
