/**
 * The one internal message every adapter produces (ARCHITECTURE §5): whatever network a lock is on, its
 * reports and command results reach the ingest pipeline in this shape.
 */

export type LockState = 'open' | 'closed';
export type DoorState = 'open' | 'closed';
/** Run state of spec §4. */
export type RunState = 'normal' | 'damaged' | 'lowPower' | 'timeOutNotClosed';
export const RUN_STATES: readonly RunState[] = ['normal', 'damaged', 'lowPower', 'timeOutNotClosed'];

/** Why a device sent a report. */
export type ReportEvent =
  | 'heartbeat'
  | 'boot'
  | 'lockChanged'
  | 'doorChanged'
  | 'damage'
  | 'lowBattery'
  | 'status'
  /** An offline PIN opened the lock (property `pinRef`: the PIN's reference, docs/offline-pins.md). */
  | 'pinUsed'
  /** Wrong PINs locked the keypad out. */
  | 'pinLockout';
export const REPORT_EVENTS: readonly ReportEvent[] = [
  'heartbeat',
  'boot',
  'lockChanged',
  'doorChanged',
  'damage',
  'lowBattery',
  'status',
  'pinUsed',
  'pinLockout',
];

/** Network a message arrived over (the device's iotType decides which one it uses). */
export type DeviceProtocol = 'mqtt' | 'chirpstack' | 'nbiot' | 'tcp';

/** Extension properties of a report (spec §3 warn rules: propOrigin Extension). */
export type ExtensionProps = Record<string, string | number | boolean>;

/** A state report: every field but the message id is optional (a status event may carry the battery only). */
export interface DeviceReport {
  kind: 'report';
  /** Unique per device; the same id twice is the same report (ingest is idempotent on it). */
  messageId: string;
  /** When the device says it measured (ms since epoch); the receive time is used when absent. */
  reportedAt?: number;
  event?: ReportEvent;
  lock?: LockState;
  door?: DoorState;
  /** Battery charge, 0–100 %. */
  battery?: number;
  /** Received signal strength, dBm (−200…0). */
  rssi?: number;
  runState?: RunState;
  props?: ExtensionProps;
}

/**
 * Delivery / execution outcome of a command, as the device or its network reports it. `Success` and
 * `Failure` come from the lock itself; the NB_* states from an NB-IoT platform; ChirpStack's ack / txack
 * map onto `NB_Delivered`-like steps as `Delivered` / `Sent`.
 */
export const COMMAND_OUTCOMES = [
  'Success',
  'Failure',
  'Sent',
  'Delivered',
  'NB_Failed',
  'NB_Successful',
  'NB_Pending',
  'NB_Send',
  'NB_Delivered',
  'NB_Expired',
  'NB_Timeout',
  'NB_Canceled',
  'NB_UnKnow',
] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

export interface CommandResult {
  kind: 'commandResult';
  messageId: string;
  /** The id the command was sent down with (native / TcpDirect), ChirpStack's queue item id, or the NB platform's command id. */
  commandId: string;
  outcome: CommandOutcome;
  /** Device or platform text, at most 200 characters. */
  detail?: string;
  reportedAt?: number;
}

export type DeviceMessage = DeviceReport | CommandResult;

/** How an adapter names the device: native and TcpDirect by station and code, LoRaWAN by devEUI, NB-IoT by IMEI. */
export type DeviceAddress =
  | { by: 'code'; stationId: string; code: string }
  | {
      by: 'devEui';
      devEui: string /** ChirpStack application of the uplink, where downlinks go. */;
      applicationId?: string;
    }
  | { by: 'imei'; imei: string };

/** A decoded message as the ingest pipeline receives it. */
export interface InboundMessage {
  protocol: DeviceProtocol;
  address: DeviceAddress;
  message: DeviceMessage;
  /** The message as received (the JSON payload, ChirpStack event or platform callback body as text), kept in the device history. */
  raw: string;
  /** Receive time at the server (ms since epoch). */
  receivedAt: number;
}

/** Why a message was refused; counted and logged, never written as data. */
export type DecodeFailure = 'oversized' | 'malformed' | 'invalid' | 'unsupported';

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: DecodeFailure; detail: string };

export function decoded<T>(value: T): Decoded<T> {
  return { ok: true, value };
}

export function refused<T = never>(reason: DecodeFailure, detail: string): Decoded<T> {
  return { ok: false, reason, detail };
}

const hasNul = (value: unknown): boolean => typeof value === 'string' && value.includes('\u0000');

/**
 * The first text of a decoded message (a field, or an extension property's key or value) that holds U+0000,
 * which no text column can store; undefined when there is none. A message with one is refused as invalid.
 */
export function nulFieldOf(message: DeviceMessage): string | undefined {
  // Once per message on the ingest path: `for…in` over the own fields of these plain objects, without the
  // arrays `Object.entries` would build.
  const fields = message as unknown as Record<string, unknown>;
  for (const field in fields) if (Object.hasOwn(fields, field) && hasNul(fields[field])) return field;
  if (message.kind !== 'report' || !message.props) return undefined;
  const props = message.props;
  for (const key in props) {
    if (!Object.hasOwn(props, key)) continue;
    if (hasNul(key) || hasNul(props[key])) return `props.${key.replaceAll('\u0000', '\\u0000')}`;
  }
  return undefined;
}

/** A command as sent down to a lock (native MQTT `down` topic, TcpDirect frame, LoRaWAN / NB-IoT binary). */
export interface DeviceCommand {
  /** Command id (a UUID), echoed by the device in its result. */
  id: string;
  /** Command code (spec §3 cmdCode), e.g. `open`, `close`, `setParam`, `setPassword`. */
  cmd: string;
  params?: Record<string, string | number | boolean>;
  /** Expiry (ms since epoch): a lock ignores a command received after it. */
  expireAt?: number;
}
