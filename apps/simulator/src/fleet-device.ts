/**
 * One simulated lock inside a fleet: its behaviour model, its link to the network and the counters the
 * fleet paces it by.
 */
import type { DeviceLink, SendCallback } from './device-link.ts';
import type { FleetStats, SimulatedDevice } from './fleet-options.ts';
import { type LockBehaviour, LockModel, type ReportToSend } from './lock-model.ts';
import { createRandom, deriveSeed } from './random.ts';

export interface DeviceRuntime {
  readonly index: number;
  readonly device: SimulatedDevice;
  readonly model: LockModel;
  link: DeviceLink | null;
  up: boolean;
  everUp: boolean;
  inFlight: number;
  /** Load reports published so far: the `n` of the last id. */
  loadCount: number;
  /** The one heartbeat object a device's load reports are encoded from (only its id and time change). */
  loadReport: ReportToSend;
  /** The battery level its load reports carry (but for the ones that play a fault). */
  loadBattery: number;
  /** Created once per device: no closure per message. */
  done: SendCallback;
}

/** What every lock of one run shares. */
export interface LockSetup {
  runPrefix: string;
  seed: number;
  startAt: number;
  behaviour: Partial<LockBehaviour> | undefined;
  stats: FleetStats;
}

export function createDeviceRuntime(device: SimulatedDevice, index: number, setup: LockSetup): DeviceRuntime {
  const { stats, behaviour } = setup;
  const model = new LockModel({
    code: device.code,
    idPrefix: setup.runPrefix,
    random: createRandom(deriveSeed(setup.seed, index)),
    startAt: setup.startAt,
    ...(behaviour === undefined ? {} : { behaviour }),
    ...(device.pinSecret === undefined ? {} : { pinSecret: Buffer.from(device.pinSecret, 'hex') }),
  });
  const state = model.state;
  const runtime: DeviceRuntime = {
    index,
    device,
    model,
    link: null,
    up: false,
    everUp: false,
    inFlight: 0,
    loadCount: 0,
    loadBattery: Math.floor(state.battery),
    loadReport: {
      messageId: '',
      reportedAt: 0,
      event: 'heartbeat',
      lock: state.lock,
      door: state.door,
      battery: Math.floor(state.battery),
      rssi: -60 - (index % 45),
      runState: state.runState,
    },
    done: (error) => {
      runtime.inFlight -= 1;
      if (error) stats.failed += 1;
      else stats.acknowledged += 1;
    },
  };
  return runtime;
}

/**
 * Offers what the lock's model produced, stamped with the send time (the model's clock may run faster than
 * the real one).
 */
export function publishModelReports(
  runtime: DeviceRuntime,
  reports: readonly ReportToSend[],
  sentAt: number,
  stats: FleetStats,
): void {
  for (const report of reports) {
    report.reportedAt = sentAt;
    stats.offered += 1;
    publishReport(runtime, report, stats);
  }
}

/** Hands a report to the device's link, counted until the network takes it over or gives up. */
export function publishReport(runtime: DeviceRuntime, report: ReportToSend, stats: FleetStats): void {
  stats.published += 1;
  runtime.inFlight += 1;
  runtime.link?.send(report, runtime.done);
}
