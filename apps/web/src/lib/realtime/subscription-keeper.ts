import type { Scheduler } from './scheduler.ts';

export interface SubscriptionKeeperOptions {
  /** Sends one subscription; `done(true)` once the broker granted it, `done(false)` when it refused. */
  subscribe(done: (granted: boolean) => void): void;
  /** How long a subscription may go unanswered before it counts as failed. */
  timeoutMs: number;
  /** Pause before a failed subscription is tried again. */
  retryMs: number;
  scheduler: Scheduler;
  onSubscribed(): void;
}

/**
 * Keeps the console subscribed on one connection (spec §9: subscribe timeout 10 s, resubscribe retry 3 s): a
 * subscription that is refused or not answered in time is sent again after the retry pause, until one is
 * granted or the connection ends. Answers to an abandoned attempt are ignored.
 */
export class SubscriptionKeeper {
  private attempt = 0;
  private timer: unknown = null;

  constructor(private readonly options: SubscriptionKeeperOptions) {}

  /** Starts subscribing (again) on a new connection. */
  start(): void {
    this.stop();
    this.send();
  }

  /** The connection ended: no more attempts, and late answers are ignored. */
  stop(): void {
    this.attempt += 1;
    this.clearTimer();
  }

  private send(): void {
    const attempt = ++this.attempt;
    const { scheduler, timeoutMs, retryMs } = this.options;
    const settle = (granted: boolean) => {
      if (attempt !== this.attempt) return;
      this.attempt += 1; // this attempt is settled: a second answer to it is ignored
      this.clearTimer();
      if (granted) this.options.onSubscribed();
      else this.timer = scheduler.setTimeout(() => this.send(), retryMs);
    };
    this.timer = scheduler.setTimeout(() => settle(false), timeoutMs);
    this.options.subscribe(settle);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.options.scheduler.clearTimeout(this.timer);
    this.timer = null;
  }
}
