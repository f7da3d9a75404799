/**
 * What the parts of a running fleet share: the counters, the logger, the clocks, whether it was stopped,
 * and its readiness (every device connected once).
 */
import type { FleetLogger, FleetMode, FleetStats } from './fleet-options.ts';

export interface FleetRun {
  readonly mode: FleetMode;
  readonly logger: FleetLogger;
  readonly stats: FleetStats;
  readonly runPrefix: string;
  readonly readiness: FleetReadiness;
  /** The behaviour clock: scaled by the behaviour mode's time scale; report times stay on the real one. */
  readonly simNow: () => number;
  stopped: boolean;
}

/** `ready` of a fleet: resolves once every device has come up, rejects with the first that could not. */
export class FleetReadiness {
  readonly ready: Promise<void>;
  private settled = false;
  private waitingForFirstUp: number;
  private resolve: () => void = () => {};
  private reject: (error: Error) => void = () => {};

  constructor(deviceCount: number) {
    this.waitingForFirstUp = deviceCount;
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A caller that never awaits `ready` must not crash the process with an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** A device came up for the first time; true when it was the last one awaited. */
  firstUp(): boolean {
    this.waitingForFirstUp -= 1;
    return this.waitingForFirstUp === 0;
  }

  /** Only the first settlement counts. */
  settle(error?: Error): void {
    if (this.settled) return;
    this.settled = true;
    if (error) this.reject(error);
    else this.resolve();
  }
}
