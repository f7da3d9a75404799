import type { Scheduler } from './scheduler.ts';

interface Pending {
  at: number;
  callback: () => void;
}

/**
 * A scheduler whose time only moves when a test says so, for tests of the channels' timing: `advance(ms)` runs
 * what falls due, in order, including what those callbacks schedule within the same span.
 */
export class ManualScheduler implements Scheduler {
  now = 0;
  private readonly pending = new Map<number, Pending>();
  private nextHandle = 1;

  setTimeout(callback: () => void, ms: number): number {
    const handle = this.nextHandle++;
    this.pending.set(handle, { at: this.now + ms, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Delays, from now, of the timers still pending. */
  delays(): number[] {
    return [...this.pending.values()].map((timer) => timer.at - this.now).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending.entries()]
        .filter(([, timer]) => timer.at <= until)
        .sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
      if (!due) break;
      const [handle, timer] = due;
      this.pending.delete(handle);
      this.now = timer.at;
      timer.callback();
    }
    this.now = until;
  }
}
