/**
 * The simulator's public contract: the server's DEMO mode and the ingest benchmark start fleets with these.
 */

import type { ExpectedIds } from './load-scheduler.ts';
import type { LockBehaviour, PinEntryOutcome } from './lock-model.ts';

export type SimProtocol = 'mqtt' | 'chirpstack' | 'tcp';
export const SIM_PROTOCOLS: readonly SimProtocol[] = ['mqtt', 'chirpstack', 'tcp'];

export interface SimulatedDevice {
  stationId: string;
  code: string;
  /** Broker password (native MQTT) or TcpDirect secret; anonymous brokers need none. */
  secret?: string;
  protocol: SimProtocol;
  /** Required for 'chirpstack' devices: 16 hex digits. */
  devEui?: string;
  /**
   * The offline-PIN secret shown with the device credential (`pinSecret`): 40 hex digits, 20 bytes. A lock
   * without one refuses every PIN. Never logged.
   */
  pinSecret?: string;
}

export interface FleetLogger {
  info(o: object, m?: string): void;
  warn(o: object, m?: string): void;
}

export type FleetMode =
  | {
      kind: 'behaviour';
      heartbeatSeconds?: number;
      /** Simulated seconds per real second (default 1): 60 lives a lock's hour in a minute. */
      timeScale?: number;
      /** Overrides of the locks' behaviour rates (defaults: `DEFAULT_BEHAVIOUR`). */
      behaviour?: Partial<LockBehaviour>;
    }
  | {
      kind: 'load';
      /** Reports per second offered by the whole fleet. */
      rate: number;
      /**
       * Unacknowledged reports a device may hold (default 1000): past it a due report is offered but not
       * published, so an overloaded broker shows as offered > published instead of unbounded memory.
       */
      maxInFlightPerDevice?: number;
      /**
       * Every `faultEvery`-th load report of a device (staggered over the devices) says its battery is at
       * {@link LOAD_FAULT_BATTERY} %, the next one again its own level: a low-battery warn rule raises and
       * clears while the load runs (the alarm benchmark). Unset: every report is the same.
       */
      faultEvery?: number;
    };

/** The battery level (%) of a load report that plays a fault (`faultEvery`). */
export const LOAD_FAULT_BATTERY = 5;

export interface FleetOptions {
  devices: SimulatedDevice[];
  /** For 'mqtt' and 'chirpstack' devices. */
  mqttUrl?: string;
  chirpstack?: { username: string; password: string; applicationId: string };
  tcp?: { host: string; port: number };
  mode: FleetMode;
  seed?: number;
  logger?: FleetLogger;
  /** Connections opened at once (default 100). */
  connectConcurrency?: number;
}

/** Live counters of a fleet (read them any time; they are updated in place). */
export interface FleetStats {
  devices: number;
  /** Devices whose connection is up now. */
  connected: number;
  /** Reports due (load mode: scheduled; behaviour mode: produced by the locks). */
  offered: number;
  /** Reports handed to the network client. */
  published: number;
  /** Reports the network confirmed: PUBACK (MQTT), a `received` frame (TcpDirect). */
  acknowledged: number;
  /** Reports the network client gave up on. */
  failed: number;
  commandsReceived: number;
  resultsSent: number;
}

export interface Fleet {
  readonly stats: FleetStats;
  /** Resolves once every device has connected; rejects naming the first device that could not. */
  ready: Promise<void>;
  /**
   * Stops producing reports, waits up to `drainMs` (default 2000) for the unacknowledged ones, then closes
   * every connection.
   */
  stop(options?: { drainMs?: number }): Promise<void>;
  /** Differs on every start; prefixes every message id of this run. */
  readonly runPrefix: string;
  /** Load mode: the ids published so far, per device (`{runPrefix}-{deviceIndex}-{n}`, n from 1). */
  expectedIds(): ExpectedIds;
  /**
   * Someone types `pin` on the keypad of the lock with this code, at `at` on the lock's clock (default:
   * now). The report it causes (`pinUsed`, `pinLockout`) goes out at once through the lock's link in
   * behaviour mode; a load run sends only its counted heartbeats. Throws a RangeError when no lock, or
   * more than one, has this code.
   */
  enterPin(code: string, pin: string, at?: number): PinEntryOutcome;
}
