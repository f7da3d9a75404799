/**
 * The load mode's pacing: a fixed offered rate spread evenly over the devices, driven by one timer for the
 * whole fleet. The number due is derived from the elapsed time (not added up per tick), so a late tick
 * catches up and the rate holds whatever the timer's jitter.
 */
import { messageCounter } from './lock-model.ts';

/** How often the fleet's single load timer fires. */
export const LOAD_TICK_MS = 10;

/** Reports offered in the first `elapsedMs` at `rate` reports/s. */
export function offeredBy(rate: number, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : Math.floor((rate * elapsedMs) / 1000);
}

export class LoadScheduler {
  private cursor = 0;
  private offeredSoFar = 0;

  constructor(
    readonly rate: number,
    readonly deviceCount: number,
  ) {
    if (!(rate > 0) || !Number.isFinite(rate))
      throw new RangeError(`rate must be a positive number, not ${rate}`);
    if (!Number.isInteger(deviceCount) || deviceCount < 1) {
      throw new RangeError(`deviceCount must be a positive integer, not ${deviceCount}`);
    }
  }

  get offered(): number {
    return this.offeredSoFar;
  }

  /**
   * Calls `send` once for every report that fell due by `elapsedMs` (since the start of the run), handing
   * them to the devices in turn so that each device's share differs from another's by at most one.
   * Returns how many were due.
   */
  advance(elapsedMs: number, send: (deviceIndex: number) => void): number {
    const due = offeredBy(this.rate, elapsedMs) - this.offeredSoFar;
    for (let i = 0; i < due; i++) {
      send(this.cursor);
      this.cursor = this.cursor + 1 === this.deviceCount ? 0 : this.cursor + 1;
    }
    if (due > 0) this.offeredSoFar += due;
    return Math.max(due, 0);
  }
}

/**
 * The id of the `n`-th (from 1) load report of a device: the benchmark rebuilds the whole set from it. The
 * counter is zero-padded, as a lock numbers its messages (docs/device-protocol.md): ids that sort in sending
 * order keep the history's (device, message id) index growing at one end.
 */
export function loadReportId(runPrefix: string, deviceIndex: number, n: number): string {
  return `${runPrefix}-${deviceIndex}-${messageCounter(n)}`;
}

/** What a benchmark needs to check a load run for loss and duplicates. */
export interface ExpectedIds {
  runPrefix: string;
  /** Reports handed to the network per device (index as in `FleetOptions.devices`): ids `1…count`. */
  perDevice: readonly number[];
  total: number;
}

/** Every id a load run published, device by device. */
export function* expectedIdList(expected: ExpectedIds): Generator<string> {
  for (let device = 0; device < expected.perDevice.length; device++) {
    const count = expected.perDevice[device] ?? 0;
    for (let n = 1; n <= count; n++) yield loadReportId(expected.runPrefix, device, n);
  }
}
