import { describe, expect, it } from 'vitest';
import { startPeriodicJobs } from './periodic-jobs.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startPeriodicJobs', () => {
  it('runs a job at start and on its interval, never twice at once, and goes on after a failure', async () => {
    const errors: object[] = [];
    let running = 0;
    let most = 0;
    let runs = 0;
    const stop = startPeriodicJobs(
      [
        {
          name: 'slow',
          intervalMs: 5,
          atStart: true,
          run: async () => {
            runs += 1;
            running += 1;
            most = Math.max(most, running);
            await sleep(30);
            running -= 1;
            if (runs === 1) throw new Error('first run fails');
          },
        },
      ],
      { error: (obj) => errors.push(obj) },
      'job failed',
    );
    await sleep(200);
    await stop();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
    // Ticks every 5 ms while a run takes 30 ms: the missed ticks are not made up for afterwards.
    expect(runs).toBeLessThan(12);
    expect(errors).toEqual([{ job: 'slow', error: 'first run fails' }]);
    const after = runs;
    await sleep(30);
    expect(runs).toBe(after);
  });
});
