/**
 * What a network link (native MQTT, ChirpStack, TcpDirect) and the fleet need from each other. A link
 * speaks one wire protocol; the fleet owns the locks, the counters and the pacing.
 */
import type { DeviceCommand } from '@uiot/device-protocol';
import type { SimulatedDevice } from './fleet-options.ts';
import type { ReportToSend, ResultToSend } from './lock-model.ts';

export type SendCallback = (error?: Error | null) => void;

/** The fleet's side of one device, as a link sees it. */
export interface DeviceSession {
  readonly index: number;
  readonly device: SimulatedDevice;
  /** The device's connection came up (again). */
  up(): void;
  down(): void;
  /** A connection attempt failed; `where` names the far end without credentials. */
  connectFailed(error: Error, where: string): void;
  /** A command reached the lock: its answer, or null when the lock stays silent. */
  command(command: DeviceCommand): ResultToSend | null;
  resultSent(): void;
  warn(detail: object, message: string): void;
}

export interface DeviceLink {
  /** Hands one report to the network; `done` runs once it was taken over or failed. */
  send(report: ReportToSend, done: SendCallback): void;
}

/** One network connection (a device's own, or ChirpStack's for all LoRaWAN devices). */
export interface Connection {
  /** Starts connecting; `settled` runs once, after the first attempt came up or failed. */
  open(settled: () => void): void;
  close(): Promise<void>;
}

/** A URL as it may be shown: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** MQTT 3.1.1 CONNACK return codes (mqtt.js names them after MQTT 5's reason codes). */
const CONNACK_REFUSALS: Record<number, string> = {
  1: 'unacceptable protocol version',
  2: 'client identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

/** The error for a CONNACK that refused the connection with this return code. */
export function connackRefusal(returnCode: number): Error {
  const reason = CONNACK_REFUSALS[returnCode] ?? `return code ${returnCode}`;
  return new Error(`connection refused: ${reason}`);
}

export function describeMqttError(error: Error & { code?: unknown }): Error {
  if (typeof error.code === 'number' && CONNACK_REFUSALS[error.code] !== undefined) {
    return connackRefusal(error.code);
  }
  return error;
}

/** How long closing a connection may take before it is given up on. */
const CLOSE_TIMEOUT_MS = 2000;

/**
 * Ends an MQTT client at once. mqtt.js calls back when its socket closes, which never happens for a
 * client caught between two reconnect attempts, so the wait is bounded.
 */
export function endMqttClient(client: {
  end(force: boolean, opts: object, cb: () => void): unknown;
}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    timer.unref();
    client.end(true, {}, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
